// An MPI_Sendrecv exchange (sendrecv_exchange.hpp): its receive part can
// wait for a late sender, its send part never waits for a receiver; all
// passes compute the hand-derived values of the scenario.
#include <catch2/catch.hpp>

#include "tests/analyses/backward/backward_helpers.hpp"
#include "tests/analyses/backward/sendrecv_exchange.hpp"

using namespace hindsight;
using namespace hindsight::analyses;
using namespace hindsight::testing;

namespace {
constexpr const char* kSendrecv = "main/MPI_Sendrecv";
}

TEST_CASE("Sendrecv exchange: forward wait states", "[sendrecv]") {
    const AnalysisResults r(sendrecv_exchange_trace(), kAllAnalyses);
    CHECK(r.with_children(Metric::MpiLateSender, 1, kSendrecv) == Approx(2.0));
    CHECK(all_ranks(r, Metric::MpiLateReceiver, 2) == 0.0);
    CHECK(subtree_total(r, Metric::MpiLateSender, 0) == 0.0);
    CHECK(r.with_children(Metric::MpiFinalizeWait, 1, "main/MPI_Finalize") == Approx(1.0));
}

TEST_CASE("Sendrecv exchange: critical path", "[sendrecv]") {
    const AnalysisResults r(sendrecv_exchange_trace(), kAllAnalyses);
    CHECK(all_ranks(r, Metric::CriticalPath, 2) == Approx(6.0));
    CHECK(subtree_total(r, Metric::CriticalPath, 1) == 0.0);
    CHECK(r.with_children(Metric::CriticalPath, 0, "main/MPI_Init") == Approx(1.0));
    CHECK(r.with_children(Metric::CriticalPath, 0, "main/f") == Approx(3.0));
    CHECK(r.with_children(Metric::CriticalPath, 0, kSendrecv) == Approx(2.0));
}

TEST_CASE("Sendrecv exchange: delay costs", "[sendrecv]") {
    const AnalysisResults r(sendrecv_exchange_trace(), kAllAnalyses);
    CHECK(r.with_children(Metric::DelayLateSender, 0, "main/f") == Approx(2.0));
    CHECK(r.with_children(Metric::DelayLateSenderLongterm, 0, "main/f") == 0.0);
    CHECK(all_ranks(r, Metric::Delay, 2) == Approx(2.0));
    // Rank 1's wait: direct and terminal.
    CHECK(r.with_children(Metric::MpiWaitDirectLatesender, 1, kSendrecv) == Approx(2.0));
    CHECK(all_ranks(r, Metric::MpiWaitIndirect, 2) == 0.0);
    CHECK(r.with_children(Metric::MpiWaitTerminalLs, 1, kSendrecv) == Approx(2.0));
    CHECK(all_ranks(r, Metric::MpiWaitPropagating, 2) == 0.0);
}
