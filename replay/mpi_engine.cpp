#include "replay/mpi_engine.hpp"

#include <string>

#include "replay/batched_collectives.hpp"
#include "replay/slot_blocks.hpp"

// Why waiting for replies cannot deadlock. Give every wait of a rank a
// moment of the original run, and show that a rank it waits for, if it has
// not yet done what is awaited, waits only at strictly earlier moments
// before doing it: then a cycle of waits is impossible. A rank waits
//  (a) at an unpacking Recv r for the payload of the matching Send s:
//      moment end(r's call). The peer that has not packed s stands before s
//      in the original run, and s began before r's call ended.
//  (b) at a collective for the other members to reach it: its moment; the
//      members that have not reached it stand before it.
//  (c) for a reply asked at the Send s of call D, from the Recv r of the
//      call P that posted the receive: moment end(D). A reply is asked only
//      where the calls synchronized, i.e. D still ran when P began (a Late
//      Receiver: D began first and waited for P), and only where P itself
//      holds r.
// The engine waits for (c) only when the pass reaches D's Leave
// (reply_boundary()); until then the reply is outstanding and the rank goes
// on. The receiver, not yet past r, stands before r. Inside P before r it
// waits only as in (a), for D's own payload, which was sent; before P, each
// of its waits has a moment before begin(P) < end(D).
// Waiting any earlier, e.g. right after the Send of an MPI_Sendrecv, would
// let both sides of a Sendrecv wait inside their own calls for each other.

namespace hindsight::replay {
namespace {

std::string where(const trace::LocalTrace& trace, const trace::Message& m, const char* what, int peer) {
    return "rank " + std::to_string(trace.rank) + " waits for " + what + " rank " + std::to_string(peer) +
           " of " + trace.definitions.comm_display_name(m.comm) + " (tag " + std::to_string(m.tag) + ")";
}

}  // namespace

MpiReplayEngine::MpiReplayEngine(const trace::LocalTrace& trace, const trace::MessageSlots& slots, const CommunicatorMirror& mirror,
                                 ProgressWatch& watch)
    : trace_(trace),
      mirror_(mirror),
      watch_(watch),
      slots_(slots),
      world_(duplicate(MPI_COMM_WORLD, watch)),
      all_to_all_(world_.get(), watch_),
      exchange_(world_.get(), watch_),
      notes_(trace, slots_, all_to_all_) {
    int* value = nullptr;
    int found = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &value, &found);
    if (found) tag_ub_ = *value;
}

int MpiReplayEngine::tag_of(const trace::Message& m) const {
    // Recorded tags fit the traced MPI; should they exceed ours they are
    // folded, which could only reorder messages of one sender whose tags
    // fold together.
    return static_cast<int>(m.tag % (static_cast<std::uint64_t>(tag_ub_) + 1));
}

void MpiReplayEngine::run(const char* name, std::span<ReplayObserver* const> observers) {
    const PassObservers pass(trace_, observers);
    const std::uint64_t all_to_alls = all_to_all_.runs(), hand_overs = hand_overs_;
    if (progress_ != nullptr) progress_->pass_begins(name, trace_.events.size());
    // Every rank runs the same passes with observers that declare the same
    // participation, so all take the same branch (and meet in the same
    // block all-to-alls).
    const PayloadFrame frame(trace_, pass);
    notes_.begin(frame);
    const std::uint64_t collective_rounds =
        pass.payloads_from_trace_only() ? run_batched(frame, pass) : run_one_by_one(frame, pass);
    sends_.drain(watch_);
    notes_.deliver();
    all_to_all_.release();  // the pass's payloads, possibly millions
    pass.end_pass();
    if (progress_ != nullptr) progress_->pass_ends();
    pass_exchanges_.push_back({name, all_to_all_.runs() - all_to_alls + collective_rounds, hand_overs_ - hand_overs});
}

void MpiReplayEngine::run_rounds(const char* name, const std::function<void(Exchange&)>& rounds) {
    const std::uint64_t before = exchange_.rounds();
    if (progress_ != nullptr) progress_->pass_begins(name, 0);
    rounds(exchange_);
    if (progress_ != nullptr) progress_->pass_ends();
    pass_exchanges_.push_back({name, exchange_.rounds() - before, 0});
}

// ---- batched passes ---------------------------------------------------

void MpiReplayEngine::ship_payloads(const PayloadFrame& frame) {
    PayloadBlocks blocks(trace_, slots_.sends());
    const auto n = static_cast<std::uint32_t>(trace_.messages.size());
    for (std::uint32_t k = 0; k < n; ++k) {
        const trace::EventIndex i = slots_.event(k);
        const trace::Event& e = trace_.events[i];
        if (e.kind != trace::EventKind::Send) continue;
        frame.pack_trace_data(trace::EventView(trace_, i), writer_);
        notes_.packed(i);
        blocks.add(slots_.peer(e.ref), slots_.slot(e.ref), writer_.bytes());
        ++messages_;
    }
    all_to_all_.run(blocks.blocks());
}

std::uint64_t MpiReplayEngine::run_batched(const PayloadFrame& frame, const PassObservers& pass) {
    ship_payloads(frame);
    BatchedCollectives collectives(mirror_, watch_);
    const auto n = static_cast<trace::EventIndex>(trace_.events.size());
    walk(n, [&](trace::EventIndex i) {
        const trace::Event& e = trace_.events[i];
        const trace::EventView view(trace_, i);
        switch (e.kind) {
        case trace::EventKind::Enter:
            pass.enter(view);
            break;
        case trace::EventKind::Leave:
            pass.leave(view);
            break;
        case trace::EventKind::Send:
        case trace::EventKind::Recv:
            // Sends were packed before the pass.
            if (e.kind == trace::EventKind::Recv) {
                frame.unpack_trace_data(view, payload_at(trace_, all_to_all_.block(slots_.peer(e.ref)), slots_.slot(e.ref)));
                notes_.unpacked(view);
                ++messages_;
            }
            break;
        case trace::EventKind::CollectiveEnd:
            collectives.add(view, pass.collectives());
            break;
        }
    });
    collectives.finish();
    return collectives.rounds();
}

// ---- passes message by message ---------------------------------------

std::uint64_t MpiReplayEngine::run_one_by_one(const PayloadFrame& frame, const PassObservers& pass) {
    BatchedCollectives collectives(mirror_, watch_);
    pending_.clear();
    const auto n = static_cast<trace::EventIndex>(trace_.events.size());
    walk(n, [&](trace::EventIndex i) {
        const trace::Event& e = trace_.events[i];
        const trace::EventView view(trace_, i);
        switch (e.kind) {
        case trace::EventKind::Enter:
        case trace::EventKind::Leave:
            complete_replies(frame, i);
            if (e.kind == trace::EventKind::Enter)
                pass.enter(view);
            else
                pass.leave(view);
            break;
        case trace::EventKind::Send:
        case trace::EventKind::Recv:
            if (e.kind == trace::EventKind::Send) {
                notes_.packed(i);
                send_payload(view, frame);
            } else {
                receive_payload(view, frame);
                notes_.unpacked(view);
            }
            break;
        case trace::EventKind::CollectiveEnd:
            // Done here, before the next event: the operations on the
            // observers' channels at this collective, those of one kind
            // fused into one call.
            collectives.add(view, pass.collectives());
            collectives.finish();
            ++hand_overs_;
            break;
        }
    });
    complete_replies(frame, trace::kNoEvent);
    return 0;  // its collectives are hand-overs, each completed at its event
}

void MpiReplayEngine::send_payload(const trace::EventView& view, const PayloadFrame& frame) {
    const trace::Message& m = view.message();
    const ObserverMask asked = frame.pack(view, writer_);
    sends_.isend(writer_.bytes(), m.partner, tag_of(m), mirror_.data(m.comm));
    ++messages_;
    ++hand_overs_;
    // The reply is completed lazily (see the top of this file).
    if (asked != 0) pending_.add(view.index(), reply_boundary(trace_, view), asked);
}

void MpiReplayEngine::complete_replies(const PayloadFrame& frame, trace::EventIndex boundary) {
    pending_.take_due(boundary, [&](trace::EventIndex event, ObserverMask asked) {
        const trace::EventView view(trace_, event);
        const trace::Message& m = view.message();
        receive(mirror_.reply(m.comm), m.partner, tag_of(m), "a reply from", view);
        ++hand_overs_;
        frame.unpack_reply(view, asked, buffer_);
    });
}

void MpiReplayEngine::receive_payload(const trace::EventView& view, const PayloadFrame& frame) {
    const trace::Message& m = view.message();
    receive(mirror_.data(m.comm), m.partner, tag_of(m), "a message from", view);
    ++messages_;
    const ObserverMask asked = frame.unpack(view, buffer_);
    if (asked == 0) return;
    frame.pack_reply(view, asked, writer_);
    sends_.isend(writer_.bytes(), m.partner, tag_of(m), mirror_.reply(m.comm));
}

void MpiReplayEngine::receive(MPI_Comm comm, int source, int tag, const char* what, const trace::EventView& view) {
    MPI_Message message = MPI_MESSAGE_NULL;
    MPI_Status status;
    watch_.until(
        [&] {
            int flag = 0;
            MPI_Improbe(source, tag, comm, &flag, &message, &status);
            return flag != 0;
        },
        [&] { return where(trace_, view.message(), what, source); });
    int size = 0;
    MPI_Get_count(&status, MPI_BYTE, &size);
    buffer_.resize(static_cast<std::size_t>(size));
    MPI_Mrecv(buffer_.data(), size, MPI_BYTE, &message, MPI_STATUS_IGNORE);
}

}  // namespace hindsight::replay
