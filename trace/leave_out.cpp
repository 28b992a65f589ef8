#include "trace/leave_out.hpp"

#include <algorithm>
#include <cstdint>

namespace hindsight::trace {
namespace {

bool flagged(const std::vector<bool>& flags, std::size_t index) { return index < flags.size() && flags[index]; }

// Old index -> new index of the entries of a table that keep their place
// in order; kNoEvent for those left out.
std::vector<std::uint32_t> renumbering(std::size_t size, const std::vector<bool>& left_out) {
    std::vector<std::uint32_t> to(size, kNoEvent);
    std::uint32_t next = 0;
    for (std::size_t i = 0; i < size; ++i)
        if (!flagged(left_out, i)) to[i] = next++;
    return to;
}

template <typename Record>
void compact(std::vector<Record>& table, const std::vector<std::uint32_t>& to) {
    std::size_t kept = 0;
    for (std::size_t i = 0; i < table.size(); ++i)
        if (to[i] != kNoEvent) table[kept++] = table[i];
    table.resize(kept);
}

}  // namespace

void leave_out(LocalTrace& trace, const std::vector<bool>& messages, const std::vector<bool>& collectives) {
    // The events that go, in increasing order. They are few next to the
    // events that stay (a trace has far more Enters and Leaves), so an
    // event's new index is found by counting those before it rather than
    // held in a table as long as the store.
    std::vector<EventIndex> gone;
    for (EventIndex i = 0; i < trace.events.size(); ++i) {
        const Event& e = trace.events[i];
        if (((e.kind == EventKind::Send || e.kind == EventKind::Recv) && flagged(messages, e.ref)) ||
            (e.kind == EventKind::CollectiveEnd && flagged(collectives, e.ref)))
            gone.push_back(i);
    }
    if (gone.empty()) return;
    // Only Enter events are referred to from outside the store, and only
    // Enters and Leaves from inside it; none of them goes.
    const auto moved = [&](EventIndex i) {
        if (i == kNoEvent) return kNoEvent;
        return i - static_cast<EventIndex>(std::lower_bound(gone.begin(), gone.end(), i) - gone.begin());
    };
    const std::vector<std::uint32_t> message_to = renumbering(trace.messages.size(), messages);
    const std::vector<std::uint32_t> collective_to = renumbering(trace.collectives.size(), collectives);

    // In place: every event moves to the same or a lower index.
    std::size_t next_gone = 0;
    EventIndex kept = 0;
    for (EventIndex i = 0; i < trace.events.size(); ++i) {
        if (next_gone < gone.size() && gone[next_gone] == i) {
            ++next_gone;
            continue;
        }
        Event e = trace.events[i];
        switch (e.kind) {
        case EventKind::Enter:
        case EventKind::Leave: e.ref = moved(e.ref); break;
        case EventKind::Send:
        case EventKind::Recv: e.ref = message_to[e.ref]; break;
        case EventKind::CollectiveEnd: e.ref = collective_to[e.ref]; break;
        }
        trace.events[kept++] = e;
    }
    trace.events.resize(kept);

    compact(trace.messages, message_to);
    for (Message& m : trace.messages) m.call_enter = moved(m.call_enter);
    compact(trace.collectives, collective_to);
    for (Collective& c : trace.collectives) c.call_enter = moved(c.call_enter);
    for (Collective& c : trace.nonblocking_collectives) c.call_enter = moved(c.call_enter);
    // Ordered by message index, which the renumbering keeps in order.
    std::erase_if(trace.posted_receives, [&](const PostedReceive& p) { return message_to.at(p.message) == kNoEvent; });
    for (PostedReceive& p : trace.posted_receives) {
        p.message = message_to[p.message];
        p.call_enter = moved(p.call_enter);
    }
}

}  // namespace hindsight::trace
