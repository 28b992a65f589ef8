// The replay engine of the analyzer: one analysis rank per traced rank, the
// recorded messages re-enacted between them with the observers' payloads.
//
// Forward pass: at a Send the observers pack one payload, sent without
// blocking to the recorded partner with the recorded tag on the mirror of
// the recorded communicator; at the matching Recv it is probed for (its
// size varies), received and unpacked. Backward pass: the same with roles
// swapped. The first payload byte says whether the packing side waits for
// a reply, which travels on the communicator's separate reply mirror.
// Messages of consecutive passes cannot be confused: per (sender, receiver,
// communicator, tag) every pass sends as many messages as it receives and
// MPI keeps their order.
#pragma once

#include <chrono>
#include <cstddef>
#include <vector>

#include "replay/communicators.hpp"
#include "replay/engine.hpp"
#include "replay/progress.hpp"
#include "replay/send_pool.hpp"

namespace hindsight::replay {

class MpiReplayEngine final : public ReplayEngine {
public:
    // `trace` and `mirror` must outlive the engine.
    MpiReplayEngine(const LocalTrace& trace, const CommunicatorMirror& mirror,
                    std::chrono::duration<double> timeout);

    void run(Direction direction, std::span<ReplayObserver* const> observers) override;

    // Messages replayed (sent plus received) over all passes, for statistics.
    std::uint64_t messages() const { return messages_; }

private:
    using Observers = std::span<ReplayObserver* const>;
    void send_payload(const EventView& view, Observers observers);
    void receive_payload(const EventView& view, Observers observers);
    void collective(const EventView& view, Observers observers);
    // Probes for and receives one message into `buffer_`.
    void receive(MPI_Comm comm, int source, int tag, const char* what, const EventView& view);
    int tag_of(const Message& m) const;

    const LocalTrace& trace_;
    const CommunicatorMirror& mirror_;
    ProgressWatch watch_;
    SendPool sends_;
    PayloadWriter writer_;          // reused for every payload
    std::vector<std::byte> buffer_; // reused for every received payload
    std::vector<double> scratch_;   // for collective exchanges
    int tag_ub_ = 32767;
    std::uint64_t messages_ = 0;
};

}  // namespace hindsight::replay
