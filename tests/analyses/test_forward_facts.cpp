// The facts the forward observers leave for the later analyses: which rank
// waited at which event, how long, and for whom.
#include <catch2/catch.hpp>

#include <array>
#include <utility>
#include <vector>

#include "analyses/wait_states/collective_wait_states.hpp"
#include "analyses/wait_states/point_to_point_wait_states.hpp"
#include "common/error.hpp"
#include "tests/analyses/builder_traces.hpp"
#include "tests/analyses/in_process_replay.hpp"

using namespace hindsight;
using namespace hindsight::analyses;
using namespace hindsight::testing;

namespace {

// Runs the wait-state observers (a forward pass, whose notes hand the
// senders their Late Receiver waits) on every rank and returns each rank's
// finished facts.
struct Annotated {
    std::vector<trace::LocalTrace> traces;
    std::vector<ForwardFacts> facts;

    explicit Annotated(const TraceBuilder& builder) : traces(local_traces(builder)) {
        facts.resize(traces.size());
        InProcessReplay replay(traces);
        replay.run_ranks([&](int r) {
            const auto i = static_cast<std::size_t>(r);
            LocalCube cube(traces[i].call_tree.size());
            ForwardFactsBuilder built;
            PointToPointWaitStates p2p(cube, built);
            CollectiveWaitStates coll(cube, built);
            const std::array<replay::ReplayObserver*, 2> forward{&p2p, &coll};
            replay.engine(r).run("forward pass", forward);
            facts[i] = std::move(built).finish();
        });
    }

    // The wait state at rank r's n-th event of `kind`.
    const WaitState* at(int r, trace::EventKind kind, int n = 0) const {
        const auto& trace = traces.at(static_cast<std::size_t>(r));
        for (trace::EventIndex i = 0; i < trace.events.size(); ++i)
            if (trace.events[i].kind == kind && n-- == 0)
                return facts[static_cast<std::size_t>(r)].wait_states().find(i);
        return nullptr;
    }
};

// Rank 0's send carries the Late Receiver wait that rank 1 caused.
void check_late_receiver_at_sender(const Annotated& a, Ticks waiting) {
    const WaitState* send = a.at(0, trace::EventKind::Send);
    REQUIRE(send);
    CHECK(send->pattern == WaitPattern::LateReceiver);
    CHECK(send->waiting == waiting);
    CHECK(send->cause == 1);
}

}  // namespace

TEST_CASE("annotations: Late Sender at the receive, zero waits elsewhere", "[annotations]") {
    TraceBuilder t(2);
    t.rank(0).enter(0, "main").send(50, 60, 1, 7, 8).send(70, 72, 1, 8, 8).leave(100);
    t.rank(1).enter(0, "main").recv(20, 65, 0, 7, 8).recv(80, 85, 0, 8, 8).leave(100);
    const Annotated a(t);
    const WaitState* late = a.at(1, trace::EventKind::Recv, 0);
    REQUIRE(late);
    CHECK(late->pattern == WaitPattern::LateSender);
    CHECK(late->waiting == 50 - 20);
    CHECK(late->cause == 0);
    const WaitState* in_time = a.at(1, trace::EventKind::Recv, 1);
    REQUIRE(in_time);
    CHECK(in_time->pattern == WaitPattern::None);
    CHECK(in_time->waiting == 0);
    CHECK(in_time->cause == 0);
    // The sends waited for nobody (filled in by the backward delivery).
    const WaitState* send = a.at(0, trace::EventKind::Send, 0);
    REQUIRE(send);
    CHECK(send->pattern == WaitPattern::None);
    CHECK(send->cause == 1);
}

TEST_CASE("annotations: Late Receiver on both sides", "[annotations]") {
    TraceBuilder t(2);
    t.rank(0).enter(0, "main").send(10, 60, 1, 7, 8).leave(100);
    t.rank(1).enter(0, "main").recv(40, 62, 0, 7, 8).leave(100);
    const Annotated a(t);
    // The receiver knows after the forward pass what it caused ...
    const auto& caused = a.facts[1].late_receivers_caused();
    REQUIRE(caused.size() == 1);
    CHECK(caused.begin()->second == 40 - 10);
    // ... and the sender from its note, after the forward pass, what it suffered.
    check_late_receiver_at_sender(a, 40 - 10);
}

TEST_CASE("annotations: Late Receiver of a receive posted by MPI_Irecv", "[annotations]") {
    TraceBuilder t(2);
    // The send runs 10..60, the receive is posted at 40 and completes in an
    // MPI_Wait at 75.
    t.rank(0).enter(0, "main").send(10, 60, 1, 7, 8).leave(100);
    const auto req = t.rank(1).enter(0, "main").irecv(40, 41, 0, 7, 8);
    t.rank(1).wait(70, 75, req).leave(100);
    const Annotated a(t);
    // Kept at the receive's Recv event, inside the MPI_Wait.
    const auto& trace = a.traces[1];
    trace::EventIndex recv = trace::kNoEvent;
    for (trace::EventIndex i = 0; i < trace.events.size(); ++i)
        if (trace.events[i].kind == trace::EventKind::Recv) recv = i;
    REQUIRE(recv != trace::kNoEvent);
    CHECK(trace.region_of(trace.events[recv].cnode).name == "MPI_Wait");
    const auto& caused = a.facts[1].late_receivers_caused();
    REQUIRE(caused.size() == 1);
    CHECK(caused.begin()->first == recv);
    CHECK(caused.begin()->second == 40 - 10);
    check_late_receiver_at_sender(a, 40 - 10);
}

TEST_CASE("annotations: no Late Receiver at MPI_Sendrecv", "[annotations]") {
    TraceBuilder t(2);
    t.rank(0).enter(0, "main").sendrecv(10, 50, 1, 1, 8, 1, 2, 8).leave(100);
    t.rank(1).enter(0, "main").sendrecv(30, 52, 0, 2, 8, 0, 1, 8).leave(100);
    const Annotated a(t);
    CHECK(a.facts[1].late_receivers_caused().empty());
    const WaitState* send = a.at(0, trace::EventKind::Send);
    REQUIRE(send);
    CHECK(send->pattern == WaitPattern::None);
    CHECK(send->waiting == 0);
}

TEST_CASE("annotations: collectives name the rank everyone waited for", "[annotations]") {
    TraceBuilder t(3);
    const Ticks enter[] = {10, 40, 20};
    for (int k = 0; k < 3; ++k) t.rank(k).enter(0, "main").barrier(enter[k], 50).bcast(60 + k, 70, 2, 8).leave(100);
    const Annotated a(t);
    for (int k = 0; k < 3; ++k) {
        const WaitState* barrier = a.at(k, trace::EventKind::CollectiveEnd, 0);
        REQUIRE(barrier);
        CHECK(barrier->pattern == WaitPattern::Barrier);
        CHECK(barrier->cause == 1);  // the last to enter (40)
        CHECK(barrier->waiting == 40 - enter[k]);
    }
    // Bcast from rank 2 (entered 62): ranks 0 and 1 waited for it.
    for (int k = 0; k < 3; ++k) {
        const WaitState* bcast = a.at(k, trace::EventKind::CollectiveEnd, 1);
        REQUIRE(bcast);
        CHECK(bcast->pattern == WaitPattern::LateBroadcast);
        CHECK(bcast->cause == 2);
        CHECK(bcast->waiting == 62 - (60 + k));
    }
}

TEST_CASE("a scan waits for the last of the lower ranks, the lowest of equals", "[points]") {
    // Enters 30, 30, 20, 40, 10. Rank 2 waited for the entries at 30, which
    // rank 0 made first; rank 4 for rank 3 (40), which is no concern of the
    // ranks below 3. Ranks 0, 1 and 3 entered with the last of their prefix.
    TraceBuilder t(5);
    const Ticks enter[] = {30, 30, 20, 40, 10};
    for (int k = 0; k < 5; ++k) t.rank(k).enter(0, "main").scan(enter[k], 50, 8).leave(100);
    const Annotated a(t);
    for (const int k : {0, 1, 3}) {
        const WaitState* scan = a.at(k, trace::EventKind::CollectiveEnd);
        CHECK((!scan || scan->waiting == 0));
    }
    const std::array<std::pair<int, int>, 2> waiting_for{{{2, 0}, {4, 3}}};
    for (const auto& [k, cause] : waiting_for) {
        const WaitState* scan = a.at(k, trace::EventKind::CollectiveEnd);
        REQUIRE(scan);
        CHECK(scan->pattern == WaitPattern::EarlyScan);
        CHECK(scan->cause == cause);
        CHECK(scan->waiting == enter[cause] - enter[k]);
    }
}

TEST_CASE("the wait-state map keeps one wait state per communication event, the last record winning",
          "[points]") {
    TraceBuilder t(2);
    t.rank(0).enter(0, "main").send(10, 20, 1, 7, 8).barrier(30, 40).send(50, 60, 1, 7, 8).leave(100);
    t.rank(1).enter(0, "main").recv(5, 25, 0, 7, 8).barrier(35, 40).recv(45, 65, 0, 7, 8).leave(100);
    const std::vector<trace::LocalTrace> traces = local_traces(t);
    const trace::LocalTrace& trace = traces[0];
    std::vector<trace::EventIndex> communication, other;
    for (trace::EventIndex i = 0; i < trace.events.size(); ++i) {
        const trace::EventKind kind = trace.events[i].kind;
        const bool communicates = kind == trace::EventKind::Send || kind == trace::EventKind::Recv ||
                                  kind == trace::EventKind::CollectiveEnd;
        (communicates ? communication : other).push_back(i);
    }
    REQUIRE(communication.size() == 3);  // two sends and the barrier

    WaitStateMap map;
    CHECK(map.find(communication[0]) == nullptr);  // not bound yet
    map.bind(trace);
    map.record(communication[0], {WaitPattern::LateReceiver, 4, 1});
    map.record(communication[1], {WaitPattern::Barrier, 5, 1});
    map.record(communication[0], {WaitPattern::None, 0, 1});  // replaces
    map.bind(trace);                                          // the same trace: kept
    const WaitState* first = map.find(communication[0]);
    REQUIRE(first != nullptr);
    CHECK((first->pattern == WaitPattern::None && first->waiting == 0 && first->cause == 1));
    const WaitState* barrier = map.find(communication[1]);
    REQUIRE(barrier != nullptr);
    CHECK((barrier->pattern == WaitPattern::Barrier && barrier->waiting == 5));
    CHECK(map.find(communication[2]) == nullptr);
    for (const trace::EventIndex i : other) CHECK(map.find(i) == nullptr);
    CHECK(map.find(static_cast<trace::EventIndex>(trace.events.size())) == nullptr);
    CHECK_THROWS_AS(map.record(other.front(), {}), Error);
}

TEST_CASE("the finished facts hold what the forward pass's observers put into the builder", "[points]") {
    TraceBuilder t(2);
    t.rank(0).enter(0, "main").send(10, 20, 1, 7, 8).barrier(30, 40).leave(100);
    t.rank(1).enter(0, "main").recv(5, 25, 0, 7, 8).barrier(35, 40).leave(100);
    const std::vector<trace::LocalTrace> traces = local_traces(t);
    const trace::LocalTrace& trace = traces[0];
    trace::EventIndex send = trace::kNoEvent, barrier = trace::kNoEvent;
    for (trace::EventIndex i = 0; i < trace.events.size(); ++i) {
        if (trace.events[i].kind == trace::EventKind::Send) send = i;
        if (trace.events[i].kind == trace::EventKind::CollectiveEnd) barrier = i;
    }
    REQUIRE((send != trace::kNoEvent && barrier != trace::kNoEvent));

    ForwardFactsBuilder builder;
    builder.bind(trace);
    builder.record_wait(send, {WaitPattern::LateReceiver, 6, 1, true, 0});
    builder.caused_late_receiver(barrier, 3);  // any event index: the builder does not judge
    builder.late_receiver_posted_apart(send);
    builder.partial_group(barrier) = {0, 1};
    builder.point_to_point_clock_violation();
    builder.collective_clock_violation();
    builder.collective_clock_violation();
    builder.offer_longest_wait({WaitPattern::LateReceiver, 2, 10, 6});
    const ForwardFacts facts = std::move(builder).finish();

    const WaitState* wait = facts.wait_states().find(send);
    REQUIRE(wait != nullptr);
    CHECK((wait->pattern == WaitPattern::LateReceiver && wait->waiting == 6 && wait->cause == 1));
    CHECK(facts.wait_states().find(barrier) == nullptr);
    CHECK(facts.late_receivers_caused().at(barrier) == 3);
    CHECK(facts.late_receivers_posted_apart().contains(send));
    CHECK(facts.partial_groups().at(barrier) == std::vector<int>{0, 1});
    CHECK(facts.clock_violations().point_to_point == 1);
    CHECK(facts.clock_violations().collective == 2);
    const std::vector<WaitInstance> longest = facts.longest_waits().kept();
    REQUIRE(longest.size() == 1);
    CHECK((longest[0].cnode == 2 && longest[0].waiting == 6));
}
