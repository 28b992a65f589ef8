// Per-call statistics of collective operations (the "mpi-graph" tool's view
// of a collective): for each call and rank, how long the rank waited for the
// others before the operation could run (wait-before: until the last member
// entered), how long it stayed after the first member had finished
// (wait-after), and what is left, the operation's own execution. Summed per
// call path and rank into the metrics coll_wait_before, coll_execution and
// coll_wait_after; the summary turns them into imbalance ratios
// (wait-before + wait-after) / execution.
//
// Times are measured from the operation's begin (or the call's entry where
// the trace has none), as the wait states are, and the three parts add up to
// the time from there to the operation's end (for a non-blocking operation
// from the entry into the call that completes it, the members' begins being
// their starts):
//   wait-before = min(last begin, end) − begin
//   execution   = max(0, first end − last begin)
//   wait-after  = end − max(first end, last begin), at least 0
// (the last begin and the first end over the communicator's members). For
// an operation that some member left before the last one began (no
// implicit barrier) execution is 0 and the time after the last begin counts
// as wait-after for the ranks still inside.
//
// Every collective with more than one member counts, MPI_Init and
// MPI_Finalize included; unlike the wait states, the statistics do not ask
// which members exchanged data, so all-to-all-v operations count too.
#pragma once

#include "analyses/local_cube.hpp"
#include "replay/observer.hpp"

namespace hindsight::analyses {

class CollectiveStatistics final : public replay::ReplayObserver {
public:
    explicit CollectiveStatistics(LocalCube& cube) : cube_(&cube) {}

    replay::Participation participation() const override { return {.collectives = true}; }
    replay::CollectiveTask on_collective(const trace::EventView& view,
                                         replay::CollectiveChannel& exchange) override;

private:
    LocalCube* cube_;
};

// One rank's parts of one collective call, in ticks.
struct CollectiveCallParts {
    Ticks wait_before = 0;
    Ticks execution = 0;
    Ticks wait_after = 0;
};

// The parts of a call that began at `begin` and ended at `end`, where the
// last member began at `last_begin` and the first ended at `first_end`.
CollectiveCallParts collective_call_parts(Ticks begin, Ticks end, Ticks last_begin, Ticks first_end);

}  // namespace hindsight::analyses
