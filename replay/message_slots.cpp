#include "replay/message_slots.hpp"

#include <algorithm>
#include <tuple>

#include "replay/comm_layout.hpp"

namespace hindsight::replay {

MessageSlots::MessageSlots(const LocalTrace& trace)
    : peer_(trace.messages.size(), -1), slot_(trace.messages.size(), 0) {
    const auto ranks = static_cast<std::size_t>(trace.definitions.mpi_rank_count());
    sends_.assign(ranks, 0);
    receives_.assign(ranks, 0);
    std::vector<CommLayout> layouts(trace.definitions.communicators.size());
    std::vector<bool> known(layouts.size(), false);

    struct Entry {
        bool send;
        int peer;
        CommId comm;
        std::uint32_t tag;
        std::uint32_t message;
    };
    std::vector<Entry> entries;
    entries.reserve(trace.messages.size());
    for (const Event& e : trace.events) {
        if (e.kind != EventKind::Send && e.kind != EventKind::Recv) continue;
        const Message& m = trace.messages[e.ref];
        if (!known[m.comm]) {
            layouts[m.comm] = comm_layout(trace.definitions, m.comm);
            known[m.comm] = true;
        }
        const CommLayout& layout = layouts[m.comm];
        const int peer = layout.self ? trace.rank : layout.members.at(static_cast<std::size_t>(m.partner));
        entries.push_back({e.kind == EventKind::Send, peer, m.comm, m.tag, e.ref});
    }
    // Stable: within one (peer, communicator, tag) the order of occurrence.
    std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
        return std::tie(a.send, a.peer, a.comm, a.tag) < std::tie(b.send, b.peer, b.comm, b.tag);
    });
    for (const Entry& e : entries) {
        auto& count = (e.send ? sends_ : receives_).at(static_cast<std::size_t>(e.peer));
        peer_[e.message] = e.peer;
        slot_[e.message] = count++;
    }
}

}  // namespace hindsight::replay
