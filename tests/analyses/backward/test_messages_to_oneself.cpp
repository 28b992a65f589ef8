// Messages a rank sends to itself (messages_to_oneself.hpp): every pass
// computes the hand-derived values of the scenario, as if those messages
// were computation in MPI calls.
#include <catch2/catch.hpp>

#include "analyses/graph/what_if.hpp"
#include "tests/analyses/backward/backward_helpers.hpp"
#include "tests/analyses/backward/messages_to_oneself.hpp"

using namespace hindsight;
using namespace hindsight::analyses;
using namespace hindsight::testing;

TEST_CASE("messages to oneself: no wait state of their own", "[self]") {
    const AnalysisResults r(messages_to_oneself_trace(), kAllAnalyses);
    CHECK(all_ranks(r, Metric::MpiLateSender, 2) == Approx(ns(80 - 30)));
    CHECK(r.own(Metric::MpiLateSender, 1, "main/MPI_Recv") == Approx(ns(80 - 30)));
    CHECK(all_ranks(r, Metric::MpiLateReceiver, 2) == 0.0);
    CHECK(r.own(Metric::CommsSend, 0, "main/MPI_Sendrecv") == 1.0);
    CHECK(r.own(Metric::CommsRecv, 0, "main/MPI_Sendrecv") == 1.0);
    CHECK(r.own(Metric::BytesSent, 1, "main/MPI_Isend") == 32.0);
}

TEST_CASE("messages to oneself: delay costs and critical path", "[self][delay][critical-path]") {
    const AnalysisResults r(messages_to_oneself_trace(), kAllAnalyses);
    CHECK(r.own(Metric::DelayLateSender, 0, "main/work") == Approx(ns(50) * 55.0 / 60.0));
    CHECK(r.own(Metric::DelayLateSender, 0, "main/MPI_Sendrecv") == Approx(ns(50) * 5.0 / 60.0));
    CHECK(subtree_total(r, Metric::Delay, 1) == 0.0);
    CHECK(all_ranks(r, Metric::CriticalPath, 2) == Approx(ns(100)));
    CHECK(r.with_children(Metric::CriticalPath, 0, "main/work") == Approx(ns(55)));
    CHECK(r.with_children(Metric::CriticalPath, 0, "main/MPI_Sendrecv") == Approx(ns(5)));
}

TEST_CASE("messages to oneself: the activity graph", "[self][activity-graph][what-if]") {
    GraphOptions graph;
    graph.enabled = true;
    graph.what_ifs.push_back(parse_what_if("callpath=main/work,rank=0,scale=0"));
    const AnalysisResults r(messages_to_oneself_trace(), kAllAnalyses, graph);
    const GraphFindings& g = r.findings(0).graph;
    REQUIRE(g.computed);
    CHECK(g.recorded.length_seconds == Approx(ns(100)));
    // Without work, rank 0 sends at 25, before rank 1's receive (30), which
    // then takes only its 10 after the wait (30..40), and rank 1 enters
    // MPI_Finalize 10 later, at 50; rank 0 at 25 + 5 + 15 = 45.
    REQUIRE(g.what_ifs.size() == 1);
    CHECK(g.what_ifs[0].length_seconds == Approx(ns(50)));
}
