#include "replay/mpi_engine.hpp"

#include <string>
#include <unordered_map>

#include "replay/batched_collectives.hpp"
#include "replay/slot_blocks.hpp"

// Why waiting for replies cannot deadlock (backward pass; the forward pass
// is its mirror image). Give every wait of a rank a moment of the original
// run, and show that a rank it waits for, if it has not yet done what is
// awaited, waits at a strictly later moment itself: then a cycle of waits is
// impossible. A rank waits
//  (a) at an unpacking Send s for the payload of the matching Recv r:
//      moment t(s). The peer that has not packed r stands at r or later in
//      the original run, and r ended after s began.
//  (b) at a collective for the other members to reach it: its moment; the
//      members that have not reached it stand after it.
//  (c) for a reply asked at the Recv i, from the Send s of the sender's call
//      D: moment begin(P), P the call that posted the receive (the receive
//      call itself, or the MPI_Irecv of a receive completed later). A reply
//      is asked only where the calls synchronized, i.e. D still ran when P
//      began (a Late Receiver: D began first; a Late Sender: D began while
//      the receive waited), so end(D) > begin(P).
// The engine waits for (c) only when the pass reaches P's Enter
// (reply_boundary()); until then the reply is outstanding and the rank goes
// on. The sender, not yet past s, stands in D after s or later in the run.
// Inside D after s it never waits: D holds no other unpacking event and no
// collective, and its own replies are due at Enters of calls after D. After
// D, each of its waits (a)-(c) has a moment after end(D) > begin(P).
// Waiting any earlier, e.g. before the Send of the same MPI_Sendrecv, would
// let both sides of a Sendrecv wait inside their own calls for each other.
// Replies that may come at the end of the pass (ReplyNeed::AtPassEnd) are not
// awaited during it at all.

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

bool MpiReplayEngine::packs(trace::EventKind kind, bool forward) const {
    return forward ? kind == trace::EventKind::Send : kind == trace::EventKind::Recv;
}

void MpiReplayEngine::run(Direction direction, std::span<ReplayObserver* const> observers) {
    const PassObservers pass(trace_, direction, observers);
    const bool forward = direction == Direction::Forward;
    const std::uint64_t all_to_alls = all_to_all_.runs(), rounds = exchange_.rounds(), hand_overs = hand_overs_;
    std::uint64_t collective_rounds = 0;
    if (progress_ != nullptr) progress_->pass_begins(direction, trace_.events.size());
    pass.run_rounds(exchange_);
    // Every rank runs the same passes with observers that declare the same
    // participation, so all take the same branch (and meet in the same
    // block all-to-alls).
    if (pass.walks_events()) {
        const PayloadFrame frame(trace_, pass);
        collective_needs_.clear();
        notes_.begin(frame, forward);
        collective_rounds = pass.payloads_from_trace_only() ? run_batched(forward, frame, pass)
                                                            : run_one_by_one(forward, frame, pass);
        sends_.drain(watch_);
        notes_.deliver();
        all_to_all_.release();  // the pass's payloads, possibly millions
    }
    pass.end_pass();
    if (progress_ != nullptr) progress_->pass_ends();
    pass_exchanges_.push_back({direction,
                               all_to_all_.runs() - all_to_alls + exchange_.rounds() - rounds + collective_rounds,
                               hand_overs_ - hand_overs});
}

// ---- batched passes ---------------------------------------------------

void MpiReplayEngine::ship_payloads(bool forward, const PayloadFrame& frame) {
    PayloadBlocks blocks(trace_, forward ? slots_.sends() : slots_.receives());
    const auto n = static_cast<std::uint32_t>(trace_.messages.size());
    for (std::uint32_t k = 0; k < n; ++k) {
        const trace::EventIndex i = slots_.event(forward ? k : n - 1 - k);
        const trace::Event& e = trace_.events[i];
        if (!packs(e.kind, forward)) continue;
        frame.pack_trace_data(trace::EventView(trace_, i), writer_);
        notes_.packed(i);
        blocks.add(slots_.peer(e.ref), slots_.slot(e.ref), writer_.bytes());
        ++messages_;
    }
    all_to_all_.run(blocks.blocks());
}

std::uint64_t MpiReplayEngine::run_batched(bool forward, const PayloadFrame& frame, const PassObservers& pass) {
    ship_payloads(forward, frame);
    BatchedCollectives collectives(mirror_, watch_);
    const auto n = static_cast<trace::EventIndex>(trace_.events.size());
    walk(n, [&](trace::EventIndex k) {
        const trace::EventIndex i = forward ? k : n - 1 - k;
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
            // Packing events were packed before the pass.
            if (!packs(e.kind, forward)) {
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

void MpiReplayEngine::ship_carry_flags(bool forward, const PassObservers& pass) {
    const auto& counts = forward ? slots_.sends() : slots_.receives();
    std::vector<ByteBlock> blocks(counts.size());
    for (std::size_t p = 0; p < counts.size(); ++p) blocks[p].assign(counts[p], std::byte{0});
    carries_.assign(trace_.messages.size(), false);
    for (std::uint32_t m = 0; m < trace_.messages.size(); ++m) {
        const trace::EventIndex i = slots_.event(m);
        const trace::Event& e = trace_.events[i];
        if (!packs(e.kind, forward) || !pass.carries_data(trace::EventView(trace_, i))) continue;
        carries_[e.ref] = true;
        blocks[static_cast<std::size_t>(slots_.peer(e.ref))][slots_.slot(e.ref)] = std::byte{1};
    }
    all_to_all_.run(blocks);
}

bool MpiReplayEngine::travels(std::uint32_t message) const {
    const std::span<const std::byte> block = all_to_all_.block(slots_.peer(message));
    const std::size_t slot = slots_.slot(message);
    if (slot >= block.size()) throw Error(trace_.anchor_path, "a bulk replay block is too short");
    return block[slot] != std::byte{0};
}

std::uint64_t MpiReplayEngine::run_one_by_one(bool forward, const PayloadFrame& frame, const PassObservers& pass) {
    ship_carry_flags(forward, pass);
    agree_on_collective_needs(pass);
    BatchedCollectives collectives(mirror_, watch_);
    pending_.clear();
    deferred_.clear();
    deferred_replies_ = EntryBlocks(slots_.sends().size());
    const auto n = static_cast<trace::EventIndex>(trace_.events.size());
    walk(n, [&](trace::EventIndex k) {
        const trace::EventIndex i = forward ? k : n - 1 - k;
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
            if (packs(e.kind, forward)) {
                notes_.packed(i);
                if (carries_[e.ref])
                    send_payload(view, forward, frame);
                else
                    frame.pack_nothing(view, writer_);
            } else {
                if (travels(e.ref))
                    receive_payload(view, frame);
                else
                    frame.unpack_nothing(view);
                notes_.unpacked(view);
            }
            break;
        case trace::EventKind::CollectiveEnd:
            // Done here, before the next event: the operations on the
            // observers' channels at this collective, those of one kind
            // fused into one call.
            collectives.add(view, pass.collectives(), collective_needs_[e.ref]);
            collectives.finish();
            ++hand_overs_;
            break;
        }
    });
    complete_replies(frame, trace::kNoEvent);
    deliver_deferred_replies(frame);
    return 0;  // its collectives are hand-overs, each completed at its event
}

void MpiReplayEngine::send_payload(const trace::EventView& view, bool forward, const PayloadFrame& frame) {
    const trace::Message& m = view.message();
    const ReplyRequest request = frame.pack(view, writer_);
    sends_.isend(writer_.bytes(), m.partner, tag_of(m), mirror_.data(m.comm));
    ++messages_;
    ++hand_overs_;
    if (request.asked == 0) return;
    if (request.deferred) {
        deferred_.push_back({view.index(), request.asked});
        return;
    }
    // The reply is completed lazily (see the top of this file).
    pending_.add(view.index(), reply_boundary(trace_, view, forward), request.asked);
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
    const ReplyRequest request = frame.unpack(view, buffer_);
    if (request.asked == 0) return;
    frame.pack_reply(view, request.asked, writer_);
    if (!request.deferred) {
        sends_.isend(writer_.bytes(), m.partner, tag_of(m), mirror_.reply(m.comm));
        return;
    }
    deferred_replies_.add(trace_, slots_.peer(view.event().ref), slots_.slot(view.event().ref), writer_.bytes());
}

// The replies that could wait, in one all-to-all after the last event; each
// block holds, per reply, the message's slot and the reply's size (two
// uint32) and the reply.
void MpiReplayEngine::deliver_deferred_replies(const PayloadFrame& frame) {
    all_to_all_.run(deferred_replies_.blocks());
    deferred_replies_ = EntryBlocks();
    std::unordered_map<std::uint64_t, std::span<const std::byte>> replies;  // by (peer, slot)
    const auto key = [](int peer, std::uint32_t slot) { return static_cast<std::uint64_t>(peer) << 32 | slot; };
    const auto ranks = static_cast<int>(slots_.receives().size());
    for (int peer = 0; peer < ranks; ++peer)
        for_each_entry(trace_, all_to_all_.block(peer),
                       [&](std::uint32_t slot, std::span<const std::byte> reply) { replies[key(peer, slot)] = reply; });
    for (const DeferredReply& d : deferred_) {
        const std::uint32_t message = trace_.events[d.event].ref;
        const auto it = replies.find(key(slots_.peer(message), slots_.slot(message)));
        if (it == replies.end()) throw Error(trace_.anchor_path, "a reply asked for in the replay never came");
        frame.unpack_reply(trace::EventView(trace_, d.event), d.asked, it->second);
    }
    deferred_.clear();
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

void MpiReplayEngine::agree_on_collective_needs(const PassObservers& pass) {
    collective_needs_.assign(trace_.collectives.size(), ~ObserverMask{0});
    const std::size_t comms = trace_.definitions.communicators.size();
    std::vector<std::vector<std::uint32_t>> by_comm(comms);  // collectives in trace order
    const auto n = static_cast<trace::EventIndex>(trace_.events.size());
    for (trace::EventIndex i = 0; i < n; ++i) {
        const trace::Event& e = trace_.events[i];
        if (e.kind != trace::EventKind::CollectiveEnd) continue;
        const CommId comm = trace_.collective(e).comm;
        if (comm >= comms) continue;  // no mirror: everyone takes part, as all members see alike
        collective_needs_[e.ref] = pass.exchanges_at(trace::EventView(trace_, i));
        by_comm[comm].push_back(e.ref);
    }
    // Every member of a communicator recorded as many collectives on it
    // (checked before the replay), so all start the same reductions; they
    // run side by side and are completed together.
    std::vector<std::vector<ObserverMask>> masks;
    std::vector<MPI_Request> requests;
    masks.reserve(comms);
    requests.reserve(comms);
    for (CommId comm = 0; comm < comms; ++comm) {
        if (by_comm[comm].empty()) continue;
        auto& mask = masks.emplace_back();
        for (const std::uint32_t c : by_comm[comm]) mask.push_back(collective_needs_[c]);
        MPI_Iallreduce(MPI_IN_PLACE, mask.data(), static_cast<int>(mask.size()), MPI_UINT64_T, MPI_BOR,
                       mirror_.data(comm), &requests.emplace_back());
    }
    watch_.wait_all(requests,
                    [] { return std::string("waits for the members of a communicator to agree on its collectives"); });
    std::size_t at = 0;
    for (CommId comm = 0; comm < comms; ++comm) {
        if (by_comm[comm].empty()) continue;
        const auto& mask = masks[at++];
        for (std::size_t k = 0; k < mask.size(); ++k) collective_needs_[by_comm[comm][k]] = mask[k];
    }
}

}  // namespace hindsight::replay
