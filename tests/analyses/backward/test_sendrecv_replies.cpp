// Replies asked for inside an MPI_Sendrecv: the backward replay completes
// them lazily, and all passes compute the hand-derived values of
// sendrecv_exchange.hpp (a replay that waited for the replies at the
// receives would never finish).
#include <catch2/catch.hpp>

#include "tests/analyses/backward/backward_helpers.hpp"
#include "tests/analyses/backward/sendrecv_exchange.hpp"

using namespace hindsight;
using namespace hindsight::testing;

namespace {
constexpr const char* kSendrecv = "main/MPI_Sendrecv";
}

TEST_CASE("Sendrecv with a Late Sender and a Late Receiver: forward wait states", "[replies]") {
    const AnalysisResults r(sendrecv_exchange_trace(), kAllAnalyses);
    CHECK(r.with_children(Metric::MpiLateSender, 1, kSendrecv) == Approx(2.0));
    CHECK(r.with_children(Metric::MpiLateReceiver, 1, kSendrecv) == Approx(2.0));
    CHECK(subtree_total(r, Metric::MpiLateSender, 0) == 0.0);
    CHECK(subtree_total(r, Metric::MpiLateReceiver, 0) == 0.0);
    CHECK(r.with_children(Metric::MpiFinalizeWait, 1, "main/MPI_Finalize") == Approx(1.0));
}

TEST_CASE("Sendrecv with a Late Sender and a Late Receiver: critical path", "[replies]") {
    const AnalysisResults r(sendrecv_exchange_trace(), kAllAnalyses);
    CHECK(all_ranks(r, Metric::CriticalPath, 2) == Approx(6.0));
    CHECK(subtree_total(r, Metric::CriticalPath, 1) == 0.0);
    CHECK(r.with_children(Metric::CriticalPath, 0, "main/MPI_Init") == Approx(1.0));
    CHECK(r.with_children(Metric::CriticalPath, 0, "main/f") == Approx(3.0));
    CHECK(r.with_children(Metric::CriticalPath, 0, kSendrecv) == Approx(2.0));
}

TEST_CASE("Sendrecv with a Late Sender and a Late Receiver: delay costs", "[replies]") {
    const AnalysisResults r(sendrecv_exchange_trace(), kAllAnalyses);
    // Late Sender: all on f of rank 0; Late Receiver: unexplained, on rank
    // 0's Sendrecv.
    CHECK(r.with_children(Metric::DelayLateSender, 0, "main/f") == Approx(2.0));
    CHECK(r.with_children(Metric::DelayLateSenderLongterm, 0, "main/f") == 0.0);
    CHECK(r.with_children(Metric::DelayLateReceiver, 0, kSendrecv) == Approx(2.0));
    CHECK(all_ranks(r, Metric::Delay, 2) == Approx(4.0));
    // Rank 1's waits: direct and terminal.
    CHECK(r.with_children(Metric::MpiWaitDirectLatesender, 1, kSendrecv) == Approx(2.0));
    CHECK(r.with_children(Metric::MpiWaitDirectLatereceiver, 1, kSendrecv) == Approx(2.0));
    CHECK(all_ranks(r, Metric::MpiWaitIndirect, 2) == 0.0);
    CHECK(r.with_children(Metric::MpiWaitTerminalLs, 1, kSendrecv) == Approx(2.0));
    CHECK(r.with_children(Metric::MpiWaitTerminalLr, 1, kSendrecv) == Approx(2.0));
    CHECK(all_ranks(r, Metric::MpiWaitPropagating, 2) == 0.0);
}
