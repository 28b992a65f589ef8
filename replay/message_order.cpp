#include "replay/message_order.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>


namespace hindsight::replay {

std::vector<std::vector<std::uint32_t>> find_impossible_order(const trace::LocalTrace& trace,
                                                              const trace::MessageSlots& slots, MPI_Comm world,
                                                              ProgressWatch& watch) {
    const std::size_t ranks = slots.sends().size();
    // What each peer needs of this rank's order, in its slot order: how many
    // sends to it preceded each receive of its messages, then each send's
    // position among the sends to it. Written in place, as the block that
    // goes to the peer.
    std::vector<int> counts(ranks), offsets(ranks);
    for (std::size_t r = 0; r < ranks; ++r)
        counts[r] = static_cast<int>(slots.receives()[r] + slots.sends()[r]);
    std::exclusive_scan(counts.begin(), counts.end(), offsets.begin(), 0);
    const auto total = static_cast<std::size_t>(offsets.back() + counts.back());
    // One element more: a rank without messages still passes two distinct
    // buffers, which MPICH requires even for empty transfers.
    std::vector<std::uint32_t> outgoing(total + 1), incoming(total + 1);
    const auto sends_before_receive = [&](std::size_t peer) { return outgoing.data() + offsets[peer]; };
    const auto send_position = [&](std::size_t peer) { return sends_before_receive(peer) + slots.receives()[peer]; };
    std::vector<std::uint32_t> sent(ranks, 0);
    // The message table is in event order.
    for (std::uint32_t m = 0; m < trace.messages.size(); ++m) {
        const auto peer = static_cast<std::size_t>(slots.peer(m));
        if (slots.is_send(m))
            send_position(peer)[slots.slot(m)] = sent[peer]++;
        else
            sends_before_receive(peer)[slots.slot(m)] = sent[peer];
    }
    // The check is symmetric: the lower rank of each pair makes it, with
    // the higher rank's block. The peer's counts equal ours the other way
    // round (paired before), so the same counts and offsets describe what
    // comes in. Messages a rank sends to itself need nobody's block: its
    // own says everything (below).
    std::vector<int> send_counts(counts), receive_counts(counts);
    const auto rank = static_cast<std::size_t>(trace.rank);
    for (std::size_t r = 0; r < ranks; ++r) {
        if (r <= rank) receive_counts[r] = 0;
        if (r >= rank) send_counts[r] = 0;
    }
    watch.complete("the message order of all ranks", [&](auto& r) {
        MPI_Ialltoallv(outgoing.data(), send_counts.data(), offsets.data(), MPI_UINT32_T, incoming.data(),
                       receive_counts.data(), offsets.data(), MPI_UINT32_T, world, &r[0]);
    });
    std::vector<std::vector<std::uint32_t>> caught(ranks);
    // A message to oneself is received after it is sent: a receive that
    // precedes the send of its message waits for ever.
    for (std::uint32_t k = 0; k < slots.receives()[rank]; ++k)
        if (send_position(rank)[k] >= sends_before_receive(rank)[k]) caught[rank].push_back(k);

    std::vector<std::uint32_t> earliest;
    for (std::size_t peer = 0; peer < ranks; ++peer) {
        const std::uint32_t sends = slots.sends()[peer], receives = slots.receives()[peer];
        if (receive_counts[peer] == 0 || sends == 0 || receives == 0) continue;
        // The peer's side: for each of our sends (by slot), how many of its
        // sends to us preceded its receive of it; for each of our receives
        // (by slot), its send's position among its sends to us.
        const std::uint32_t* peer_sends_before = incoming.data() + offsets[peer];
        const std::uint32_t* peer_send_position = peer_sends_before + sends;
        // earliest[q]: the fewest sends the peer made before receiving any
        // of our sends at position q or later.
        earliest.assign(sends + 1, std::numeric_limits<std::uint32_t>::max());
        for (std::uint32_t slot = 0; slot < sends; ++slot) earliest[send_position(peer)[slot]] = peer_sends_before[slot];
        for (std::uint32_t q = sends; q-- > 0;) earliest[q] = std::min(earliest[q], earliest[q + 1]);
        // Our receive of slot k comes before our sends at positions
        // sends_before_receive and later; if the peer received one of those
        // before it sent k, each side waits for the other. Without all such
        // receives none is left: leaving messages out changes no order of
        // the others, so no other receive comes to wait this way.
        for (std::uint32_t k = 0; k < receives; ++k)
            if (earliest[sends_before_receive(peer)[k]] <= peer_send_position[k]) caught[peer].push_back(k);
    }
    return caught;
}

}  // namespace hindsight::replay
