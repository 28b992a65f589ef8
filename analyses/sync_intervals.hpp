// Synchronization intervals (Böhme et al., TOPC 2016, §5): the stretch of a
// rank's trace between two consecutive synchronization points of the same
// ranks. A wait state at a synchronization point can only be caused by
// differences between the ranks' activities within the interval that ends
// there, so the delay analysis compares the ranks' profiles over it.
//
// Here the synchronization points "of the same ranks" as a point-to-point
// message between this rank and rank q are every earlier message between
// the two and every earlier collective whose communicator holds both; for a
// collective on communicator C, every earlier collective on a communicator
// that holds all of C. Both sides of a synchronization point see the same
// earlier points, so they delimit the same interval. The interval runs from
// the end of the earlier point's MPI call to the entry into this one's: the
// calls themselves are where the waiting happens.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "analyses/wait_states.hpp"
#include "common/call_tree.hpp"
#include "replay/local_trace.hpp"

namespace hindsight {

class SyncIntervals {
public:
    SyncIntervals() = default;
    explicit SyncIntervals(const replay::LocalTrace& trace);

    // The events [first, last) whose following gaps make up the interval
    // that ends at communication event `view`.
    struct Range {
        replay::EventIndex first = 0;
        replay::EventIndex last = 0;
    };
    Range range(const replay::EventView& view) const;

private:
    std::vector<replay::EventIndex> message_begin_;     // by message index
    std::vector<replay::EventIndex> collective_begin_;  // by collective index
};

// A rank's processing time by call path over one interval: sorted by call
// path, only call paths with time.
struct SparseProfile {
    std::vector<CallPathId> paths;
    std::vector<double> values;  // ticks
};

// What one interval holds on this rank.
struct IntervalProfile {
    // Wait states are those with delay costs (has_delay_costs): the others
    // are processing time of their call path.
    SparseProfile processing;  // time in each call path minus its waiting time
    double waiting = 0;        // total waiting time of the rank's wait states
    std::vector<std::pair<replay::EventIndex, double>> waits;  // each wait state and its length
};

// Computes interval profiles, reusing one dense buffer.
class IntervalScanner {
public:
    explicit IntervalScanner(std::size_t call_paths = 0) : dense_(call_paths, 0.0) {}

    IntervalProfile scan(const replay::LocalTrace& trace, const WaitStateMap& waits,
                         SyncIntervals::Range range);

private:
    void add(CallPathId cnode, double ticks);

    std::vector<double> dense_;
    std::vector<CallPathId> touched_;
};

}  // namespace hindsight
