// The program activity graph of the run (the "mpi-graph" view) and its
// longest path, computed the way the trace is stored: distributed.
//
// Vertices are a rank's events; edges are the time between a rank's
// consecutive events (its activities) and the synchronizations of the
// recorded communication: a receive depends on its send having begun, a
// send that waited for its receiver (Late Receiver) on the receive having
// been posted, a collective on its members having begun (as the operation's
// shape says: everybody for barriers and n-to-n operations, the root for
// 1-to-n, the senders for the root of n-to-1, the lower ranks for scans).
// Waiting is no edge: where a rank waited, the wait is cut out and the
// rank's progress is the latest of its own and the awaited rank's.
// Non-blocking collectives join nothing yet, and a receive whose message a
// blocking probe or a polling loop waited for joins only where the receive
// took it: a wait where such a collective completes, or in such a probe or
// polling loop, stays the rank's own activity, so what-if scenarios do not
// move it.
//
// One forward replay computes, for every vertex, the length of the longest
// path reaching it: each rank walks its own events in order, adds its
// activities' times, and takes the awaited rank's length from the replay's
// payloads (messages, replies, collective reductions). That is a
// topological-order traversal in parallel: a vertex is finished when the
// replay reaches it, and no rank ever holds more than its own vertices.
// Lengths are predicted times: on the run as recorded they equal the
// recorded timestamps, so the longest path ends at the last entry into
// MPI_Finalize, as the critical path of the backward replay does
// (critical_path.hpp).
//
// Where the awaited rank's length won, the rank keeps a record (a "hop": at
// which event, to which rank and vertex). After the pass, follow_path()
// finds the path in rounds of bulk exchanges: the hops are the nodes of a
// chain from the path's end back to its start (a hop's successor is the
// last hop of the awaited rank before the awaited vertex), which
// replay/chain_marking.hpp marks in a few rounds however long it is; then
// each rank adds up its own stretches of the path per call path, one sum
// giving the path's profile.
//
// What-if scenarios (what_if.hpp) travel in the same pass: every length is a
// vector, one entry for the run as recorded, one per scenario. A scenario
// changes the times of activities; waits are computed anew, the time a call
// spent after its wait (transfer, completion) is kept. The automatic
// suggestions are scenarios too: at the first collective on MPI_COMM_WORLD
// the ranks pick the call paths whose own time is most imbalanced over the
// ranks and balance each of them.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "analyses/forward_facts.hpp"
#include "analyses/graph/what_if.hpp"
#include "replay/exchange.hpp"
#include "replay/observer.hpp"

namespace hindsight::analyses {

struct GraphOptions {
    bool enabled = false;
    std::vector<WhatIf> what_ifs;
    // How many automatic suggestions to report (0: none), out of how many
    // candidate call paths evaluated.
    std::size_t suggestions = 0;
    std::size_t candidates = 5;
};

struct GraphScenario {
    std::string label;
    double length_seconds = 0;  // of the longest path: the (predicted) run time
    // Seconds per call path on the longest path, largest first, zeros left out.
    std::vector<std::pair<CallPathId, double>> path;
};

// The same on every rank after the pass.
struct GraphFindings {
    bool computed = false;  // false where the trace has no collective on MPI_COMM_WORLD
    GraphScenario recorded;
    std::vector<double> recorded_profile;  // seconds by call path, on the path as recorded
    std::vector<GraphScenario> what_ifs;     // in the order given
    std::vector<GraphScenario> suggestions;  // largest gain first
    // Cost of the distributed computation.
    std::uint64_t walk_rounds = 0;   // exchange rounds to follow the path back
    std::uint64_t hops = 0;          // hop records, all ranks and scenarios
    std::uint64_t max_state_bytes = 0;  // the most any rank held for the graph
    double walk_seconds = 0;            // this rank's time following the path back
};

class ActivityGraph final : public replay::ReplayObserver {
public:
    // `imbalance`: this rank's critical-path imbalance by call path, in
    // seconds, where the backward pass ran (else empty); it helps to pick the
    // suggestions, since imbalance that moves from rank to rank leaves every
    // rank's own time alike.
    ActivityGraph(const ForwardFacts& facts, const GraphOptions& options, GraphFindings& findings,
                  std::vector<double> imbalance = {})
        : facts_(&facts), options_(&options), findings_(&findings), imbalance_(std::move(imbalance)) {}

    void begin_pass(const trace::LocalTrace& trace) override;
    replay::Participation participation() const override {
        return {.enters = true,
                .leaves = true,
                .payloads = replay::Payloads::FromPass,
                .replies = true,
                .collectives = true};
    }
    void on_enter(const trace::EventView& view) override;
    void on_leave(const trace::EventView& view) override;
    void pack(const trace::EventView& view, replay::PayloadWriter& out) override;
    void unpack(const trace::EventView& view, replay::PayloadReader& in) override;
    bool needs_reply(const trace::EventView& view) const override;
    void pack_reply(const trace::EventView& view, replay::PayloadWriter& out) override;
    void unpack_reply(const trace::EventView& view, replay::PayloadReader& in) override;
    replay::CollectiveTask on_collective(const trace::EventView& view,
                                         replay::CollectiveChannel& exchange) override;

    // After the pass, collective over all ranks (ReplayEngine::run_rounds):
    // the longest path of every scenario, back from its end, and the
    // findings. Does nothing where the trace has no collective on
    // MPI_COMM_WORLD (alike on every rank).
    void follow_path(replay::Exchange& exchange);

    // One what-if on this rank: which call paths it changes and by how much.
    struct Scenario {
        std::string label;
        std::vector<bool> scope;  // empty: the run as recorded
        int rank = -1;
        bool balance = false;
        double scale = 1.0;
        CallPathId root = kNoCallPath;
        // balance: the Enters of the root's visits on this rank and the
        // factor of each visit's time (its share of the average over its time).
        std::vector<trace::EventIndex> visit_enters;
        std::vector<double> visit_factors;
    };
    // Where the path came from another rank: at event `at` (a receive, the
    // Leave of a send, a collective) the awaited rank's length won.
    struct Hop {
        trace::EventIndex at = trace::kNoEvent;
        trace::EventIndex call_enter = trace::kNoEvent;  // of the call holding `at`
        Ticks wait_end = 0;  // where the path continues on this rank
        int to = -1;         // world rank of the awaited rank
        std::int64_t comm = -1;  // collective: its communicator; -1: point to point
        std::uint64_t key = 0;   // the awaited vertex: its Enter (point to point), or the collective's ordinal
    };

private:
    using Lengths = std::vector<double>;

    void advance(const trace::EventView& view);
    double factor(std::size_t s, trace::EventIndex k, CallPathId c) const;
    // Recorded time in [from, to] without the rank's waits.
    Ticks unwaited(Ticks from, Ticks to) const;
    // The waiting this rank did at communication event `k` (0 if none).
    Ticks waiting_at(trace::EventIndex k) const;
    // Takes `remote` + the time after the wait where it is longer, and
    // keeps a hop for each scenario where it is.
    replay::CollectiveTask take_from_sources(const trace::EventView& view, replay::CollectiveChannel& exchange,
                                             Lengths& remote, std::vector<int>& owners);
    void join(const Lengths& remote, const Lengths& after, const Hop& hop, const std::vector<int>& owners);
    Lengths after_wait(trace::EventIndex call_enter, Ticks wait_end, Ticks event_time) const;
    replay::CollectiveTask synchronize(const trace::EventView& view, replay::CollectiveChannel& exchange);
    replay::CollectiveTask choose_scenarios(replay::CollectiveChannel& exchange);
    // follow_path(): the chain's nodes on this rank are, per scenario s
    // from `base[s]` on, the start of the path and then hops_[s]; the node
    // the path takes on arriving at `vertex`, the last hop before it or the
    // start.
    std::uint32_t node_before(const std::vector<std::uint32_t>& base, std::size_t s, trace::EventIndex vertex) const;
    // A hop's awaited vertex on this rank: the event (comm < 0), or the
    // collective's event by its ordinal on communicator `comm`.
    trace::EventIndex vertex_of(std::int64_t comm, std::uint64_t key) const;
    void report_path(const std::vector<double>& end, const std::vector<double>& origin,
                     const std::vector<double>& profile);
    void add_stretch(std::size_t s, trace::EventIndex lo, Ticks from, trace::EventIndex hi, Ticks to,
                     std::vector<double>& profile) const;
    void record_visits(Scenario& scenario) const;
    void balance_visits(Scenario& scenario, double average);
    Ticks collective_begin(trace::EventIndex k) const;

    const ForwardFacts* facts_;
    const GraphOptions* options_;
    GraphFindings* findings_;
    const trace::LocalTrace* trace_ = nullptr;

    std::vector<Scenario> scenarios_;
    std::size_t user_scenarios_ = 0;
    // The Enter and the CollectiveEnd events of the first and the last
    // collective on MPI_COMM_WORLD: where the path begins and ends.
    trace::EventIndex first_world_enter_ = trace::kNoEvent;
    trace::EventIndex first_world_collective_ = trace::kNoEvent;
    trace::EventIndex last_world_enter_ = trace::kNoEvent;
    trace::EventIndex last_world_collective_ = trace::kNoEvent;
    bool active_ = false;
    bool done_ = false;
    bool factors_ready_ = false;
    trace::EventIndex last_ = trace::kNoEvent;  // last event accounted for
    Lengths now_;        // longest path to the last event, by scenario
    Lengths at_enter_;   // ... to the Enter of the innermost call
    trace::EventIndex enter_index_ = trace::kNoEvent;
    Lengths at_end_;     // ... to the end vertex
    // Lengths at the Enters of calls that posted receives a sender waited for.
    std::vector<std::pair<trace::EventIndex, Lengths>> at_posting_;
    // Late Receiver sends: the result of the reply, applied at the Leave.
    struct Pending {
        trace::EventIndex leave = trace::kNoEvent;
        Lengths remote;
        Lengths after;
        Hop hop;
    };
    std::vector<Pending> pending_;
    std::vector<std::pair<Ticks, Ticks>> waits_;  // this rank's waits, sorted
    std::vector<std::vector<trace::EventIndex>> collectives_;  // CollectiveEnd events by communicator
    std::vector<std::uint64_t> ordinal_;  // collectives seen so far, by communicator
    std::vector<std::vector<Hop>> hops_;  // by scenario
    std::vector<double> imbalance_;
};

}  // namespace hindsight::analyses
