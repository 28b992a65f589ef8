// How far a replay pass has come, told by the engine to whoever shows it
// (the analyzer's progress display implements this; replay/ knows nothing
// of terminals). The engine tells only every kStride events, between
// strides of its walk, so that an implementation may read a clock each time
// and the events themselves cost nothing more.
#pragma once

#include <cstdint>

namespace hindsight::replay {

class PassProgress {
public:
    static constexpr std::uint32_t kStride = 4096;

    virtual ~PassProgress() = default;
    // A pass named `name` over `events` events begins (its bulk exchanges
    // before the first event included); rounds (ReplayEngine::run_rounds)
    // walk no events and report 0.
    virtual void pass_begins(const char* name, std::uint64_t events) = 0;
    // `done` events of the pass are behind.
    virtual void events_done(std::uint64_t done) = 0;
    // The pass is complete, with its exchanges after the last event.
    virtual void pass_ends() = 0;
};

}  // namespace hindsight::replay
