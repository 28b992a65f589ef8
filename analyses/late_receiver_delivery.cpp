#include "analyses/late_receiver_delivery.hpp"

#include "analyses/metric_claims.hpp"
#include "common/error.hpp"

namespace hindsight {

void LateReceiverDelivery::begin_pass(const replay::LocalTrace& trace,
                                      replay::Direction direction) {
    if (direction != replay::Direction::Backward)
        throw Error(trace.anchor_path, "Late Receiver delivery needs a backward replay");
    points_->wait_states.bind(trace);
}

Ticks LateReceiverDelivery::caused(const replay::EventView& view) const {
    if (view.kind() != replay::EventKind::Recv) return 0;
    const auto& caused = points_->late_receivers_caused;
    const auto it = caused.find(view.index());
    return it == caused.end() ? 0 : it->second;
}

bool LateReceiverDelivery::carries_data(const replay::EventView& view) const { return caused(view) > 0; }

void LateReceiverDelivery::pack(const replay::EventView& view, replay::PayloadWriter& out) {
    if (const Ticks waiting = caused(view); waiting > 0) out.put<Ticks>(waiting);
}

void LateReceiverDelivery::unpack(const replay::EventView& view, replay::PayloadReader& in) {
    if (view.kind() != replay::EventKind::Send) return;
    // Nothing arrives for a send that did not wait.
    const Ticks waiting = in.empty() ? 0 : in.get<Ticks>();
    const replay::Message& msg = view.message();
    if (waiting <= 0) {
        points_->wait_states.record(view.index(), {WaitPattern::None, 0, msg.partner});
        return;
    }
    points_->wait_states.record(view.index(), {WaitPattern::LateReceiver, waiting, msg.partner});
    const CallPathId call = view.enter().cnode;
    claim_time(*cube_, view.trace(), Metric::MpiLateReceiver, call, waiting);
    if (msg.bytes == 0)
        claim(*cube_, Metric::SyncsSend, Metric::MpiSlrCount, call, 1.0);
    else
        claim(*cube_, Metric::CommsSend, Metric::MpiClrCount, call, 1.0);
}

}  // namespace hindsight
