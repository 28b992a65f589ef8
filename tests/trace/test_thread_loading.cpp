// The loader on hybrid MPI + OpenMP traces in Score-P's conventions: each
// rank reads every thread of its location group, the master's MPI events
// stay in the event store, the threads' streams hold the visits and thread
// records, workers' call paths hang below the master's path at the fork,
// and MPI records of a worker are left out with a warning. Ticks of 1 ns.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "trace/trace_loader.hpp"
#include "tests/support/scratch_dir.hpp"
#include "tests/support/trace_builder.hpp"

using namespace hindsight;
using namespace hindsight::trace;
using hindsight::testing::ScratchDir;
using hindsight::testing::TraceBuilder;

namespace {

using Kind = ThreadEventKind;

std::vector<Kind> kinds(const ThreadStream& s) {
    std::vector<Kind> k;
    for (const ThreadEvent& e : s.events) k.push_back(e.kind);
    return k;
}

// Region names from the root, as "main/!$omp parallel/work".
std::string path_of(const LocalTrace& t, CallPathId c) { return call_path_text(t, c); }

// Two ranks of two threads: main, one parallel region from 100 to 400 with
// work and the implicit barrier, a send from rank 0 to rank 1 after it.
TraceBuilder two_by_two() {
    TraceBuilder t(2);
    t.set_threads(2);
    for (int r = 0; r < 2; ++r) {
        auto& master = t.rank(r);
        master.enter(0, "main").init(0, 50);
        master.fork(100, 2).team_begin(100).enter(100, "!$omp parallel @a.c:1");
        master.region(100, 200, "work").region(200, 390, "!$omp implicit barrier @a.c:9");
        master.leave(390).team_end(390).join(400);
        auto& worker = t.thread(r, 1);
        worker.team_begin(110).enter(110, "!$omp parallel @a.c:1");
        worker.region(110, 300, "work").region(300, 390, "!$omp implicit barrier @a.c:9");
        worker.leave(395).team_end(395);
    }
    t.rank(0).send(400, 410, 1, 0, 8);
    t.rank(1).recv(400, 410, 0, 0, 8);
    for (int r = 0; r < 2; ++r) t.rank(r).finalize(500, 510).leave(510);
    return t;
}

}  // namespace

TEST_CASE("Threads: a rank reads its master and its worker", "[loader][threads]") {
    ScratchDir dir;
    two_by_two().write(dir.path());
    const LoadedTrace loaded = load_local_trace(dir.anchor(), 1, 2);
    const LocalTrace& lt = loaded.trace;
    CHECK(loaded.stats.damage.empty());
    // The fork, join, team and lock records are used, not skipped.
    CHECK(loaded.stats.other_skipped == 0);
    // The master's MPI call stays in the event store: one message, received.
    REQUIRE(lt.messages.size() == 1);

    REQUIRE(lt.threads.size() == 2);
    const ThreadStream& master = lt.threads.threads[0];
    const ThreadStream& worker = lt.threads.threads[1];
    CHECK(master.name == "Master thread");
    CHECK(master.thread == 0);
    CHECK(master.location == 1);
    CHECK(worker.name == "OMP thread 1");
    CHECK(worker.thread == 1);
    CHECK(worker.location == ((std::uint64_t{1} << 32) | 1));

    // The master's visits in store order with its thread records slotted in:
    // main, MPI_Init, fork, team begin, the region, work, barrier, team end,
    // join, MPI_Recv, MPI_Finalize.
    CHECK(kinds(master) == std::vector<Kind>{Kind::Enter, Kind::Enter, Kind::Leave, Kind::Fork, Kind::TeamBegin,
                                             Kind::Enter, Kind::Enter, Kind::Leave, Kind::Enter, Kind::Leave,
                                             Kind::Leave, Kind::TeamEnd, Kind::Join, Kind::Enter, Kind::Leave,
                                             Kind::Enter, Kind::Leave, Kind::Leave});
    CHECK(master.events[3].time == 100);
    CHECK(master.events[3].value == 2);  // team size
    CHECK(path_of(lt, master.events[3].cnode) == "main");  // the fork's call path
    CHECK(master.events[12].time == 400);

    CHECK(kinds(worker) == std::vector<Kind>{Kind::TeamBegin, Kind::Enter, Kind::Enter, Kind::Leave, Kind::Enter,
                                             Kind::Leave, Kind::Leave, Kind::TeamEnd});
    // The worker's region hangs below main, the master's path at the fork,
    // and is the very call path of the master's region.
    CHECK(path_of(lt, worker.events[1].cnode) == "main/!$omp parallel @a.c:1");
    CHECK(worker.events[1].cnode == master.events[5].cnode);
    CHECK(path_of(lt, worker.events[2].cnode) == "main/!$omp parallel @a.c:1/work");
    CHECK(worker.events[2].time == 110);
    CHECK(worker.events[3].time == 300);
    CHECK(worker.events[6].time == 395);
}

TEST_CASE("Threads: lock records on master and worker", "[loader][threads]") {
    ScratchDir dir;
    TraceBuilder t(1);
    t.set_threads(2);
    auto& master = t.rank(0);
    master.enter(0, "main").fork(10, 2).team_begin(10).enter(10, "!$omp parallel");
    master.enter(20, "!$omp critical").acquire_lock(20, 7, 1).region(20, 30, "!$omp critical sblock");
    master.release_lock(30, 7, 1).leave(30);
    master.leave(60).team_end(60).join(60).leave(70);
    auto& worker = t.thread(0, 1);
    worker.team_begin(10).enter(10, "!$omp parallel");
    worker.enter(25, "!$omp critical").acquire_lock(30, 7, 2).region(30, 50, "!$omp critical sblock");
    worker.release_lock(50, 7, 2).leave(50).leave(60).team_end(60);
    t.write(dir.path());
    const LoadedTrace loaded = load_local_trace(dir.anchor(), 0, 1);
    const ThreadStreams& threads = loaded.trace.threads;
    CHECK(loaded.stats.other_skipped == 0);
    REQUIRE(threads.size() == 2);
    const auto find = [](const ThreadStream& s, Kind kind) {
        for (const ThreadEvent& e : s.events)
            if (e.kind == kind) return e;
        FAIL("no such record");
        return ThreadEvent{};
    };
    const ThreadEvent acquire0 = find(threads.threads[0], Kind::Acquire);
    CHECK(acquire0.time == 20);
    CHECK(acquire0.value == 7);
    CHECK(acquire0.order == 1);
    CHECK(path_of(loaded.trace, acquire0.cnode) == "main/!$omp parallel/!$omp critical");
    const ThreadEvent release1 = find(threads.threads[1], Kind::Release);
    CHECK(release1.time == 50);
    CHECK(release1.order == 2);
    CHECK(path_of(loaded.trace, release1.cnode) == "main/!$omp parallel/!$omp critical");
}

TEST_CASE("Threads: a worker's message is kept for pairing, its collective with a warning", "[loader][threads]") {
    ScratchDir dir;
    TraceBuilder t(2);
    t.set_threads(2);
    for (int r = 0; r < 2; ++r) {
        t.rank(r).enter(0, "main").fork(10, 2).team_begin(10).enter(10, "!$omp parallel");
        t.rank(r).leave(90).team_end(90).join(90).leave(100);
        t.thread(r, 1).team_begin(10).enter(10, "!$omp parallel");
    }
    // Worker 1 of rank 0 sends 8 bytes with tag 3 to rank 1's worker in
    // 20-30 (its MPI_SEND record at 20), then joins a barrier in 50-60
    // (two records: the collective's begin and end).
    t.thread(0, 1).send(20, 30, 1, 3, 8).barrier(50, 60);
    t.thread(1, 1).recv(20, 40, 0, 3, 8).barrier(50, 60);
    for (int r = 0; r < 2; ++r) t.thread(r, 1).leave(90).team_end(90);
    t.write(dir.path());
    const LoadedTrace loaded = load_local_trace(dir.anchor(), 0, 2);
    CHECK(loaded.trace.messages.empty());
    CHECK(loaded.trace.threads.unpaired_worker_records == 2);
    REQUIRE(loaded.stats.damage.size() == 1);
    CHECK(loaded.stats.damage[0] ==
          "rank 0: 2 MPI collective records on 1 OpenMP worker thread(s) are not replayed (the replay leaves their "
          "operations out on every member; they are analyzed apart, their critical path only where a "
          "master waited)");
    // The worker's MPI_Send visit itself is kept, below its region, and
    // what it sent is filed under it, with its partner (world rank 1),
    // communicator, tag and times.
    const ThreadStream& worker = loaded.trace.threads.threads[1];
    CHECK(path_of(loaded.trace, worker.events[2].cnode) == "main/!$omp parallel/MPI_Send");
    REQUIRE(worker.transfers.size() == 2);
    const ThreadTransfer& send = worker.transfers[0];
    CHECK(send.kind == ThreadTransfer::Kind::Send);
    CHECK(send.cnode == worker.events[2].cnode);
    CHECK(send.sent == 8);
    CHECK(send.received == 0);
    CHECK(send.peer == 1);
    CHECK(send.tag == 3);
    CHECK(loaded.trace.definitions.world_ranks(send.comm) == std::vector<int>{0, 1});
    CHECK(send.call_enter == 20);
    CHECK(send.time == 20);
    CHECK(worker.transfers[1].kind == ThreadTransfer::Kind::Collective);
    CHECK(loaded.trace.threads.threads[0].transfers.empty());
}

TEST_CASE("Threads: a request one thread started and another completed is no damage", "[loader][threads]") {
    ScratchDir dir;
    TraceBuilder t(2);
    t.set_threads(2);
    // Rank 0's master first completes two requests of its own (ids 1, 2;
    // the builder numbers each thread's requests from 1, a writer per
    // process), then posts a receive at 40 (id 3) in the region. Its worker
    // starts a send (id 1) at 20 and posts a receive (id 2) at 26; it
    // completes the master's receive 3 at 65, and a send 99 that no thread
    // started at 78 (a damaged id). After the join the master completes
    // the worker's send 1 and receive 2.
    auto& master = t.rank(0);
    auto& worker = t.thread(0, 1);
    master.enter(0, "main");
    for (const Ticks at : {1, 5}) master.wait(at + 2, at + 3, master.isend(at, at + 1, 1, 9, 8));
    master.fork(10, 2).team_begin(10).enter(10, "!$omp parallel").enter(40, "MPI_Irecv");
    CHECK(master.irecv_request_event(40) == 3);
    master.leave(41).leave(90).team_end(90).join(90).enter(91, "MPI_Waitall");
    master.isend_complete_event_raw_request(92, 1).irecv_event_raw_request(93, 2, 1, 7, 8).leave(95).leave(100);
    worker.team_begin(10).enter(10, "!$omp parallel").enter(20, "MPI_Isend");
    CHECK(worker.isend_event(20, 1, 9, 8) == 1);
    worker.leave(25).enter(26, "MPI_Irecv");
    CHECK(worker.irecv_request_event(26) == 2);
    worker.leave(27).enter(60, "MPI_Wait").irecv_event_raw_request(65, 3, 1, 6, 8).leave(70);
    worker.enter(75, "MPI_Wait").isend_complete_event_raw_request(78, 99).leave(80).leave(90).team_end(90);
    t.rank(1).enter(0, "main").fork(10, 2).team_begin(10).enter(10, "!$omp parallel");
    t.rank(1).leave(90).team_end(90).join(90).leave(100);
    t.thread(1, 1).team_begin(10).enter(10, "!$omp parallel").leave(90).team_end(90);
    t.write(dir.path());
    const LoadedTrace loaded = load_local_trace(dir.anchor(), 0, 2);
    // Only the completion no thread started is damage.
    REQUIRE(loaded.stats.damage.size() == 1);
    CHECK(loaded.stats.damage[0] ==
          "rank 0: 1 MPI_ISEND_COMPLETE records of requests no MPI_ISEND started (the first: request 99 in "
          "'MPI_Wait' at 7.8e-08 s); ignored, the sends are analyzed at their MPI_ISEND");
    // The worker's receive of the master's request was posted when the
    // master's MPI_Irecv began.
    const ThreadStream& thread = loaded.trace.threads.threads[1];
    REQUIRE(thread.transfers.size() == 2);
    CHECK(thread.transfers[1].kind == ThreadTransfer::Kind::Receive);
    CHECK(thread.transfers[1].posted == 40);
}

TEST_CASE("Threads: a worker's one-sided transfers and file bytes are kept, its epochs' records a warning",
          "[loader][threads]") {
    // Rank 0's worker puts 8 bytes to rank 1 (MPI_Put 20-30) and gets 16
    // (MPI_Get 31-33) on a window of both ranks, flushes both (two
    // completions in MPI_Win_flush 35-40), writes 4 bytes to a file
    // (MPI_File_write 50-60), reads 6 in a collective read
    // (MPI_File_read_all 61-65) and writes 5 in a non-blocking write
    // (MPI_File_iwrite 66-67, completed in MPI_Wait 68-70).
    ScratchDir dir;
    TraceBuilder t(2);
    t.set_threads(2);
    const auto win = t.window(t.world());
    const auto file = t.file("out.dat", std::nullopt);
    for (int r = 0; r < 2; ++r) {
        t.rank(r).enter(0, "main").fork(10, 2).team_begin(10).enter(10, "!$omp parallel");
        t.rank(r).leave(90).team_end(90).join(90).leave(100);
        t.thread(r, 1).team_begin(10).enter(10, "!$omp parallel");
    }
    auto& worker = t.thread(0, 1);
    worker.put(20, 30, win, 1, 8).get(31, 33, win, 1, 16).win_flush(35, 40, win, 1);
    worker.file_io(50, 60, "MPI_File_write", file, false, false, 4);
    worker.file_io(61, 65, "MPI_File_read_all", file, true, true, 6);
    worker.wait(68, 70, worker.file_io_start(66, 67, "MPI_File_iwrite", file, false, false, 5));
    for (int r = 0; r < 2; ++r) t.thread(r, 1).leave(90).team_end(90);
    t.write(dir.path());
    const LoadedTrace loaded = load_local_trace(dir.anchor(), 0, 2);
    // Not analyzed: the flush's two completions (their epoch's waits) and
    // the collective read's completion (its wait for the other ranks: the
    // file has no communicator).
    REQUIRE(loaded.stats.damage.size() == 1);
    CHECK(loaded.stats.damage[0] ==
          "rank 0: 3 records of one-sided epochs (or of collective file or window operations without a "
          "communicator) on 1 OpenMP worker thread(s) are not analyzed for wait states (their calls' time, "
          "transfers and bytes are)");
    CHECK(loaded.stats.other_skipped == 0);
    const ThreadStream& stream = loaded.trace.threads.threads[1];
    const auto call = [&](CallPathId c) { return path_of(loaded.trace, c).substr(std::string("main/!$omp parallel/").size()); };
    // The transfers at the calls that issued them.
    REQUIRE(stream.rma_transfers.size() == 2);
    CHECK(call(stream.rma_transfers[0].cnode) == "MPI_Put");
    CHECK(stream.rma_transfers[0].kind == RmaTransferKind::Put);
    CHECK(stream.rma_transfers[0].bytes_sent == 8);
    CHECK(stream.rma_transfers[0].bytes_received == 0);
    CHECK(call(stream.rma_transfers[1].cnode) == "MPI_Get");
    CHECK(stream.rma_transfers[1].kind == RmaTransferKind::Get);
    CHECK(stream.rma_transfers[1].bytes_sent == 0);
    CHECK(stream.rma_transfers[1].bytes_received == 16);
    // The file bytes at the calls that completed them.
    REQUIRE(stream.file_transfers.size() == 3);
    CHECK(call(stream.file_transfers[0].cnode) == "MPI_File_write");
    CHECK(stream.file_transfers[0].bytes == 4);
    CHECK_FALSE(stream.file_transfers[0].read);
    CHECK(call(stream.file_transfers[1].cnode) == "MPI_File_read_all");
    CHECK(stream.file_transfers[1].bytes == 6);
    CHECK(stream.file_transfers[1].read);
    CHECK(call(stream.file_transfers[2].cnode) == "MPI_Wait");
    CHECK(stream.file_transfers[2].bytes == 5);
    CHECK_FALSE(stream.file_transfers[2].read);
}

TEST_CASE("Threads: a pure MPI trace has no thread streams", "[loader][threads]") {
    ScratchDir dir;
    TraceBuilder t(2);
    for (int r = 0; r < 2; ++r) t.rank(r).enter(0, "main").leave(10);
    t.write(dir.path());
    CHECK(load_local_trace(dir.anchor(), 1, 2).trace.threads.empty());
}
