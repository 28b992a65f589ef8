// How many MPI operations synchronized or communicated, and how many bytes
// they moved. A zero-byte message or a collective that moves no data for a
// rank only synchronizes; everything else communicates. Collectives count
// for each rank by what that rank moved: both ways (exchange), only out
// (source), only in (destination); analyses/message_counts.hpp has the
// rules.
#pragma once

#include "analyses/local_cube.hpp"
#include "replay/observer.hpp"

namespace hindsight::analyses {

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
