#include "analyses/sync_intervals.hpp"

#include <algorithm>

#include "analyses/event_gaps.hpp"

namespace hindsight::analyses {

using trace::EventIndex;

void add_profile(SparseProfile& into, const SparseProfile& more) {
    SparseProfile sum;
    sum.paths.reserve(into.paths.size() + more.paths.size());
    sum.values.reserve(into.paths.size() + more.paths.size());
    std::size_t a = 0, b = 0;
    while (a < into.paths.size() || b < more.paths.size()) {
        const bool take_a = b == more.paths.size() || (a < into.paths.size() && into.paths[a] <= more.paths[b]);
        const bool take_b = a == into.paths.size() || (b < more.paths.size() && more.paths[b] <= into.paths[a]);
        sum.paths.push_back(take_a ? into.paths[a] : more.paths[b]);
        sum.values.push_back((take_a ? into.values[a] : 0.0) + (take_b ? more.values[b] : 0.0));
        if (take_a) ++a;
        if (take_b) ++b;
    }
    into = std::move(sum);
}

void append_interval(RawInterval& into, const RawInterval& later) {
    add_profile(into.time, later.time);
    add_profile(into.waiting, later.waiting);
    into.waits.insert(into.waits.end(), later.waits.begin(), later.waits.end());
    into.total_waiting += later.total_waiting;
}

IntervalProfile profile_of(const RawInterval& raw, CallPathId first_call, double pruned) {
    IntervalProfile out;
    out.waiting = raw.total_waiting;
    out.waits = raw.waits;
    std::size_t w = 0;
    for (std::size_t i = 0; i < raw.time.paths.size(); ++i) {
        const CallPathId c = raw.time.paths[i];
        while (w < raw.waiting.paths.size() && raw.waiting.paths[w] < c) ++w;
        double value = raw.time.values[i];
        if (w < raw.waiting.paths.size() && raw.waiting.paths[w] == c) value -= raw.waiting.values[w];
        value = std::max(value, 0.0);
        if (c == first_call) value = std::max(value - pruned, 0.0);
        if (value > 0) {
            out.processing.paths.push_back(c);
            out.processing.values.push_back(value);
        }
    }
    return out;
}

void IntervalScanner::add(std::vector<double>& dense, std::vector<CallPathId>& touched, CallPathId cnode,
                          double ticks) {
    if (cnode == kNoCallPath) return;
    if (cnode >= dense.size()) dense.resize(cnode + std::size_t{1}, 0.0);
    if (dense[cnode] == 0.0) touched.push_back(cnode);  // a sum back at zero is listed twice
    dense[cnode] += ticks;
}

SparseProfile IntervalScanner::collect(std::vector<double>& dense, std::vector<CallPathId>& touched) {
    std::sort(touched.begin(), touched.end());
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    SparseProfile out;
    for (const CallPathId c : touched) {
        if (dense[c] != 0.0) {
            out.paths.push_back(c);
            out.values.push_back(dense[c]);
        }
        dense[c] = 0.0;
    }
    touched.clear();
    return out;
}

IntervalScanner::IntervalScanner(const trace::LocalTrace& trace, const SyncPointList& points)
    : trace_(&trace), points_(&points), time_(trace.call_tree.size(), 0.0), waiting_(trace.call_tree.size(), 0.0) {
    EventIndex from = 0;
    for (std::size_t p = 0; p <= points.size(); ++p) {
        piece_begin_.push_back(piece_paths_.size());
        if (p == points.size()) break;
        const EventIndex to = std::max(from, points[p].enter);
        for (EventIndex k = from; k < to; ++k)
            add(time_, time_touched_, call_path_after(trace, k),
                static_cast<double>(trace.events[k + 1].time - trace.events[k].time));
        const SparseProfile piece = collect(time_, time_touched_);
        piece_paths_.insert(piece_paths_.end(), piece.paths.begin(), piece.paths.end());
        piece_ticks_.insert(piece_ticks_.end(), piece.values.begin(), piece.values.end());
        from = to;
    }
}

RawInterval IntervalScanner::raw(std::size_t from, std::size_t to, bool with_end_wait) {
    const SyncPointList& points = *points_;
    RawInterval out;
    // Pieces are numbered one up from the point they begin at.
    for (std::size_t piece = from == SyncPointList::kNone ? 0 : from + 1; piece <= to; ++piece)
        for (std::size_t e = piece_begin_[piece]; e < piece_begin_[piece + 1]; ++e)
            add(time_, time_touched_, piece_paths_[e], piece_ticks_[e]);
    const std::size_t end = with_end_wait ? to + 1 : to;
    for (std::size_t p = from == SyncPointList::kNone ? 0 : from + 1; p < end; ++p) {
        if (points[p].wait <= 0) continue;
        const auto ticks = static_cast<double>(points[p].wait);
        add(waiting_, waiting_touched_, points[p].cnode, ticks);
        out.waits.emplace_back(points[p].event, ticks);
        out.total_waiting += ticks;
    }
    out.time = collect(time_, time_touched_);
    out.waiting = collect(waiting_, waiting_touched_);
    return out;
}

IntervalProfile IntervalScanner::interval(std::size_t from, std::size_t to) {
    const RawInterval r = raw(from, to, false);
    if (from == SyncPointList::kNone) return profile_of(r, kNoCallPath, 0.0);
    return profile_of(r, (*points_)[from].cnode, static_cast<double>((*points_)[from].prune));
}

}  // namespace hindsight::analyses
