#include "analyses/delay/sync_intervals.hpp"

#include <algorithm>

#include "analyses/event_gaps.hpp"

namespace hindsight::analyses {

using trace::EventIndex;

void IntervalScanner::add(std::vector<double>& dense, std::vector<CallPathId>& touched, CallPathId cnode,
                          double ticks) {
    if (cnode == kNoCallPath) return;
    if (cnode >= dense.size()) dense.resize(cnode + std::size_t{1}, 0.0);
    if (dense[cnode] == 0.0) touched.push_back(cnode);  // a sum back at zero is listed twice
    dense[cnode] += ticks;
}

void IntervalScanner::settle(std::vector<CallPathId>& touched) {
    std::sort(touched.begin(), touched.end());
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
}

IntervalScanner::IntervalScanner(const trace::LocalTrace& trace, const SyncPointList& points,
                                 std::span<const TimeShift> shifts)
    : trace_(&trace),
      points_(&points),
      time_(trace.call_tree.size(), 0.0),
      waiting_(trace.call_tree.size(), 0.0),
      master_time_(trace.call_tree.size(), 0.0) {
    // Every event passes here once: sums in ticks by call path, the call
    // paths a piece touched marked with the piece's number instead of
    // tested for a zero sum and sorted out twice.
    const std::size_t paths = trace.call_tree.size();
    std::vector<Ticks> ticks(paths, 0);
    std::vector<std::size_t> piece_of(paths, SyncPointList::kNone);
    std::size_t p = 0;
    const auto touch = [&](CallPathId c) {
        if (piece_of[c] == p) return;
        piece_of[c] = p;
        ticks[c] = 0;
        time_touched_.push_back(c);
    };
    // The time between consecutive events of one thread, by the call path
    // after the first of each two.
    const auto take = [&](std::size_t from, std::size_t to, auto time, auto path_after) {
        for (std::size_t k = from; k < to; ++k) {
            const CallPathId c = path_after(k);
            if (c == kNoCallPath) continue;
            touch(c);
            ticks[c] += time(k + 1) - time(k);
        }
    };
    std::size_t from = 0;  // in the events of the thread of point p
    for (; p <= points.size(); ++p) {
        piece_begin_.push_back(piece_paths_.size());
        if (p == points.size()) break;
        const std::uint32_t thread = points[p].thread;
        if (p > 0 && thread != points[p - 1].thread) from = 0;
        const std::size_t to = std::max<std::size_t>(from, points[p].enter);
        if (thread == 0) {
            take(
                from, to, [&](std::size_t k) { return trace.events[k].time; },
                [&](std::size_t k) { return call_path_after(trace, static_cast<EventIndex>(k)); });
            // The shifts' time within the piece moves to the call path that
            // the profile books it at.
            const Ticks piece_begin = from < trace.events.size() ? trace.events[from].time : 0;
            const Ticks piece_end = to < trace.events.size() ? trace.events[to].time : piece_begin;
            for (const TimeShift& shift : shifts) {
                const Ticks moved = std::min(shift.end, piece_end) - std::max(shift.begin, piece_begin);
                if (moved <= 0 || shift.from >= paths || shift.to >= paths) continue;
                touch(shift.from);
                touch(shift.to);
                ticks[shift.from] -= moved;
                ticks[shift.to] += moved;
            }
        } else {
            const std::span<const trace::ThreadEvent> events = trace.threads.threads[thread].events;
            take(
                from, std::min(to, events.size()), [&](std::size_t k) { return events[k].time; },
                [&](std::size_t k) { return thread_path_after(trace, events, k); });
            // The first piece of a team: the worker's time from the fork to
            // its team's begin counts at the region, as its profile has it.
            const std::size_t fork = p > 0 && points[p - 1].thread == thread ? points.fork_point(p - 1)
                                                                            : SyncPointList::kNone;
            if (fork != SyncPointList::kNone && from < events.size()) {
                const auto region = std::find_if(events.begin() + static_cast<std::ptrdiff_t>(from), events.end(),
                                                 [](const trace::ThreadEvent& e) {
                                                     return e.kind == trace::ThreadEventKind::Enter;
                                                 });
                const Ticks late = events[from].time - trace.events[points[fork].enter].time;
                if (region != events.end() && region->cnode < paths && late > 0) {
                    touch(region->cnode);
                    ticks[region->cnode] += late;
                }
            }
        }
        std::sort(time_touched_.begin(), time_touched_.end());
        for (const CallPathId c : time_touched_) {
            if (ticks[c] <= 0) continue;
            piece_paths_.push_back(c);
            piece_ticks_.push_back(static_cast<double>(ticks[c]));
        }
        time_touched_.clear();
        from = to;
    }
}

const IntervalProfile& IntervalScanner::interval(const IntervalSpan& span) {
    const SyncPointList& points = *points_;
    IntervalProfile& out = profile_;
    out.processing.paths.clear();
    out.processing.values.clear();
    out.master_part.clear();
    out.waiting = 0;
    out.waits.clear();
    // Piece q ends at point q and begins at the point before on its thread.
    const auto take_pieces = [&](std::size_t from, std::size_t to, std::vector<double>& time,
                                 std::vector<CallPathId>& touched) {
        for (std::size_t piece = points.first_piece(from, to); piece <= to; ++piece)
            for (std::size_t e = piece_begin_[piece]; e < piece_begin_[piece + 1]; ++e)
                add(time, touched, piece_paths_[e], piece_ticks_[e]);
    };
    take_pieces(span.first, span.last, time_, time_touched_);
    if (span.on_master) {
        take_pieces(span.master_first, span.master_last, time_, time_touched_);
        take_pieces(span.master_first, span.master_last, master_time_, master_touched_);
    }
    points.for_each_inside(span, [&](std::size_t p) {
        if (points[p].wait <= 0) return;
        const auto ticks = static_cast<double>(points[p].wait);
        add(waiting_, waiting_touched_, points[p].cnode, ticks);
        out.waits.emplace_back(p, ticks);
        out.waiting += ticks;
    });
    // Of the point the interval begins at, only the completion counts.
    const std::size_t from = span.on_master ? span.master_first : span.first;
    const CallPathId first_call = from == SyncPointList::kNone ? kNoCallPath : points[from].cnode;
    const double pruned = from == SyncPointList::kNone ? 0.0 : static_cast<double>(points[from].prune);
    settle(time_touched_);
    for (const CallPathId c : time_touched_) {
        const double waited = c < waiting_.size() ? waiting_[c] : 0.0;
        double value = std::max(time_[c] - waited, 0.0);
        if (c == first_call) value = std::max(value - pruned, 0.0);
        if (value > 0) {
            out.processing.paths.push_back(c);
            out.processing.values.push_back(value);
            // The master's part of it, in proportion to its time there.
            if (span.on_master)
                out.master_part.push_back(c < master_time_.size() ? value * master_time_[c] / time_[c] : 0.0);
        }
        time_[c] = 0.0;
    }
    time_touched_.clear();
    for (const CallPathId c : waiting_touched_) waiting_[c] = 0.0;
    waiting_touched_.clear();
    for (const CallPathId c : master_touched_) master_time_[c] = 0.0;
    master_touched_.clear();
    return out;
}

}  // namespace hindsight::analyses
