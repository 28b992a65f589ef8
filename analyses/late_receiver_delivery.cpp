#include "analyses/late_receiver_delivery.hpp"

#include "analyses/metric_claims.hpp"
#include "common/error.hpp"

namespace hindsight {

void LateReceiverDelivery::begin_pass(const replay::LocalTrace& trace,
                                      replay::Direction direction) {
    if (direction != replay::Direction::Backward)
        throw Error(trace.anchor_path, "Late Receiver delivery needs a backward replay");
}

void LateReceiverDelivery::pack(const replay::EventView& view, replay::PayloadWriter& out) {
    if (view.kind() != replay::EventKind::Recv) return;
    const auto& caused = points_->late_receivers_caused;
    const auto it = caused.find(view.index());
    out.put<Ticks>(it == caused.end() ? 0 : it->second);
}

void LateReceiverDelivery::unpack(const replay::EventView& view, replay::PayloadReader& in) {
    if (view.kind() != replay::EventKind::Send) return;
    const Ticks waiting = in.get<Ticks>();
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
