// Synchronization intervals (Böhme et al., TOPC 2016, §5): the stretch of a
// rank's trace between two synchronization points of the same ranks
// (sync_point_list.hpp). A wait state at a synchronization point can only
// be caused by differences between the ranks' activities within the
// interval that ends there, so the delay analysis compares the ranks'
// processing-time profiles over it.
//
// An interval runs from the entry into the earlier point's MPI call to the
// entry into the later one's: the later call is where the waiting happens,
// and of the earlier call only its completion counts (the rest was the
// synchronization itself). Each call path's time in the interval less the
// waiting at the synchronization points inside is its processing time. A
// worker's time from its master's fork to its team's begin is its parallel
// region's, as its profile books it.
#pragma once

#include <cstddef>
#include <span>
#include <utility>
#include <vector>

#include "analyses/delay/sync_point_list.hpp"
#include "analyses/time_shift.hpp"
#include "common/call_tree.hpp"
#include "trace/local_trace.hpp"

namespace hindsight::analyses {

// Ticks by call path, sorted by call path, only call paths with a value.
struct SparseProfile {
    std::vector<CallPathId> paths;
    std::vector<double> values;

    bool operator==(const SparseProfile&) const = default;
};

// What one interval holds on this rank.
struct IntervalProfile {
    SparseProfile processing;  // processing time by call path
    double waiting = 0;        // total waiting of the wait states inside
    // The wait states inside (synchronization points with waiting, the one
    // that ends the interval excluded): their positions and lengths.
    std::vector<std::pair<std::size_t, double>> waits;
    // A worker's interval that goes on on its master (IntervalSpan): by
    // entry of `processing`, the master's part; else empty.
    std::vector<double> master_part;
};

// Takes intervals from a table of the time between consecutive
// synchronization points, made once per pass: an interval is the sum of the
// pieces it spans, however many events they hold.
class IntervalScanner {
public:
    IntervalScanner() = default;
    // Both must outlive the scanner.
    IntervalScanner(const trace::LocalTrace& trace, const SyncPointList& points,
                    std::span<const TimeShift> shifts = {});

    // The interval `span` (SyncPointList::span()): each call path's time
    // less its waiting at the points inside (negative values dropped), with
    // the part of the first point's call that is no completion left out.
    // The profile is the scanner's own and valid until the next call:
    // intervals are taken for every wait state, several times, and a new
    // profile each time would allocate its vectors anew.
    const IntervalProfile& interval(const IntervalSpan& span);

private:
    static void add(std::vector<double>& dense, std::vector<CallPathId>& touched, CallPathId cnode, double ticks);
    // The touched call paths, sorted and each once.
    static void settle(std::vector<CallPathId>& touched);

    const trace::LocalTrace* trace_ = nullptr;
    const SyncPointList* points_ = nullptr;
    // Time by call path between the entries into the calls of consecutive
    // synchronization points of a thread: piece p ends at point p and
    // begins at the thread's point before (its first: at the start of its
    // events); flat, with the first entry of each piece in piece_begin_.
    std::vector<CallPathId> piece_paths_;
    std::vector<double> piece_ticks_;
    std::vector<std::size_t> piece_begin_;
    // Sums by call path while an interval (or a piece) is taken, all zero
    // between, and the call paths they touched.
    std::vector<double> time_, waiting_, master_time_;
    std::vector<CallPathId> time_touched_, waiting_touched_, master_touched_;
    IntervalProfile profile_;  // the last interval taken
};

}  // namespace hindsight::analyses
