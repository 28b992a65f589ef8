// One-sided communication in the profile: the time of RMA calls split as
// Scalasca's tree splits it (window management, active and passive target
// synchronization, communication), the synchronization calls and
// transfers counted, the bytes put and got. Scenarios in ticks of 1 ns.
#include <catch2/catch.hpp>

#include "common/rma_calls.hpp"
#include "tests/analyses/analysis_harness.hpp"

using namespace hindsight;
using namespace hindsight::analyses;
using namespace hindsight::testing;

namespace {

// Two ranks, one window on MPI_COMM_WORLD. Both:
//   MPI_Win_create 0..10, MPI_Win_fence 10..20, ..., MPI_Win_fence 40..50,
//   MPI_Win_lock 50..52, MPI_Win_unlock 55..60 (rank 1 only),
//   MPI_Win_free 60..70, main 0..100.
// Rank 0 in the fence epoch: MPI_Put 20..22 of 400 bytes to rank 1,
// MPI_Get 22..25 of 24 bytes from rank 1, MPI_Accumulate 25..26 (written as
// a put of 8 bytes, as a builder put stands for any call that sends).
// Rank 1 in its lock epoch on rank 0: MPI_Put 52..55 of 16 bytes.
TraceBuilder fence_and_lock() {
    TraceBuilder t(2);
    const RmaWindow win = t.window(t.world());
    for (int r = 0; r < 2; ++r) {
        auto& rank = t.rank(r).enter(0, "main").win_create(0, 10, win).win_fence(10, 20, win);
        if (r == 0) rank.put(20, 22, win, 1, 400).get(22, 25, win, 1, 24).put(25, 26, win, 1, 8, "MPI_Accumulate");
        rank.win_fence(40, 50, win);
        if (r == 1) rank.win_lock(50, 52, win, 0, true).put(52, 55, win, 0, 16).win_unlock(55, 60, win, 0);
        rank.win_free(60, 70, win).leave(100);
    }
    return t;
}

}  // namespace

TEST_CASE("RMA profile: time by what the calls do", "[profile][rma]") {
    const AnalysisResults r(fence_and_lock());
    // Window management: create and free, 10 each.
    CHECK(r.total(Metric::MpiMgmtWin, 0) == Approx(ns(10 + 10)));
    CHECK(r.own(Metric::MpiMgmtWin, 1, "main/MPI_Win_free") == Approx(ns(10)));
    // Active target synchronization: the two fences, 10 each (what of it is
    // waiting the wait states below it take).
    CHECK(r.with_children(Metric::MpiRmaSyncActive, 0, "main/MPI_Win_fence") == Approx(ns(10 + 10)));
    // Passive target: rank 1's lock 2 and unlock 5.
    CHECK(r.total(Metric::MpiRmaSyncPassive, 1) == Approx(ns(2 + 5)));
    CHECK(r.total(Metric::MpiRmaSyncPassive, 0) == 0.0);
    // Communication: rank 0's put 2, get 3, accumulate 1; rank 1's put 3.
    CHECK(r.total(Metric::MpiRmaCommunication, 0) == Approx(ns(2 + 3 + 1)));
    CHECK(r.total(Metric::MpiRmaCommunication, 1) == Approx(ns(3)));
    // None of it is left in MPI's own share or taken for a barrier.
    CHECK(r.total(Metric::Mpi, 0) == 0.0);
    CHECK(r.total(Metric::MpiSyncCollective, 0) == 0.0);
    CHECK(r.total(Metric::MpiRmaSynchronization, 0) == 0.0);
}

TEST_CASE("RMA profile: synchronization calls, transfers and their bytes", "[profile][rma]") {
    const AnalysisResults r(fence_and_lock());
    // Synchronization calls: two fences per rank; rank 1's lock and unlock.
    CHECK(r.total(Metric::SyncsRmaActive, 0) == 2.0);
    CHECK(r.total(Metric::SyncsRmaActive, 1) == 2.0);
    CHECK(r.own(Metric::SyncsRmaPassive, 1, "main/MPI_Win_unlock") == 1.0);
    CHECK(r.total(Metric::SyncsRmaPassive, 1) == 2.0);
    CHECK(r.total(Metric::SyncsRma, 0) == 0.0);
    // Transfers at the calls that issued them.
    CHECK(r.own(Metric::CommsRmaPuts, 0, "main/MPI_Put") == 1.0);
    CHECK(r.own(Metric::CommsRmaPuts, 0, "main/MPI_Accumulate") == 1.0);
    CHECK(r.own(Metric::CommsRmaGets, 0, "main/MPI_Get") == 1.0);
    CHECK(r.total(Metric::CommsRmaPuts, 1) == 1.0);
    CHECK(r.total(Metric::CommsRmaGets, 1) == 0.0);
    // Bytes put and got, at the issuing call.
    CHECK(r.own(Metric::BytesPut, 0, "main/MPI_Put") == 400.0);
    CHECK(r.own(Metric::BytesPut, 0, "main/MPI_Accumulate") == 8.0);
    CHECK(r.own(Metric::BytesGet, 0, "main/MPI_Get") == 24.0);
    CHECK(r.total(Metric::BytesPut, 1) == 16.0);
    CHECK(r.total(Metric::BytesGet, 1) == 0.0);
    // The window's collective operations are no collective communication.
    CHECK(r.total(Metric::SyncsColl, 0) == 0.0);
    CHECK(r.total(Metric::CommsColl, 0) == 0.0);
    CHECK(r.total(Metric::BytesCout, 0) == 0.0);
}

TEST_CASE("RMA calls: classes by name", "[profile][rma]") {
    CHECK(rma_call("MPI_Win_create") == RmaCall::WindowManagement);
    CHECK(rma_call("MPI_Win_allocate_shared") == RmaCall::WindowManagement);
    CHECK(rma_call("MPI_Win_shared_query") == RmaCall::WindowManagement);
    CHECK(rma_call("MPI_Win_free") == RmaCall::WindowManagement);
    CHECK(rma_call("MPI_Win_fence") == RmaCall::ActiveSync);
    CHECK(rma_call("MPI_Win_test") == RmaCall::ActiveSync);
    CHECK(rma_call("MPI_Win_flush_local_all") == RmaCall::PassiveSync);
    CHECK(rma_call("MPI_Win_sync") == RmaCall::PassiveSync);
    CHECK(rma_call("MPI_Rget_accumulate") == RmaCall::Communication);
    CHECK(rma_call("MPI_Compare_and_swap") == RmaCall::Communication);
    CHECK(rma_call("MPI_Send") == RmaCall::None);
    CHECK(rma_call("MPI_Alloc_mem") == RmaCall::None);
}
