// Late Receiver belongs to the sender, but only the receiver can see it in
// the forward pass (it compares the send call's times with its own). In the
// backward pass, where messages travel from receiver to sender, this
// observer hands each sender its wait, records the metric on the send's call
// path and completes the sender's synchronization points. Run it before
// the backward analyses, so that they find the sends' wait states filled in
// (it packs trace data only, so its pass travels in bulk).
#pragma once

#include "analyses/local_cube.hpp"
#include "analyses/synchronization_points.hpp"
#include "replay/observer.hpp"

namespace hindsight {

class LateReceiverDelivery final : public replay::ReplayObserver {
public:
    LateReceiverDelivery(LocalCube& cube, SynchronizationPoints& points)
        : cube_(&cube), points_(&points) {}

    void begin_pass(const replay::LocalTrace& trace, replay::Direction direction) override;
    // The waits are known from the forward pass; only the receives that
    // caused one send anything.
    bool packs_trace_data_only() const override { return true; }
    bool watches_regions() const override { return false; }
    bool carries_data(const replay::EventView& view) const override;
    void pack(const replay::EventView& view, replay::PayloadWriter& out) override;
    void unpack(const replay::EventView& view, replay::PayloadReader& in) override;

private:
    // The Late Receiver wait this receive caused its sender, or 0.
    Ticks caused(const replay::EventView& view) const;

    LocalCube* cube_;
    SynchronizationPoints* points_;
};

}  // namespace hindsight
