// The loader on one-sided communication (MPI RMA) as Score-P records it:
// the window's collective operations (create, fence, free) become
// collective operations on the window's communicator; transfers keep their
// bytes with the calls that issued and completed them; group
// synchronizations and locks are kept with their calls; records of windows
// the trace does not define are warnings. Scenarios in ticks of 1 ns.
#include <catch2/catch.hpp>

#include <string>

#include "trace/trace_loader.hpp"
#include "tests/support/region_at.hpp"
#include "tests/support/scratch_dir.hpp"
#include "tests/support/trace_builder.hpp"

using namespace hindsight;
using namespace hindsight::trace;
using hindsight::testing::RmaWindow;
using hindsight::testing::region_at;
using hindsight::testing::ScratchDir;
using hindsight::testing::TraceBuilder;

TEST_CASE("RMA: window creation, a fence epoch with a put and a get, and the window's release", "[loader][rma]") {
    ScratchDir dir;
    TraceBuilder t(2);
    const RmaWindow win = t.window(t.world());
    for (int r = 0; r < 2; ++r) {
        auto& rank = t.rank(r).enter(0, "main");
        // Rank r enters MPI_Win_create at 10 + 5r; in the epoch between the
        // fences rank 0 puts 400 bytes to rank 1 and gets 24 bytes from it.
        rank.win_create(10 + 5 * r, 30, win).win_fence(40 + 10 * r, 60, win);
        if (r == 0) rank.put(61, 63, win, 1, 400).get(64, 66, win, 1, 24);
        rank.win_fence(70, 90 + r, win).win_free(100, 110, win).leave(120);
    }
    t.write(dir.path());
    const LoadedTrace loaded = load_local_trace(dir.anchor(), 0, 2);
    const LocalTrace& lt = loaded.trace;
    CHECK(loaded.stats.damage.empty());
    // Every RMA record is one the store reads: none is skipped.
    CHECK(loaded.stats.other_skipped == 0);

    // Four collective operations on MPI_COMM_WORLD, the window's: create,
    // two fences, free, each begun at its call's entry (RMA_COLLECTIVE_BEGIN)
    // and standing at its end.
    REQUIRE(lt.collectives.size() == 4);
    const CollectiveOp ops[] = {CollectiveOp::RmaWinCreate, CollectiveOp::RmaFence, CollectiveOp::RmaFence,
                                CollectiveOp::RmaWinFree};
    const Ticks begins[] = {10, 40, 70, 100};
    const char* regions[] = {"MPI_Win_create", "MPI_Win_fence", "MPI_Win_fence", "MPI_Win_free"};
    for (std::size_t i = 0; i < 4; ++i) {
        const Collective& c = lt.collectives[i];
        CHECK(c.op == ops[i]);
        CHECK(lt.definitions.communicators[c.comm].name == "MPI_COMM_WORLD");
        CHECK(c.begin == begins[i]);
        CHECK(c.root == -1);
        CHECK(c.bytes_sent == 0);
        CHECK(region_at(lt, c.call_enter) == regions[i]);
    }

    // The put and the get, issued in their calls, completed by the second
    // fence at its end (90 on rank 0).
    REQUIRE(lt.rma.transfers.size() == 2);
    const RmaTransfer& put = lt.rma.transfers[0];
    CHECK(put.kind == RmaTransferKind::Put);
    CHECK(put.bytes_sent == 400);
    CHECK(put.bytes_received == 0);
    CHECK(put.remote == 1);
    CHECK(put.issued == 61);
    CHECK(region_at(lt, put.call_enter) == "MPI_Put");
    CHECK(put.completed == 90);
    CHECK(region_at(lt, put.completing_call) == "MPI_Win_fence");
    const RmaTransfer& get = lt.rma.transfers[1];
    CHECK(get.kind == RmaTransferKind::Get);
    CHECK(get.bytes_received == 24);
    CHECK(get.bytes_sent == 0);
    CHECK(get.issued == 64);
    CHECK(get.completed == 90);
}

TEST_CASE("RMA: general active target synchronization and locks keep their calls", "[loader][rma]") {
    ScratchDir dir;
    TraceBuilder t(3);
    const RmaWindow win = t.window(t.world());
    for (int r = 0; r < 3; ++r) t.rank(r).enter(0, "main").win_create(1, 2, win);
    // Rank 0 exposes its window to ranks 1 and 2 (post at 10, wait at 50);
    // rank 1 accesses it (start 20, put, complete 40); rank 2 locks rank
    // 0's window exclusively and puts to it.
    t.rank(0).win_post(10, 12, win, {1, 2}).win_wait(50, 60, win, {1, 2});
    t.rank(1).win_start(20, 22, win, {0}).put(24, 26, win, 0, 8).win_complete(30, 40, win, {0});
    t.rank(2).win_lock(20, 21, win, 0, true).put(22, 23, win, 0, 16).win_unlock(30, 35, win, 0);
    for (int r = 0; r < 3; ++r) t.rank(r).win_free(70, 80, win).leave(90);
    t.write(dir.path());

    const LoadedTrace zero = load_local_trace(dir.anchor(), 0, 3);
    CHECK(zero.stats.damage.empty());
    REQUIRE(zero.trace.rma.group_syncs.size() == 2);
    const RmaGroupSync& post = zero.trace.rma.group_syncs[0];
    CHECK(region_at(zero.trace, post.call_enter) == "MPI_Win_post");
    CHECK(post.time == 12);
    REQUIRE(post.group != kNoId);
    CHECK(zero.trace.definitions.groups[post.group].members == std::vector<std::uint64_t>{1, 2});
    CHECK(region_at(zero.trace, zero.trace.rma.group_syncs[1].call_enter) == "MPI_Win_wait");

    const LoadedTrace one = load_local_trace(dir.anchor(), 1, 3);
    REQUIRE(one.trace.rma.group_syncs.size() == 2);
    CHECK(region_at(one.trace, one.trace.rma.group_syncs[1].call_enter) == "MPI_Win_complete");
    REQUIRE(one.trace.rma.transfers.size() == 1);
    CHECK(one.trace.rma.transfers[0].completed == 40);
    CHECK(region_at(one.trace, one.trace.rma.transfers[0].completing_call) == "MPI_Win_complete");

    const LoadedTrace two = load_local_trace(dir.anchor(), 2, 3);
    REQUIRE(two.trace.rma.locks.size() == 2);
    const RmaLock& lock = two.trace.rma.locks[0];
    CHECK(lock.action == RmaLockAction::Request);
    CHECK(lock.exclusive);
    CHECK(lock.remote == 0);
    CHECK(lock.time == 20);
    CHECK(region_at(two.trace, lock.call_enter) == "MPI_Win_lock");
    CHECK(two.trace.rma.locks[1].action == RmaLockAction::Release);
    CHECK(region_at(two.trace, two.trace.rma.locks[1].call_enter) == "MPI_Win_unlock");
    REQUIRE(two.trace.rma.transfers.size() == 1);
    CHECK(two.trace.rma.transfers[0].bytes_sent == 16);
    CHECK(region_at(two.trace, two.trace.rma.transfers[0].completing_call) == "MPI_Win_unlock");
}

TEST_CASE("RMA: a transfer completed at the origin first is completed by the call that completes it at its target",
          "[loader][rma]") {
    // Score-P's records: a local flush (or an MPI_Rput's request) writes
    // RMA_OP_COMPLETE_NON_BLOCKING, the synchronization that completes the
    // transfer at its target RMA_OP_COMPLETE_REMOTE with the same matching
    // id later. Rank 0 puts twice to rank 1 in a lock epoch: the first put
    // is flushed locally (at 14), both complete at the unlock (at 30).
    ScratchDir dir;
    TraceBuilder t(2);
    const RmaWindow win = t.window(t.world());
    for (int r = 0; r < 2; ++r) t.rank(r).enter(0, "main").win_create(1, 2, win);
    t.rank(0).win_lock(3, 4, win, 1, false).put(5, 6, win, 1, 8).win_flush_local(10, 14, win, 1);
    t.rank(0).put(15, 16, win, 1, 4).win_unlock(20, 30, win, 1);
    for (int r = 0; r < 2; ++r) t.rank(r).win_free(40, 50, win).leave(60);
    t.write(dir.path());

    const LoadedTrace zero = load_local_trace(dir.anchor(), 0, 2);
    // Neither completion of the first put is taken for one of a transfer
    // never issued.
    CHECK(zero.stats.damage.empty());
    REQUIRE(zero.trace.rma.transfers.size() == 2);
    for (const RmaTransfer& put : zero.trace.rma.transfers) {
        CHECK(put.completed == 30);
        CHECK(region_at(zero.trace, put.completing_call) == "MPI_Win_unlock");
    }
}

TEST_CASE("RMA: a transfer only completed at the origin keeps that completion", "[loader][rma]") {
    // A trace without the completion at the target (a window freed with
    // the lock epoch open): the local flush's completion is the one known.
    ScratchDir dir;
    TraceBuilder t(2);
    const RmaWindow win = t.window(t.world());
    for (int r = 0; r < 2; ++r) t.rank(r).enter(0, "main").win_create(1, 2, win);
    t.rank(0).win_lock(3, 4, win, 1, false).put(5, 6, win, 1, 8).win_flush_local(10, 14, win, 1);
    for (int r = 0; r < 2; ++r) t.rank(r).win_free(40, 50, win).leave(60);
    t.write(dir.path());

    const LoadedTrace zero = load_local_trace(dir.anchor(), 0, 2);
    REQUIRE(zero.trace.rma.transfers.size() == 1);
    CHECK(zero.trace.rma.transfers[0].completed == 14);
    CHECK(region_at(zero.trace, zero.trace.rma.transfers[0].completing_call) == "MPI_Win_flush_local");
}

TEST_CASE("RMA: records of a window on a communicator the rank is not in are a warning", "[loader][rma][damage]") {
    ScratchDir dir;
    TraceBuilder t(3);
    // The window lives on {0, 1}; rank 2's trace names it all the same.
    const auto pair = t.communicator({0, 1}, t.world());
    const RmaWindow win = t.window(pair);
    const RmaWindow foreign{win.id, t.world()};
    for (int r = 0; r < 2; ++r) t.rank(r).enter(0, "main").win_create(10, 20, win).win_free(30, 40, win).leave(50);
    t.rank(2).enter(0, "main").win_fence(10, 20, foreign).put(21, 22, foreign, 0, 8).leave(50);
    t.write(dir.path());
    const LoadedTrace loaded = load_local_trace(dir.anchor(), 2, 3);
    CHECK(loaded.trace.collectives.empty());
    CHECK(loaded.trace.rma.transfers.empty());
    REQUIRE(loaded.stats.damage.size() == 1);
    CHECK_THAT(loaded.stats.damage[0],
               Catch::StartsWith("rank 2: 2 RMA records of windows the trace does not define on a communicator of "
                                 "this rank (the first: window 0 in 'MPI_Win_fence' at 2e-08 s)"));
}
