#include "replay/stream_pairing.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <tuple>

#include "replay/list_exchange.hpp"

namespace hindsight::replay {
namespace {

// A stream as its peer learns of it (no padding: it travels as bytes).
struct StreamLength {
    std::uint64_t sizes;
    std::uint32_t comm;
    std::uint32_t tag;
    std::uint32_t length;
    std::uint32_t send;
};
static_assert(sizeof(StreamLength) == 24);

using StreamKey = std::tuple<bool, CommId, std::uint32_t>;  // direction, communicator, tag

}  // namespace

void pair_streams(const trace::LocalTrace& trace, const trace::MessageSlots& slots, MPI_Comm world,
                  ProgressWatch& watch, std::vector<bool>& leave, UnpairedTally& found) {
    const std::vector<trace::MessageSlots::Stream>& streams = slots.streams();
    int size = 0;
    MPI_Comm_size(world, &size);
    std::vector<std::vector<StreamLength>> outgoing(static_cast<std::size_t>(size));
    for (const auto& s : streams)
        outgoing.at(static_cast<std::size_t>(s.peer)).push_back({s.sizes, s.comm, s.tag, s.length, s.send});
    const std::vector<std::vector<StreamLength>> incoming = exchange_lists(outgoing, world, watch);

    // Per stream of this rank: how many of its messages pair, and whether
    // the paired ones differ in size from the peer's.
    std::vector<std::uint32_t> paired(streams.size(), 0);
    std::vector<bool> sizes_differ(streams.size(), false);
    std::map<StreamKey, const StreamLength*> theirs;
    int peer = -1;
    for (std::size_t i = 0; i < streams.size(); ++i) {
        const auto& s = streams[i];
        if (s.peer != peer) {  // streams are ordered by direction, then peer
            peer = s.peer;
            theirs.clear();
            for (const StreamLength& t : incoming.at(static_cast<std::size_t>(peer)))
                theirs[{t.send != 0, t.comm, t.tag}] = &t;
        }
        // The peer's stream of the opposite direction.
        const auto match = theirs.find({!s.send, s.comm, s.tag});
        const std::uint32_t length = match == theirs.end() ? 0 : match->second->length;
        paired[i] = std::min(s.length, length);
        sizes_differ[i] = length == s.length && match != theirs.end() && match->second->sizes != s.sizes;
    }

    leave.resize(trace.messages.size(), false);
    for (std::uint32_t m = 0; m < trace.messages.size(); ++m) {
        const std::uint32_t i = slots.stream(m);
        const auto& s = streams[i];
        const int from = s.send ? trace.rank : s.peer, to = s.send ? s.peer : trace.rank;
        const CallPathId cnode = trace.events[slots.event(m)].cnode;
        if (slots.slot(m) - s.first_slot >= paired[i]) {
            leave[m] = true;
            found.add(s.send ? Unpairing::NoReceive : Unpairing::NoSend, from, to, kNoId, cnode);
        } else if (sizes_differ[i] && !s.send) {
            found.add(Unpairing::SizesDiffer, from, to, kNoId, cnode);
        }
    }
}

}  // namespace hindsight::replay
