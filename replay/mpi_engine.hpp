// The replay engine of the analyzer: one analysis rank per traced rank, the
// recorded messages re-enacted between them with the observers' payloads
// (laid out by payload_frame.hpp), and the analyses' rounds of bulk
// exchanges (exchange.hpp) over MPI_COMM_WORLD.
//
// A pass exchanges as little as the observers allow, with results equal to
// re-enacting every message on its own:
//  - When no observer packs payloads from what the pass brings
//    (Payloads::FromTrace, observer.hpp), the pass packs all its payloads
//    before the first event and ships them in one all-to-all
//    (block_all_to_all.hpp); each unpacking event then takes its
//    payload by its slot (message_slots.hpp), which is the one MPI's matching
//    would have delivered. The operations on its collective channels run
//    together, a few MPI calls per communicator for thousands of
//    collectives (batched_collectives.hpp).
//  - Otherwise every message travels one by one: sent without blocking to
//    the recorded partner with the recorded tag on the mirror of the
//    recorded communicator, probed for (their size varies) and received at
//    the matching event. Replies travel on the communicator's separate
//    reply mirror and are completed lazily (see mpi_engine.cpp for why that
//    cannot deadlock). The operations on the observers' channels at one
//    collective run together, completed before the next event.
//  - Notes (observer.hpp) travel after the last event of a pass, in one
//    all-to-all of the messages that have one (note_delivery.hpp).
// Messages of consecutive passes cannot be confused: per (sender, receiver,
// communicator, tag) every pass sends as many messages as it receives and
// MPI keeps their order.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "replay/block_all_to_all.hpp"
#include "replay/communicator_mirror.hpp"
#include "replay/engine.hpp"
#include "trace/message_slots.hpp"
#include "replay/note_delivery.hpp"
#include "replay/mpi_handles.hpp"
#include "replay/mpi_exchange.hpp"
#include "replay/pass_observers.hpp"
#include "replay/pass_progress.hpp"
#include "replay/payload_frame.hpp"
#include "replay/pending_replies.hpp"
#include "replay/progress_watch.hpp"
#include "replay/send_pool.hpp"
#include "replay/slot_blocks.hpp"

namespace hindsight::replay {

class MpiReplayEngine final : public ReplayEngine {
public:
    // `trace`, its message `slots`, `mirror` and `watch` (how the engine
    // waits) must outlive the engine. Collective over MPI_COMM_WORLD, whose
    // rank r replays the trace's rank r.
    MpiReplayEngine(const trace::LocalTrace& trace, const trace::MessageSlots& slots, const CommunicatorMirror& mirror,
                    ProgressWatch& watch);

    void run(const char* name, std::span<ReplayObserver* const> observers) override;
    void run_rounds(const char* name, const std::function<void(Exchange&)>& rounds) override;
    const trace::MessageSlots& message_slots() const override { return slots_; }

    // Tells `progress` (which must outlive the engine, or null: nobody
    // watches) how far each pass has come.
    void watch_progress(PassProgress* progress) { progress_ = progress; }

    // Messages replayed (sent plus received, one by one or in bulk) over all
    // passes, for statistics.
    std::uint64_t messages() const { return messages_; }

    // What each pass and each run of rounds exchanged, in the order they ran
    // (statistics).
    struct PassExchanges {
        std::string name;  // the name given to run() or run_rounds()
        // Bulk steps every rank took together: block all-to-alls, the
        // analyses' rounds (exchange.hpp), rounds of batched collectives.
        std::uint64_t rounds = 0;
        // Hand-overs of single messages and single collectives, each
        // waiting for its peer (passes whose payloads depend on the pass).
        std::uint64_t hand_overs = 0;
    };
    const std::vector<PassExchanges>& pass_exchanges() const { return pass_exchanges_; }

private:
    // Calls step(k) for k = 0 .. events - 1 and tells progress_ between
    // strides of PassProgress::kStride: nothing more per event than the loop.
    template <typename Step>
    void walk(trace::EventIndex events, Step&& step) {
        for (trace::EventIndex begin = 0; begin < events; begin += PassProgress::kStride) {
            if (progress_ != nullptr) progress_->events_done(begin);
            const trace::EventIndex end = events - begin > PassProgress::kStride ? begin + PassProgress::kStride : events;
            for (trace::EventIndex k = begin; k < end; ++k) step(k);
        }
    }
    // The bulk part of a batched pass: all payloads in one all-to-all.
    void ship_payloads(const PayloadFrame& frame);

    // Return the rounds of batched collectives they ran.
    std::uint64_t run_batched(const PayloadFrame& frame, const PassObservers& pass);
    std::uint64_t run_one_by_one(const PayloadFrame& frame, const PassObservers& pass);
    void send_payload(const trace::EventView& view, const PayloadFrame& frame);
    void receive_payload(const trace::EventView& view, const PayloadFrame& frame);
    // Receives the replies due at `boundary`; all that are left at kNoEvent.
    void complete_replies(const PayloadFrame& frame, trace::EventIndex boundary);
    // Probes for and receives one message into `buffer_`.
    void receive(MPI_Comm comm, int source, int tag, const char* what, const trace::EventView& view);
    int tag_of(const trace::Message& m) const;

    const trace::LocalTrace& trace_;
    const CommunicatorMirror& mirror_;
    ProgressWatch& watch_;
    const trace::MessageSlots& slots_;
    mpi::Comm world_;           // for the block all-to-alls
    BlockAllToAll all_to_all_;
    MpiExchange exchange_;      // the analyses' bulk rounds
    NoteDelivery notes_;
    SendPool sends_;
    PendingReplies pending_;
    PayloadWriter writer_;          // reused for every payload
    std::vector<std::byte> buffer_; // reused for every received payload
    int tag_ub_ = 32767;
    PassProgress* progress_ = nullptr;
    std::uint64_t messages_ = 0;
    std::uint64_t hand_overs_ = 0;
    std::vector<PassExchanges> pass_exchanges_;
};

}  // namespace hindsight::replay
