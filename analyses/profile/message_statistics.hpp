// How many MPI operations synchronized or communicated, and how many bytes
// they moved. A zero-byte message or a collective that moves no data for a
// rank only synchronizes; everything else communicates. Collectives count
// for each rank by what that rank moved: both ways (exchange), only out
// (source), only in (destination).
#pragma once

#include <cstdint>

#include "analyses/local_cube.hpp"
#include "replay/observer.hpp"

namespace hindsight::analyses {

// The counting rules themselves, by call path, for whoever books an MPI
// operation outside a replay pass (a worker thread's, openmp/thread_profile):
// a message of `bytes` sent (else received), and a collective operation of
// the program that moved `sent` and `received` bytes for this thread.
void count_message(LocalCube& cube, CallPathId cnode, std::uint64_t bytes, bool sent);
void count_collective(LocalCube& cube, CallPathId cnode, std::uint64_t sent, std::uint64_t received);

class MessageStatistics final : public replay::ReplayObserver {
public:
    explicit MessageStatistics(LocalCube& cube) : cube_(&cube) {}

    // Counted in the forward pass where the engine meets the events (a
    // non-blocking collective where it completes); nothing travels.
    // Counts at pack(), unpack() and collectives, sends nothing.
    replay::Participation participation() const override {
        return {.payloads = replay::Payloads::FromTrace, .collectives = true};
    }
    void pack(const trace::EventView& view, replay::PayloadWriter&) override;
    void unpack(const trace::EventView& view, replay::PayloadReader&) override;
    replay::CollectiveTask on_collective(const trace::EventView& view,
                                         replay::CollectiveChannel&) override;

private:
    LocalCube* cube_;
};

}  // namespace hindsight::analyses
