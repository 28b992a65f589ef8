// Collective file operations as wait states (Wait at collective I/O, with
// its delay costs and the critical path through it) and the bytes read and
// written, on exact scenarios in ticks of 1 ns.
#include <catch2/catch.hpp>

#include "tests/analyses/backward/backward_helpers.hpp"

using namespace hindsight;
using namespace hindsight::analyses;
using namespace hindsight::testing;

namespace {

// Three ranks write 1000 bytes each with MPI_File_write_at_all on a file
// opened on MPI_COMM_WORLD, rank 2 30 ticks after the others, then read
// 500 bytes each with MPI_File_read_all. Rank r (prep p = 10, 10, 40):
//   Init 0-10 | prep 10-(10+p) | MPI_File_write_at_all (10+p)-70, its I/O
//   operation begun at 10+p and completed at 70 | MPI_File_read_all 70-80
//   | Finalize 80-90
// Hand-derived values:
//  - Wait at collective I/O in MPI_File_write_at_all: ranks 0 and 1 wait
//    from 20 until rank 2 begins at 50 (30 each); rank 2 waits nothing.
//    The read begins at 70 on every rank: no wait.
//  - What stays collective I/O time: the write's 50 - 30 = 20 on ranks 0
//    and 1, 20 on rank 2; the read's 10 everywhere.
//  - Delay costs: rank 2's interval since MPI_Init (all left it together)
//    ends where it began the write (50) and holds prep 40; ranks 0's and
//    1's end where they waited (20) and hold prep 10. Rank 2's excess, 30
//    over each, lies in prep: its prep gets all 60 ticks of waiting,
//    short-term.
//  - Critical path: all ranks enter MPI_Finalize at 80; rank 0, the lowest,
//    holds the path: its read (10), its write back to the end of its wait
//    at 50 (20), then rank 2 from its begin at 50 through prep (40) and
//    MPI_Init (10): 80.
TraceBuilder late_collective_write() {
    TraceBuilder t(3);
    const IoHandle file = t.file("checkpoint.dat", t.world());
    const Ticks prep[] = {10, 10, 40};
    for (int r = 0; r < 3; ++r) {
        const Ticks p = prep[r];
        t.rank(r).enter(0, "main").init(0, 10).region(10, 10 + p, "prep");
        t.rank(r).file_io(10 + p, 70, "MPI_File_write_at_all", file, false, true, 1000);
        t.rank(r).file_io(70, 80, "MPI_File_read_all", file, true, true, 500);
        t.rank(r).finalize(80, 90).leave(90);
    }
    return t;
}

constexpr const char* kWrite = "main/MPI_File_write_at_all";
constexpr const char* kRead = "main/MPI_File_read_all";

}  // namespace

TEST_CASE("collective I/O: a late writer makes the others wait", "[io]") {
    const AnalysisResults r(late_collective_write(), kAllAnalyses);
    CHECK(r.own(Metric::MpiIoWaitNxN, 0, kWrite) == Approx(ns(30)));
    CHECK(r.own(Metric::MpiIoWaitNxN, 1, kWrite) == Approx(ns(30)));
    CHECK(r.own(Metric::MpiIoWaitNxN, 2, kWrite) == 0.0);
    for (int k = 0; k < 3; ++k) {
        CHECK(r.own(Metric::MpiIoCollective, k, kWrite) == Approx(ns(20)));
        CHECK(r.own(Metric::MpiIoWaitNxN, k, kRead) == 0.0);
        CHECK(r.own(Metric::MpiIoCollective, k, kRead) == Approx(ns(10)));
        // No other pattern takes the waiting: it stays file I/O time.
        CHECK(r.total(Metric::MpiWaitNxN, k) == 0.0);
        CHECK(r.total(Metric::MpiBarrierWait, k) == 0.0);
        // The file's bytes, at the calls that moved them.
        CHECK(r.own(Metric::IoBytesWritten, k, kWrite) == 1000.0);
        CHECK(r.own(Metric::IoBytesRead, k, kRead) == 500.0);
        CHECK(r.total(Metric::IoBytesRead, k) == 500.0);
        CHECK(r.total(Metric::IoBytesWritten, k) == 1000.0);
        // File operations are no collective communication between ranks.
        CHECK(r.total(Metric::SyncsColl, k) == 0.0);
        CHECK(r.total(Metric::BytesCout, k) == 0.0);
        CHECK(r.own(Metric::MpiFileCwops, k, kWrite) == 1.0);
        CHECK(r.own(Metric::MpiFileCrops, k, kRead) == 1.0);
    }
}

TEST_CASE("collective I/O: the late writer's work bears the delay costs", "[io][delay]") {
    const AnalysisResults r(late_collective_write(), kAllAnalyses);
    CHECK(r.own(Metric::DelayIoN2n, 2, "main/prep") == Approx(ns(60)));
    CHECK(all_ranks(r, Metric::DelayIoN2nAggregate, 3) == Approx(ns(60)));
    CHECK(all_ranks(r, Metric::DelayIoN2nLongterm, 3) == 0.0);
    // No other pattern's costs.
    CHECK(all_ranks(r, Metric::DelayN2nAggregate, 3) == 0.0);
    CHECK(all_ranks(r, Metric::DelayBarrierAggregate, 3) == 0.0);
}

TEST_CASE("collective I/O: the critical path passes the write like any collective", "[io][critical-path]") {
    const AnalysisResults r(late_collective_write(), kAllAnalyses);
    CHECK(all_ranks(r, Metric::CriticalPath, 3) == Approx(ns(80)));
    CHECK(r.with_children(Metric::CriticalPath, 0, kRead) == Approx(ns(10)));
    CHECK(r.with_children(Metric::CriticalPath, 0, kWrite) == Approx(ns(20)));
    CHECK(r.with_children(Metric::CriticalPath, 2, "main/prep") == Approx(ns(40)));
    CHECK(r.with_children(Metric::CriticalPath, 2, "main/MPI_Init") == Approx(ns(10)));
    CHECK(r.with_children(Metric::CriticalPath, 0, "main/prep") == 0.0);
}

TEST_CASE("collective I/O: a split write waits in its _end call", "[io]") {
    // Rank 0 begins at 10-12 and ends 20-60; rank 1 begins at 40-42 and
    // ends 45-60. Rank 0 waits in its _end call from 20 until rank 1 began
    // at 40: 20; rank 1 nothing.
    TraceBuilder t(2);
    const IoHandle file = t.file("out.dat", t.world());
    const Ticks begin[] = {10, 40}, end[] = {20, 45};
    for (int r = 0; r < 2; ++r) {
        auto& rank = t.rank(r).enter(0, "main");
        const auto request =
            rank.file_io_start(begin[r], begin[r] + 2, "MPI_File_write_all_begin", file, false, true, 64);
        rank.file_io_end(end[r], 60, "MPI_File_write_all_end", request).leave(100);
    }
    const AnalysisResults r(t);
    CHECK(r.own(Metric::MpiIoWaitNxN, 0, "main/MPI_File_write_all_end") == Approx(ns(20)));
    CHECK(r.total(Metric::MpiIoWaitNxN, 1) == 0.0);
    CHECK(r.own(Metric::IoBytesWritten, 0, "main/MPI_File_write_all_end") == 64.0);
}

TEST_CASE("file I/O: a non-blocking read's bytes count where MPI_Wait completes it", "[io]") {
    TraceBuilder t(1);
    const IoHandle file = t.file("in.dat", t.self());
    auto& rank = t.rank(0).enter(0, "main");
    const auto request = rank.file_io_start(10, 12, "MPI_File_iread_at", file, true, false, 200);
    rank.region(12, 30, "work").wait(30, 40, request).leave(100);
    const AnalysisResults r(t);
    CHECK(r.own(Metric::IoBytesRead, 0, "main/MPI_Wait") == 200.0);
    CHECK(r.own(Metric::IoBytesRead, 0, "main/MPI_File_iread_at") == 0.0);
    CHECK(r.total(Metric::IoBytesWritten, 0) == 0.0);
    CHECK(r.own(Metric::MpiFileIrops, 0, "main/MPI_File_iread_at") == 1.0);
    CHECK(r.own(Metric::MpiIoIndividual, 0, "main/MPI_File_iread_at") == Approx(ns(2)));
}

TEST_CASE("collective I/O on a handle without communicator: no wait state, no failure", "[io]") {
    // Rank 1 begins 30 ticks late, but without the file's communicator
    // nobody knows whom the operation synchronized.
    TraceBuilder t(2);
    const IoHandle file = t.file("out.dat", std::nullopt);
    const Ticks enter[] = {10, 40};
    for (int r = 0; r < 2; ++r)
        t.rank(r).enter(0, "main").file_io(enter[r], 60, "MPI_File_write_at_all", file, false, true, 8).leave(100);
    const AnalysisResults r(t);
    CHECK(r.total(Metric::MpiIoWaitNxN, 0) == 0.0);
    CHECK(r.own(Metric::MpiIoCollective, 0, kWrite) == Approx(ns(50)));
    CHECK(r.own(Metric::IoBytesWritten, 0, kWrite) == 8.0);
}
