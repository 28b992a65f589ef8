#include "analyses/timeline/lane_cutter.hpp"

#include <algorithm>

namespace hindsight::analyses {

using trace::EventIndex;
using trace::EventKind;

namespace {

// The call path in force just before event `e`.
CallPathId path_before(const trace::LocalTrace& trace, const trace::Event& e) {
    if (e.kind == EventKind::Enter) return e.cnode == kNoCallPath ? kNoCallPath : trace.call_tree.node(e.cnode).parent;
    return e.cnode;
}

// The events of a lane, [first, end), and the time they cover.
struct KeptEvents {
    EventIndex first = 0;
    EventIndex end = 0;
    Ticks from = 0;
    Ticks to = 0;
};

// Of `events` (in time order), those in the window; where there are more
// than `most`, the `most` nearest the wait's start, as many before it as
// after it where there are.
template <typename Events>
KeptEvents keep_events(const Events& events, const TimelineWindow& window, std::size_t most) {
    const auto index_at = [&](Ticks t, bool after) {
        const auto at = after ? std::upper_bound(events.begin(), events.end(), t,
                                                 [](Ticks x, const auto& e) { return x < e.time; })
                              : std::lower_bound(events.begin(), events.end(), t,
                                                 [](const auto& e, Ticks x) { return e.time < x; });
        return static_cast<EventIndex>(at - events.begin());
    };
    KeptEvents kept{index_at(window.from, false), index_at(window.to, true), window.from, window.to};
    if (kept.end - kept.first <= most) return kept;
    const EventIndex center = index_at(window.wait.start, false);
    const auto half = static_cast<EventIndex>(most / 2);
    EventIndex first = center - std::min(center - kept.first, half);
    const EventIndex end = std::min<EventIndex>(kept.end, first + static_cast<EventIndex>(most));
    first = end - static_cast<EventIndex>(most);
    if (first > kept.first) kept.from = events[first].time;
    if (end < kept.end) kept.to = events[end - 1].time;
    kept.first = first;
    kept.end = end;
    return kept;
}

// The call paths a worker thread had entered and not left before its event
// `next`, outermost first: walking back, the Enters whose Leaves came at or
// after `next`, up to the end of the thread's previous team (before which
// every visit had ended).
std::vector<CallPathId> open_paths(const std::vector<trace::ThreadEvent>& events, EventIndex next) {
    std::vector<CallPathId> chain;
    std::size_t left_later = 0;  // Leaves passed whose Enters are still to come
    for (EventIndex k = std::min<EventIndex>(next, static_cast<EventIndex>(events.size())); k-- > 0;) {
        const trace::ThreadEvent& e = events[k];
        if (e.kind == trace::ThreadEventKind::TeamEnd) break;
        if (e.kind == trace::ThreadEventKind::Leave) ++left_later;
        if (e.kind != trace::ThreadEventKind::Enter) continue;
        if (left_later > 0)
            --left_later;
        else
            chain.push_back(e.cnode);
    }
    std::reverse(chain.begin(), chain.end());
    return chain;
}

}  // namespace

LaneCutter::LaneCutter(const trace::LocalTrace& trace, const ForwardFacts& facts, const trace::MessageSlots& slots,
                       std::span<const LaneInterval> critical, std::size_t max_events)
    : trace_(&trace), facts_(&facts), slots_(&slots), critical_(critical), max_events_(std::max<std::size_t>(max_events, 1)) {
    // The collectives are stored in trace order: a member's count of the
    // operations on a communicator is the same on every member.
    std::vector<std::uint32_t> on_comm(trace.definitions.communicators.size(), 0);
    collective_number_.reserve(trace.collectives.size());
    for (const trace::Collective& c : trace.collectives) {
        if (c.comm >= on_comm.size()) on_comm.resize(std::size_t{c.comm} + 1, 0);
        collective_number_.push_back(on_comm[c.comm]++);
    }
}

Lane LaneCutter::cut(const TimelineWindow& window) const {
    Lane lane;
    const KeptEvents kept = keep_events(trace_->events, window, per_thread());
    lane.from = kept.from;
    lane.to = kept.to;
    // Indices into lane.bars of the visits still open, outermost first.
    std::vector<std::size_t> open;
    open_bars(lane, kept.first, open);
    for (EventIndex i = kept.first; i < kept.end; ++i) add_event(lane, i, open);
    for (const LaneInterval& c : critical_)
        if (c.to >= lane.from && c.from <= lane.to)
            lane.critical.push_back({std::max(c.from, lane.from), std::min(c.to, lane.to)});
    // The master's stream (0) repeats the visits above.
    for (std::uint32_t thread = 1; thread < trace_->threads.threads.size(); ++thread)
        lane.threads.push_back(cut_thread(thread, window));
    return lane;
}

std::size_t LaneCutter::per_thread() const {
    const std::size_t threads = std::max<std::size_t>(trace_->threads.threads.size(), 1);
    return std::max<std::size_t>(max_events_ / threads, 1);
}

ThreadLane LaneCutter::cut_thread(std::uint32_t thread, const TimelineWindow& window) const {
    const auto& events = trace_->threads.threads[thread].events;
    const KeptEvents kept = keep_events(events, window, per_thread());
    ThreadLane lane{thread, kept.from, kept.to, {}};
    const auto depth = [&](CallPathId c) { return static_cast<std::uint32_t>(trace_->call_tree.depth(c) - 1); };
    std::vector<std::size_t> open;  // as in cut()
    for (const CallPathId c : open_paths(events, kept.first)) {
        open.push_back(lane.bars.size());
        lane.bars.push_back({lane.from, lane.to, depth(c), c});
    }
    for (EventIndex i = kept.first; i < kept.end; ++i) {
        const trace::ThreadEvent& e = events[i];
        if (e.kind == trace::ThreadEventKind::Enter) {
            open.push_back(lane.bars.size());
            lane.bars.push_back({e.time, lane.to, depth(e.cnode), e.cnode});
        } else if (e.kind == trace::ThreadEventKind::Leave && !open.empty()) {
            lane.bars[open.back()].end = e.time;
            open.pop_back();
        }
    }
    return lane;
}

// The visits open when the lane begins: the call path in force before its
// first event (or, without events in the lane, before the next one) and the
// paths above it, each from the lane's beginning until its Leave.
void LaneCutter::open_bars(Lane& lane, EventIndex next, std::vector<std::size_t>& open) const {
    if (next >= trace_->events.size()) return;
    std::vector<CallPathId> chain;
    for (CallPathId c = path_before(*trace_, trace_->events[next]); c != kNoCallPath; c = trace_->call_tree.node(c).parent)
        chain.push_back(c);
    std::reverse(chain.begin(), chain.end());
    for (std::size_t depth = 0; depth < chain.size(); ++depth) {
        open.push_back(lane.bars.size());
        lane.bars.push_back({lane.from, lane.to, static_cast<std::uint32_t>(depth), chain[depth]});
    }
}

void LaneCutter::add_event(Lane& lane, EventIndex index, std::vector<std::size_t>& open) const {
    const trace::Event& e = trace_->events[index];
    switch (e.kind) {
    case EventKind::Enter:
        open.push_back(lane.bars.size());
        lane.bars.push_back({e.time, lane.to, static_cast<std::uint32_t>(trace_->call_tree.depth(e.cnode) - 1), e.cnode});
        break;
    case EventKind::Leave:
        if (!open.empty()) {
            lane.bars[open.back()].end = e.time;
            open.pop_back();
        }
        break;
    case EventKind::Send:
    case EventKind::Recv: {
        const LaneMessage message{e.time, slots_->peer(e.ref), slots_->slot(e.ref)};
        (e.kind == EventKind::Send ? lane.sends : lane.receives).push_back(message);
        break;
    }
    case EventKind::CollectiveEnd: {
        const trace::Collective& c = trace_->collective(e);
        const EventIndex enter = c.call_enter == trace::kNoEvent ? index : c.call_enter;
        const EventIndex leave = trace_->events[enter].kind == EventKind::Enter ? trace_->events[enter].ref : index;
        lane.collectives.push_back({trace_->events[enter].time, trace_->events[leave].time, c.comm,
                                    collective_number_[e.ref]});
        break;
    }
    }
    if (e.kind == EventKind::Enter || e.kind == EventKind::Leave) return;
    const WaitState* wait = facts_->wait_states().find(index);
    if (!wait || wait->waiting <= 0) return;
    const Ticks start = trace::EventView(*trace_, index).wait_start();
    lane.waits.push_back({start, start + wait->waiting, wait->pattern});
}

}  // namespace hindsight::analyses
