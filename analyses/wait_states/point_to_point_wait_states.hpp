// Wait states of point-to-point messages, found by the receiver in the
// forward pass from the send call's times that travel with each message:
//  - Late Sender: the receive (MPI_Recv, or the MPI_Wait* completing an
//    MPI_Irecv) began before the matching send; the receiver waited from
//    its own entry until the send began, at most until it left the call.
//    A call completing several messages (MPI_Waitall, ...) counts only the
//    longest of their waits. Completion by MPI_Test* never waits. Where a
//    blocking probe (MPI_Probe, MPI_Mprobe) waited for the message before
//    the receive took it, the wait is the probe's: from its entry until
//    the send began, at most until the probe ended (LocalTrace::
//    probing_call). Where a polling loop tested for the message before the
//    call that completed it (unsuccessful MPI_Test* of its request, or
//    MPI_Iprobe/MPI_Improbe before the receive: polling_calls.hpp), the
//    time inside those calls before the send began is waiting too, each
//    call's at its own call path; the time between them is not. A call
//    completing several such receives (MPI_Testall, ...) counts, as a
//    MPI_Waitall, only the longest of their waits.
//  - Late Sender, wrong order: a Late Sender message turns out to have been
//    sent after a message this rank received later (wrong_order.hpp). Split
//    by whether the two messages came from the same rank.
//  - Late Receiver: a blocking send of standard or synchronous mode
//    (MPI_Send, MPI_Ssend; not MPI_Bsend, MPI_Rsend, non-blocking sends or
//    MPI_Sendrecv) began before the matching receive was posted and was
//    still running when it was; the sender waited from its entry until
//    then. The receive is posted by the receive call itself, or for a
//    non-blocking receive by the MPI_Irecv (or MPI_Start) that made the
//    request, even though it completes in a later MPI_Wait* / MPI_Test*.
//    The metric belongs to the sender, whom the receiver tells in a note
//    (observer.hpp) after the pass.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "analyses/local_cube.hpp"
#include "analyses/forward_facts.hpp"
#include "analyses/polling_calls.hpp"
#include "analyses/wrong_order.hpp"
#include "analyses/message_calls.hpp"
#include "replay/observer.hpp"

namespace hindsight::analyses {

class PointToPointWaitStates final : public replay::ReplayObserver {
public:
    PointToPointWaitStates(LocalCube& cube, ForwardFactsBuilder& facts)
        : cube_(&cube), facts_(&facts) {}

    void begin_pass(const trace::LocalTrace& trace) override;
    void end_pass(const trace::LocalTrace& trace) override;
    // No Enters and Leaves: a call completing several receives is closed by
    // the next receive of another call (or the end of the pass), which is as
    // good as its Leave for the metrics. The payload is the send call's
    // recorded times.
    replay::Participation participation() const override {
        return {.payloads = replay::Payloads::FromTrace, .notes = true};
    }
    void pack(const trace::EventView& view, replay::PayloadWriter& out) override;
    void unpack(const trace::EventView& view, replay::PayloadReader& in) override;
    // The receiver's note: the sender's Late Receiver wait, or that the
    // receiver waited for it (both make the send a synchronization point).
    void write_note(const trace::EventView& view, replay::PayloadWriter& out) override;
    void read_note(const trace::EventView& view, replay::PayloadReader& in) override;

private:
    using Completion = ReceiveCompletion;

    // The sender's side of a message, as it travels to the receiver.
    struct SendTimes {
        Ticks enter = 0;  // the send call's entry
        Ticks leave = 0;  // the send call's exit
        Ticks send = 0;   // the send event itself
        bool waits_for_receiver = false;  // MPI_Send or MPI_Ssend
    };

    // One receive that waited for its sender.
    struct LateMessage {
        trace::EventIndex recv = trace::kNoEvent;
        CallPathId cnode = kNoCallPath;          // where the wait was (the receive, or its probe)
        CallPathId receive_cnode = kNoCallPath;  // the receive call, which counts the message
        Ticks waiting = 0;
        Ticks send = 0;  // when the message was sent
        Ticks start = 0;  // when the wait began (in the receive, or in the probe before it)
        int source = -1;  // sender's world rank
        int source_in_comm = -1;
        bool zero_bytes = false;
        Ticks completion = 0;  // the receive's time after the send call ended
        // A receive polled for: its first polling call, when the send
        // began, and the waiting in the completing call itself (an
        // MPI_Wait* after the polling; none in an MPI_Test*).
        trace::EventIndex first_poll = trace::kNoEvent;
        Ticks send_start = 0;
        Ticks own_waiting = 0;
    };
    // What the receiver tells the sender of a message after the pass.
    struct SenderNote {
        trace::EventIndex recv = trace::kNoEvent;  // the receiver's Recv event
        Ticks late_receiver = 0;  // the sender's Late Receiver wait
        bool late_sender = false; // the receiver waited for the sender
        Ticks recv_leave = 0;     // the end of the receive call
        // The receive was posted by an earlier call (MPI_Irecv) than the
        // one completing it.
        bool posted_apart = false;
    };

    static void write_send_times(replay::PayloadWriter& out, const SendTimes& sent);
    static SendTimes read_send_times(replay::PayloadReader& in);
    void polled(const trace::EventView& view, const SendTimes& sent, trace::EventIndex poll, int source);
    void late_in_call(const trace::EventView& view, const LateMessage& late);
    // Reports the longest wait of the open multiple-completion call.
    void close_call();
    void report_late_sender(const LateMessage& late);
    // The waiting claimed at `cnode`, the occurrence at `counted` (the call
    // that counts the message).
    void claim_pattern(WaitPattern pattern, CallPathId cnode, CallPathId counted, Ticks waiting, bool zero_bytes);
    // Calls visit(cnode, ticks) for each part of a Late Sender's wait: the
    // whole wait at its call, or for a receive polled for, the waiting in
    // each polling call and in the completing call.
    template <typename Visit>
    void for_each_part(const LateMessage& late, Visit&& visit) const;
    void check_wrong_order(Ticks send, int source);
    int world_rank(CommId comm, int rank);

    LocalCube* cube_;
    ForwardFactsBuilder* facts_;
    const trace::LocalTrace* trace_ = nullptr;
    std::vector<Completion> completion_;          // by call path
    PollingCalls polling_;
    std::vector<bool> waits_for_receiver_;        // by call path: MPI_Send or MPI_Ssend
    std::vector<std::optional<std::vector<int>>> members_;  // by communicator, once asked for
    WrongOrderCandidates<LateMessage> candidates_;
    // The longest wait so far inside the current multiple-completion call.
    trace::EventIndex open_call_ = trace::kNoEvent;
    LateMessage longest_;
    // The messages whose senders get a note; sorted by Recv event when the
    // notes are written, in pass order, `next_note_` on.
    std::vector<SenderNote> notes_;
    std::size_t next_note_ = 0;
    bool notes_sorted_ = false;
};

}  // namespace hindsight::analyses
