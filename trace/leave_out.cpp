#include "trace/leave_out.hpp"

#include <algorithm>
#include <cstdint>

#include "trace/event_store_builder.hpp"

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
    if (std::find(messages.begin(), messages.end(), true) == messages.end() &&
        std::find(collectives.begin(), collectives.end(), true) == collectives.end())
        return;
    const std::vector<std::uint32_t> message_to = renumbering(trace.messages.size(), messages);
    const std::vector<std::uint32_t> collective_to = renumbering(trace.collectives.size(), collectives);
    // The events that go, in increasing order. They are few next to the
    // events that stay (a trace has far more Enters and Leaves), so an
    // event's new index is found by counting those before it rather than
    // held in a table as long as the store. Only Enter events are referred
    // to from outside the store, and only Enters and Leaves from inside it;
    // none of them goes.
    std::vector<EventIndex> gone;
    const auto moved = [&](EventIndex i) {
        if (i == kNoEvent) return kNoEvent;
        return i - static_cast<EventIndex>(std::lower_bound(gone.begin(), gone.end(), i) - gone.begin());
    };

    // One pass, in place: every event moves to the same or a lower index
    // (the store is large; a pass costs its reading). Regions nest (the
    // loader checks it), so a Leave finds its Enter among the open ones, on
    // top, with its new index; the Enter learns its Leave's there.
    struct Open {
        EventIndex old_index, new_index;
    };
    std::vector<Open> open;
    EventIndex kept = 0;
    for (EventIndex i = 0; i < trace.events.size(); ++i) {
        Event e = trace.events[i];
        switch (e.kind) {
        case EventKind::Enter: open.push_back({i, kept}); break;  // ref: set at its Leave
        case EventKind::Leave: {
            const auto it = std::find_if(open.rbegin(), open.rend(), [&](const Open& o) { return o.old_index == e.ref; });
            const EventIndex enter = it == open.rend() ? moved(e.ref) : it->new_index;
            if (it != open.rend()) open.erase(std::next(it).base());
            trace.events[enter].ref = kept;
            e.ref = enter;
            break;
        }
        case EventKind::Send:
        case EventKind::Recv:
        case EventKind::CollectiveEnd: {
            const std::uint32_t to = (e.kind == EventKind::CollectiveEnd ? collective_to : message_to)[e.ref];
            if (to == kNoEvent) {
                gone.push_back(i);
                continue;  // the event goes
            }
            e.ref = to;
            break;
        }
        }
        trace.events[kept++] = e;
    }
    trace.events.resize(kept);
    // Enters whose Leave never came (none in a loaded trace) still hold
    // its old index.
    for (const Open& o : open) trace.events[o.new_index].ref = moved(trace.events[o.new_index].ref);

    compact(trace.messages, message_to);
    for (Message& m : trace.messages) m.call_enter = moved(m.call_enter);
    compact(trace.collectives, collective_to);
    for (Collective& c : trace.collectives) {
        c.call_enter = moved(c.call_enter);
        c.starting_call = moved(c.starting_call);
    }
    // The operations kept are numbered among themselves: where every member
    // leaves out the same operations (those an OpenMP worker made), the
    // numbers of the others agree again.
    number_starts(trace.collectives);
    for (FileTransfer& t : trace.file_transfers) t.call_enter = moved(t.call_enter);
    // The master's messages paired with a worker's name its calls in the
    // store (kNoPoll, the same value as kNoEvent, stays).
    for (ThreadPairedMessage& p : trace.threads.paired)
        if (p.thread == 0)
            for (std::uint32_t* call : {&p.call, &p.first_poll, &p.completing_call}) *call = moved(*call);
    trace.rma.move_calls(moved);
    // Ordered by message index, which the renumbering keeps in order.
    for (std::vector<ReceiveCall>* table : {&trace.posted_receives, &trace.probed_receives, &trace.polled_receives}) {
        std::erase_if(*table, [&](const ReceiveCall& p) { return message_to.at(p.message) == kNoEvent; });
        for (ReceiveCall& p : *table) {
            p.message = message_to[p.message];
            p.call_enter = moved(p.call_enter);
        }
    }
}

}  // namespace hindsight::trace
