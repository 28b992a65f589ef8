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

LaneCutter::Range LaneCutter::events_in(Ticks from, Ticks to) const {
    const auto& events = trace_->events;
    const auto before = [](const trace::Event& e, Ticks t) { return e.time < t; };
    const auto after = [](Ticks t, const trace::Event& e) { return t < e.time; };
    const auto first = std::lower_bound(events.begin(), events.end(), from, before);
    const auto end = std::upper_bound(first, events.end(), to, after);
    return {static_cast<EventIndex>(first - events.begin()), static_cast<EventIndex>(end - events.begin())};
}

Lane LaneCutter::cut(const TimelineWindow& window) const {
    const auto& events = trace_->events;
    Lane lane;
    lane.from = window.from;
    lane.to = window.to;
    Range range = events_in(window.from, window.to);
    if (range.end - range.first > max_events_) {
        // The events nearest the wait's start, as many before it as after
        // it where there are.
        const EventIndex center = events_in(window.wait.start, window.wait.start).first;
        const EventIndex half = static_cast<EventIndex>(max_events_ / 2);
        EventIndex first = center - std::min(center - range.first, half);
        const EventIndex end = std::min<EventIndex>(range.end, first + static_cast<EventIndex>(max_events_));
        first = end - static_cast<EventIndex>(max_events_);
        if (first > range.first) lane.from = events[first].time;
        if (end < range.end) lane.to = events[end - 1].time;
        range = {first, end};
    }
    // Indices into lane.bars of the visits still open, outermost first.
    std::vector<std::size_t> open;
    open_bars(lane, range.first, open);
    for (EventIndex i = range.first; i < range.end; ++i) add_event(lane, i, open);
    for (const LaneInterval& c : critical_)
        if (c.to >= lane.from && c.from <= lane.to)
            lane.critical.push_back({std::max(c.from, lane.from), std::min(c.to, lane.to)});
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
