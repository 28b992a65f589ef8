#include "analyses/wait_states/point_to_point_wait_states.hpp"

#include <algorithm>
#include <string_view>

#include "analyses/metric_claims.hpp"
#include "common/error.hpp"

namespace hindsight::analyses {
namespace {

using trace::EventKind;

// The send call's times travel with every message, so they are kept short:
// the entry, then the send and the exit as offsets from the event before
// them (uint32; the exit's top bit says whether the call may wait for a late
// receiver). Offsets that do not fit (a call of seconds at nanosecond ticks)
// are marked by kLongOffsets and followed by the full times.
constexpr std::uint32_t kLongOffsets = 0xffffffffu;
constexpr std::uint32_t kWaitsBit = 0x80000000u;
constexpr Ticks kMaxOffset = 0x7fffffff;

}  // namespace

void PointToPointWaitStates::write_send_times(replay::PayloadWriter& out, const SendTimes& sent) {
    out.put<Ticks>(sent.enter);
    const Ticks to_send = sent.send - sent.enter, to_leave = sent.leave - sent.send;
    if (to_send >= 0 && to_send <= kMaxOffset && to_leave >= 0 && to_leave <= kMaxOffset) {
        out.put<std::uint32_t>(static_cast<std::uint32_t>(to_send));
        out.put<std::uint32_t>(static_cast<std::uint32_t>(to_leave) |
                               (sent.waits_for_receiver ? kWaitsBit : 0));
        return;
    }
    out.put<std::uint32_t>(kLongOffsets);
    out.put<Ticks>(sent.send);
    out.put<Ticks>(sent.leave);
    out.put<std::uint8_t>(sent.waits_for_receiver ? 1 : 0);
}

PointToPointWaitStates::SendTimes PointToPointWaitStates::read_send_times(replay::PayloadReader& in) {
    SendTimes sent;
    sent.enter = in.get<Ticks>();
    const std::uint32_t to_send = in.get<std::uint32_t>();
    if (to_send == kLongOffsets) {
        sent.send = in.get<Ticks>();
        sent.leave = in.get<Ticks>();
        sent.waits_for_receiver = in.get<std::uint8_t>() != 0;
        return sent;
    }
    const std::uint32_t to_leave = in.get<std::uint32_t>();
    sent.send = sent.enter + to_send;
    sent.leave = sent.send + (to_leave & ~kWaitsBit);
    sent.waits_for_receiver = (to_leave & kWaitsBit) != 0;
    return sent;
}

void PointToPointWaitStates::begin_pass(const trace::LocalTrace& trace) {
    trace_ = &trace;
    // Every message and collective of the rank becomes a synchronization point.
    facts_->bind(trace);
    completion_.clear();
    completion_.reserve(trace.call_tree.size());
    for (CallPathId c = 0; c < trace.call_tree.size(); ++c)
        completion_.push_back(receive_completion(trace.region_of(c).name));
    // Which sends can wait for a late receiver (message_calls.hpp).
    waits_for_receiver_.assign(trace.call_tree.size(), false);
    for (CallPathId c = 0; c < trace.call_tree.size(); ++c)
        waits_for_receiver_[c] = may_wait_for_receiver(trace.region_of(c));
    polling_ = PollingCalls(trace);
    members_.assign(trace.definitions.communicators.size(), std::nullopt);
    candidates_.clear();
    open_call_ = trace::kNoEvent;
    notes_.clear();
    next_note_ = 0;
    notes_sorted_ = false;
}

int PointToPointWaitStates::world_rank(CommId comm, int rank) {
    auto& known = members_.at(comm);
    if (!known) known = trace_->definitions.world_ranks(comm);
    const auto& ranks = *known;
    if (rank >= 0 && static_cast<std::size_t>(rank) < ranks.size())
        return ranks[static_cast<std::size_t>(rank)];
    return rank;  // communicators without a member list (MPI_COMM_SELF-like)
}

void PointToPointWaitStates::pack(const trace::EventView& view, replay::PayloadWriter& out) {
    if (view.kind() != EventKind::Send) return;
    // Every send synchronizes with its receiver; a note from the receiver
    // turns this zero wait into a Late Receiver.
    facts_->record_wait(view.index(), {WaitPattern::None, 0, view.message().partner});
    write_send_times(out, {view.enter().time, view.leave().time, view.time(), waits_for_receiver_[view.enter().cnode]});
}

void PointToPointWaitStates::unpack(const trace::EventView& view, replay::PayloadReader& in) {
    if (view.kind() != EventKind::Recv) return;
    if (view.enter_index() != open_call_) close_call();
    const SendTimes sent = read_send_times(in);

    const trace::Message& msg = view.message();
    const trace::EventIndex recv = view.index();
    const Ticks recv_enter = view.enter().time;
    const Ticks recv_leave = view.leave().time;
    if (sent.send > view.time()) facts_->point_to_point_clock_violation();

    const int source = world_rank(msg.comm, msg.partner);
    // Earlier Late Sender messages sent after this one were received in the
    // wrong order.
    check_wrong_order(sent.send, source);

    // Every receive synchronizes with its sender; a Late Sender below
    // replaces this zero wait.
    facts_->record_wait(recv, {WaitPattern::None, 0, msg.partner});

    // Late Receiver: an MPI_Send or MPI_Ssend that began before the receive
    // was posted (by this call, or by the MPI_Irecv of a receive that
    // completes here) and was still running then. The receive then
    // synchronized with its sender.
    const trace::EventIndex posting = trace_->posting_call(view.event());
    const Ticks posted = posting == trace::kNoEvent ? 0 : trace_->events[posting].time;
    if (sent.waits_for_receiver && posting != trace::kNoEvent && sent.leave > posted && posted > sent.enter) {
        const Ticks waiting = posted - sent.enter;
        // The synchronization is the posting call's: its end bounds the
        // completion times on both sides.
        const Ticks posting_leave = trace_->events[trace_->events[posting].ref].time;
        facts_->caused_late_receiver(recv, waiting);
        facts_->record_wait(recv, {WaitPattern::None, 0, msg.partner, true,
                                   std::max<Ticks>(0, posting_leave - sent.leave)});
        notes_.push_back({recv, waiting, false, posting_leave, posting != view.enter_index()});
    }

    // A blocking probe that found this message waited for it before the
    // receive call began: then the wait is the probe's, from its entry to
    // its end at the latest (the receive call itself finds the message).
    const trace::EventIndex probe = trace_->probing_call(view.event());
    const bool probed = probe != trace::kNoEvent;
    if (!probed) {
        const trace::EventIndex poll = trace_->polling_call(view.event());
        if (poll != trace::kNoEvent) {
            polled(view, sent, poll, source);
            return;
        }
    }
    const CallPathId call = probed ? trace_->events[probe].cnode : view.enter().cnode;
    const Completion completion = probed ? Completion::Single : completion_[call];
    if (completion == Completion::Test) return;
    const Ticks wait_from = probed ? trace_->events[probe].time : recv_enter;
    const Ticks wait_until = probed ? trace_->events[trace_->events[probe].ref].time : recv_leave;
    // The wait ends when the send begins, or when the call ends if the
    // clocks say the send began later still.
    const Ticks waiting = std::min(sent.enter, wait_until) - wait_from;
    if (waiting <= 0) return;
    const LateMessage late{recv,        call,           view.enter().cnode,
                           waiting,     sent.send,      wait_from,
                           source,      msg.partner,    msg.bytes == 0,
                           std::max<Ticks>(0, recv_leave - sent.leave),
                           trace::kNoEvent, 0, 0};
    if (completion == Completion::Single) {
        report_late_sender(late);
        return;
    }
    late_in_call(view, late);
}

// A receive that a polling loop tested for, from its first polling call
// `poll` on: it waited inside those calls until the send began, and inside
// the completing call too unless that is a test.
void PointToPointWaitStates::polled(const trace::EventView& view, const SendTimes& sent, trace::EventIndex poll,
                                    int source) {
    const trace::Message& msg = view.message();
    const Ticks recv_enter = view.enter().time, recv_leave = view.leave().time;
    const Completion completion = completion_[view.enter().cnode];
    const Ticks own =
        completion == Completion::Test ? 0 : std::max<Ticks>(0, std::min(sent.enter, recv_leave) - recv_enter);
    const Ticks waiting = polling_.waiting(poll, view.enter_index(), sent.enter, [](CallPathId, Ticks) {}) + own;
    if (waiting <= 0) return;
    const LateMessage late{view.index(),   trace_->events[poll].cnode, view.enter().cnode,
                           waiting,        sent.send,                  trace_->events[poll].time,
                           source,         msg.partner,                msg.bytes == 0,
                           std::max<Ticks>(0, recv_leave - sent.leave),
                           poll,           sent.enter,                 own};
    // The wait ended when the send began (the path continues on the sender
    // from there), at the latest where the receive completed.
    facts_->polled_wait_end(view.index(), std::min(sent.enter, view.time()));
    if (completion == Completion::Single) {
        report_late_sender(late);
        return;
    }
    late_in_call(view, late);
}

// A Late Sender in a call that may complete several receives: only the
// longest wait of the call counts, once the call is over (close_call).
void PointToPointWaitStates::late_in_call(const trace::EventView& view, const LateMessage& late) {
    const Ticks waiting = late.waiting;
    const trace::EventIndex call_enter = view.enter_index();
    if (open_call_ != call_enter || waiting > longest_.waiting) longest_ = late;
    open_call_ = call_enter;
}

void PointToPointWaitStates::write_note(const trace::EventView& view, replay::PayloadWriter& out) {
    // Notes are written after the last event, in pass order: the last call
    // completing several receives is closed by now, and every Late Sender
    // known. Those of one such call were noted out of order.
    if (!notes_sorted_) {
        close_call();
        std::sort(notes_.begin(), notes_.end(),
                  [](const SenderNote& a, const SenderNote& b) { return a.recv < b.recv; });
        notes_sorted_ = true;
    }
    while (next_note_ < notes_.size() && notes_[next_note_].recv < view.index()) ++next_note_;
    if (next_note_ == notes_.size() || notes_[next_note_].recv != view.index()) return;
    const SenderNote& note = notes_[next_note_];
    out.put<Ticks>(note.late_receiver);
    out.put<std::uint8_t>(static_cast<std::uint8_t>((note.late_sender ? 1 : 0) | (note.posted_apart ? 2 : 0)));
    out.put<Ticks>(note.recv_leave);
}

// The sender learns that its send synchronized with the receive: the
// receiver waited for it (Late Sender) or it waited for the receiver (Late
// Receiver); and when the receive call ended, which bounds the time the
// send call spent completing it.
void PointToPointWaitStates::read_note(const trace::EventView& view, replay::PayloadReader& in) {
    const Ticks waiting = in.get<Ticks>();
    const auto flags = in.get<std::uint8_t>();
    const bool late_sender = (flags & 1) != 0;
    const Ticks recv_leave = in.get<Ticks>();
    const trace::Message& msg = view.message();
    const Ticks send_leave = view.leave().time;
    if (late_sender) {
        facts_->record_wait(view.index(), {WaitPattern::None, 0, msg.partner, true,
                                           std::max<Ticks>(0, send_leave - recv_leave)});
        return;
    }
    // As in Scalasca: a blocking send that waited completes in no time of
    // its own unless the receive ended after it.
    const Ticks completion = send_leave > recv_leave ? 0 : send_leave - recv_leave;
    facts_->record_wait(view.index(), {WaitPattern::LateReceiver, waiting, msg.partner, true, completion});
    if ((flags & 2) != 0) facts_->late_receiver_posted_apart(view.index());
    const CallPathId call = view.enter().cnode;
    facts_->offer_longest_wait({WaitPattern::LateReceiver, call, view.enter().time, waiting});
    claim_pattern(WaitPattern::LateReceiver, call, call, waiting, msg.bytes == 0);
}

// The pattern's waiting, and its occurrence among the messages of its kind
// (zero-byte or with data), as its row names them.
void PointToPointWaitStates::claim_pattern(WaitPattern pattern, CallPathId cnode, CallPathId counted, Ticks waiting,
                                           bool zero_bytes) {
    claim_time(*cube_, *trace_, *pattern_info(pattern).wait, cnode, waiting);
    claim_message_count(*cube_, pattern, counted, zero_bytes);
}

template <typename Visit>
void PointToPointWaitStates::for_each_part(const LateMessage& late, Visit&& visit) const {
    if (late.first_poll == trace::kNoEvent) {
        visit(late.cnode, late.waiting);
        return;
    }
    polling_.waiting(late.first_poll, trace::EventView(*trace_, late.recv).enter_index(), late.send_start, visit);
    if (late.own_waiting > 0) visit(late.receive_cnode, late.own_waiting);
}

void PointToPointWaitStates::end_pass(const trace::LocalTrace&) { close_call(); }

void PointToPointWaitStates::close_call() {
    if (open_call_ == trace::kNoEvent) return;
    open_call_ = trace::kNoEvent;
    report_late_sender(longest_);
}

void PointToPointWaitStates::report_late_sender(const LateMessage& late) {
    const Metric wait = *pattern_info(WaitPattern::LateSender).wait;
    for_each_part(late, [&](CallPathId cnode, Ticks ticks) { claim_time(*cube_, *trace_, wait, cnode, ticks); });
    claim_message_count(*cube_, WaitPattern::LateSender, late.receive_cnode, late.zero_bytes);
    facts_->record_wait(late.recv,
                        {WaitPattern::LateSender, late.waiting, late.source_in_comm, true, late.completion});
    const trace::EventView recv(*trace_, late.recv);
    facts_->offer_longest_wait({WaitPattern::LateSender, late.cnode, late.start, late.waiting});
    notes_.push_back({late.recv, 0, true, trace_->events[recv.leave_index()].time});
    candidates_.add(late);
}

void PointToPointWaitStates::check_wrong_order(Ticks send, int source) {
    candidates_.received(send, [&](const LateMessage& late) {
        constexpr const PatternInfo& late_sender = pattern_info(WaitPattern::LateSender);
        constexpr const PointToPointMetrics& counts = *late_sender.point_to_point;
        constexpr const metrics::WrongOrderMetrics& wrong = *counts.wrong_order;
        const Metric part = late.source == source ? wrong.same_source : wrong.different_sources;
        for_each_part(late, [&](CallPathId cnode, Ticks ticks) {
            claim(*cube_, *late_sender.wait, part, cnode, trace_->seconds(ticks));
        });
        if (late.zero_bytes)
            claim(*cube_, counts.synchronizations, wrong.synchronizations, late.receive_cnode, 1.0);
        else
            claim(*cube_, counts.communications, wrong.communications, late.receive_cnode, 1.0);
    });
}

}  // namespace hindsight::analyses
