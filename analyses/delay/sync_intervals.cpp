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
    : trace_(&trace), points_(&points), time_(trace.call_tree.size(), 0.0), waiting_(trace.call_tree.size(), 0.0) {
    // Every event passes here once: sums in ticks by call path, the call
    // paths a piece touched marked with the piece's number instead of
    // tested for a zero sum and sorted out twice.
    const std::size_t paths = trace.call_tree.size();
    std::vector<Ticks> ticks(paths, 0);
    std::vector<std::size_t> piece_of(paths, SyncPointList::kNone);
    EventIndex from = 0;
    for (std::size_t p = 0; p <= points.size(); ++p) {
        piece_begin_.push_back(piece_paths_.size());
        if (p == points.size()) break;
        const EventIndex to = std::max(from, points[p].enter);
        for (EventIndex k = from; k < to; ++k) {
            const CallPathId c = call_path_after(trace, k);
            if (c == kNoCallPath) continue;
            if (piece_of[c] != p) {
                piece_of[c] = p;
                ticks[c] = 0;
                time_touched_.push_back(c);
            }
            ticks[c] += trace.events[k + 1].time - trace.events[k].time;
        }
        // The shifts' time within the piece moves to the call path that
        // the profile books it at.
        const Ticks piece_begin = from < trace.events.size() ? trace.events[from].time : 0;
        const Ticks piece_end = to < trace.events.size() ? trace.events[to].time : piece_begin;
        for (const TimeShift& shift : shifts) {
            const Ticks moved = std::min(shift.end, piece_end) - std::max(shift.begin, piece_begin);
            if (moved <= 0 || shift.from >= paths || shift.to >= paths) continue;
            for (const CallPathId c : {shift.from, shift.to})
                if (piece_of[c] != p) {
                    piece_of[c] = p;
                    ticks[c] = 0;
                    time_touched_.push_back(c);
                }
            ticks[shift.from] -= moved;
            ticks[shift.to] += moved;
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

const IntervalProfile& IntervalScanner::interval(std::size_t from, std::size_t to) {
    const SyncPointList& points = *points_;
    IntervalProfile& out = profile_;
    out.processing.paths.clear();
    out.processing.values.clear();
    out.waiting = 0;
    out.waits.clear();
    // Pieces are numbered one up from the point they begin at.
    const std::size_t first = from == SyncPointList::kNone ? 0 : from + 1;
    for (std::size_t piece = first; piece <= to; ++piece)
        for (std::size_t e = piece_begin_[piece]; e < piece_begin_[piece + 1]; ++e)
            add(time_, time_touched_, piece_paths_[e], piece_ticks_[e]);
    for (std::size_t p = first; p < to; ++p) {
        if (points[p].wait <= 0) continue;
        const auto ticks = static_cast<double>(points[p].wait);
        add(waiting_, waiting_touched_, points[p].cnode, ticks);
        out.waits.emplace_back(points[p].event, ticks);
        out.waiting += ticks;
    }
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
        }
        time_[c] = 0.0;
    }
    time_touched_.clear();
    for (const CallPathId c : waiting_touched_) waiting_[c] = 0.0;
    waiting_touched_.clear();
    return out;
}

}  // namespace hindsight::analyses
