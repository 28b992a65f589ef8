#include "replay/message_slots.hpp"

#include <array>
#include <map>
#include <optional>
#include <tuple>
#include <utility>

#include "replay/comm_layout.hpp"

namespace hindsight::replay {

MessageSlots::MessageSlots(const LocalTrace& trace)
    : peer_(trace.messages.size(), -1), slot_(trace.messages.size(), 0), event_(trace.messages.size(), kNoEvent) {
    const auto ranks = static_cast<std::size_t>(trace.definitions.mpi_rank_count());
    sends_.assign(ranks, 0);
    receives_.assign(ranks, 0);
    std::vector<CommLayout> layouts(trace.definitions.communicators.size());
    std::vector<bool> known(layouts.size(), false);

    // The slots follow from a sort of the messages by (direction, peer,
    // communicator, tag), stable within each such stream. A trace has few
    // streams and millions of messages, so rather than sort the messages we
    // number them within their stream in one pass, sort the streams, and
    // shift each stream's numbers by the size of the streams before it.
    using Stream = std::tuple<bool, int, CommId, std::uint32_t>;  // send?, peer, comm, tag
    std::map<Stream, std::uint32_t> stream_ids;
    std::vector<std::uint32_t> stream_sizes;
    std::vector<std::uint32_t> stream_of(trace.messages.size(), 0);
    // The last stream of each direction: a rank's sends mostly share one
    // stream, and so do its receives, while the two alternate.
    std::array<std::optional<std::pair<Stream, std::uint32_t>>, 2> last;
    for (EventIndex i = 0; i < trace.events.size(); ++i) {
        const Event& e = trace.events[i];
        if (e.kind != EventKind::Send && e.kind != EventKind::Recv) continue;
        event_[e.ref] = i;
        const Message& m = trace.messages[e.ref];
        if (!known[m.comm]) {
            layouts[m.comm] = comm_layout(trace.definitions, m.comm);
            known[m.comm] = true;
        }
        const CommLayout& layout = layouts[m.comm];
        const int peer = layout.self ? trace.rank : layout.members.at(static_cast<std::size_t>(m.partner));
        const bool send = e.kind == EventKind::Send;
        const Stream stream{send, peer, m.comm, m.tag};
        auto& cached = last[send ? 1 : 0];
        if (!cached || cached->first != stream) {
            const auto [it, added] = stream_ids.try_emplace(stream, static_cast<std::uint32_t>(stream_sizes.size()));
            if (added) stream_sizes.push_back(0);
            cached.emplace(stream, it->second);
        }
        const std::uint32_t id = cached->second;
        peer_[e.ref] = peer;
        stream_of[e.ref] = id;
        slot_[e.ref] = stream_sizes[id]++;
    }
    // In sorted order, each stream starts where the previous ones of the
    // same direction and peer end.
    std::vector<std::uint32_t> stream_start(stream_sizes.size(), 0);
    for (const auto& [stream, id] : stream_ids) {
        auto& count = (std::get<0>(stream) ? sends_ : receives_).at(static_cast<std::size_t>(std::get<1>(stream)));
        stream_start[id] = count;
        count += stream_sizes[id];
    }
    for (std::size_t m = 0; m < slot_.size(); ++m)
        if (peer_[m] >= 0) slot_[m] += stream_start[stream_of[m]];
}

}  // namespace hindsight::replay
