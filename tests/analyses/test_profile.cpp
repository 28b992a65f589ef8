// Time, visits and the split of time into computation and MPI classes.
#include <catch2/catch.hpp>

#include "common/file_calls.hpp"
#include "tests/analyses/analysis_harness.hpp"

using namespace hindsight;
using namespace hindsight::analyses;
using namespace hindsight::testing;

namespace {

// Rank 0 computes in foo (with bar inside) and sends; rank 1 only receives.
//   rank 0: main 0..100, foo 10..40 { bar 20..30 }, MPI_Send 50..60 (8 bytes)
//   rank 1: main 0..100, MPI_Recv 45..70
TraceBuilder nested_calls() {
    TraceBuilder t(2);
    t.rank(0).enter(0, "main").enter(10, "foo").region(20, 30, "bar").leave(40)
        .send(50, 60, 1, 7, 8).leave(100);
    t.rank(1).enter(0, "main").recv(45, 70, 0, 7, 8).leave(100);
    return t;
}

}  // namespace

TEST_CASE("profile: exclusive time goes to computation or the MPI class", "[profile]") {
    const AnalysisResults r(nested_calls());
    // main's own time: 100 minus foo (30) minus the send (10).
    CHECK(r.own(Metric::Comp, 0, "main") == Approx(ns(100 - 30 - 10)));
    // foo's own time: 30 minus bar (10).
    CHECK(r.own(Metric::Comp, 0, "main/foo") == Approx(ns(30 - 10)));
    CHECK(r.own(Metric::Comp, 0, "main/foo/bar") == Approx(ns(30 - 20)));
    CHECK(r.own(Metric::MpiPoint2Point, 0, "main/MPI_Send") == Approx(ns(60 - 50)));
    CHECK(r.own(Metric::Comp, 0, "main/MPI_Send") == 0.0);
    // Everything is classified: Time, Execution and Mpi keep no own share.
    CHECK(r.total(Metric::Time, 0) == 0.0);
    CHECK(r.total(Metric::Execution, 0) == 0.0);
    CHECK(r.total(Metric::Mpi, 0) == 0.0);
    // The whole time tree adds up to the run's length on each rank.
    for (int rank : {0, 1}) CHECK(r.with_children(Metric::Time, rank, "main") +
                                      r.with_children(Metric::Time, rank, "main/MPI_Send") +
                                      r.with_children(Metric::Time, rank, "main/MPI_Recv") +
                                      r.with_children(Metric::Time, rank, "main/foo") +
                                      r.with_children(Metric::Time, rank, "main/foo/bar") ==
                                  Approx(ns(100)));
}

TEST_CASE("profile: receive time is split into Late Sender and the rest", "[profile]") {
    const AnalysisResults r(nested_calls());
    // Rank 1 entered MPI_Recv at 45, the send began at 50: 5 of its 25 are
    // Late Sender, the remaining 20 stay point-to-point time.
    CHECK(r.own(Metric::MpiLateSender, 1, "main/MPI_Recv") == Approx(ns(50 - 45)));
    CHECK(r.own(Metric::MpiPoint2Point, 1, "main/MPI_Recv") == Approx(ns(70 - 45 - (50 - 45))));
    CHECK(r.with_children(Metric::MpiPoint2Point, 1, "main/MPI_Recv") == Approx(ns(70 - 45)));
    CHECK(r.own(Metric::Comp, 1, "main") == Approx(ns(100 - 25)));
}

TEST_CASE("profile: visits count every entry", "[profile]") {
    TraceBuilder t(1);
    t.rank(0).enter(0, "main").region(1, 2, "foo").region(3, 4, "foo").region(5, 6, "bar").leave(10);
    const AnalysisResults r(t);
    CHECK(r.own(Metric::Visits, 0, "main") == 1.0);
    CHECK(r.own(Metric::Visits, 0, "main/foo") == 2.0);
    CHECK(r.own(Metric::Visits, 0, "main/bar") == 1.0);
    CHECK(r.own(Metric::Comp, 0, "main/foo") == Approx(ns(2 - 1 + 4 - 3)));
}

TEST_CASE("profile: MPI functions fall into Scalasca's time classes", "[profile]") {
    // One rank, one call of each class, 10 ticks each (MPI_COMM_SELF keeps
    // the collectives free of wait states).
    TraceBuilder t(1);
    auto& r0 = t.rank(0);
    r0.enter(0, "main").init(0, 10);
    r0.enter(10, "MPI_Comm_size").leave(20);
    r0.enter(20, "MPI_Comm_split").leave(30);
    r0.barrier(30, 40, t.self());
    r0.allreduce(40, 50, 8, t.self());
    r0.enter(50, "MPI_Get_count").leave(60);
    r0.finalize(60, 70).leave(70);
    const AnalysisResults r(t);
    CHECK(r.own(Metric::MpiInitExit, 0, "main/MPI_Init") == Approx(ns(10)));
    CHECK(r.own(Metric::MpiInitExit, 0, "main/MPI_Finalize") == Approx(ns(10)));
    CHECK(r.own(Metric::MpiMgmtComm, 0, "main/MPI_Comm_size") == Approx(ns(10)));
    CHECK(r.own(Metric::MpiMgmtComm, 0, "main/MPI_Comm_split") == Approx(ns(10)));
    CHECK(r.own(Metric::MpiSyncCollective, 0, "main/MPI_Barrier") == Approx(ns(10)));
    CHECK(r.own(Metric::MpiCollective, 0, "main/MPI_Allreduce") == Approx(ns(10)));
    // An MPI function of no finer class stays in MPI's own share.
    CHECK(r.own(Metric::Mpi, 0, "main/MPI_Get_count") == Approx(ns(10)));
    CHECK(r.own(Metric::Comp, 0, "main") == 0.0);
}

TEST_CASE("profile: MPI_Wait and MPI_Waitall are point-to-point time", "[profile]") {
    TraceBuilder t(2);
    const auto req = t.rank(0).enter(0, "main").isend(0, 5, 1, 1, 4);
    t.rank(0).wait(5, 15, req).leave(20);
    const auto a = t.rank(1).enter(0, "main").irecv(0, 2, 0, 1, 4);
    t.rank(1).waitall(2, 12, {a}).leave(20);
    const AnalysisResults r(t);
    CHECK(r.own(Metric::MpiPoint2Point, 0, "main/MPI_Isend") == Approx(ns(5)));
    CHECK(r.own(Metric::MpiPoint2Point, 0, "main/MPI_Wait") == Approx(ns(10)));
    CHECK(r.own(Metric::MpiPoint2Point, 1, "main/MPI_Irecv") == Approx(ns(2)));
    CHECK(r.own(Metric::MpiPoint2Point, 1, "main/MPI_Waitall") == Approx(ns(10)));
}

TEST_CASE("profile: MPI-IO calls split into file management, individual and collective I/O", "[profile][io]") {
    // One rank: open 0..10, a collective write 10..40, an individual read
    // 40..45, a seek 45..47, a non-blocking shared read 47..48 twice, a
    // split collective read 50..60 (begin) and 60..70 (end), a view set
    // 70..71, close 71..80; MPI_File_c2f, no file operation, 80..81.
    TraceBuilder t(1);
    t.rank(0).enter(0, "main").region(0, 10, "MPI_File_open").region(10, 40, "MPI_File_write_at_all")
        .region(40, 45, "MPI_File_read_at").region(45, 47, "MPI_File_seek").region(47, 48, "MPI_File_iread_shared")
        .region(48, 49, "MPI_File_iread_shared").region(50, 60, "MPI_File_read_all_begin")
        .region(60, 70, "MPI_File_read_all_end").region(70, 71, "MPI_File_set_view").region(71, 80, "MPI_File_close")
        .region(80, 81, "MPI_File_c2f").leave(100);
    const AnalysisResults r(t);
    CHECK(r.total(Metric::MpiMgmtFile, 0) == Approx(ns(10 + 2 + 1 + 9)));
    CHECK(r.own(Metric::MpiMgmtFile, 0, "main/MPI_File_seek") == Approx(ns(2)));
    CHECK(r.total(Metric::MpiIoIndividual, 0) == Approx(ns(5 + 1 + 1)));
    CHECK(r.total(Metric::MpiIoCollective, 0) == Approx(ns(30 + 10 + 10)));
    CHECK(r.own(Metric::Mpi, 0, "main/MPI_File_c2f") == Approx(ns(1)));
    // Counts: the individual ones (their own count: the seek; reads: the
    // read and the two shared reads), the collective ones (their own count:
    // open, set_view, close; reads: begin and end; one write).
    CHECK(r.total(Metric::MpiFileIops, 0) == 1.0);
    CHECK(r.total(Metric::MpiFileIrops, 0) == 3.0);
    CHECK(r.total(Metric::MpiFileIwops, 0) == 0.0);
    CHECK(r.total(Metric::MpiFileCops, 0) == 3.0);
    CHECK(r.total(Metric::MpiFileCrops, 0) == 2.0);
    CHECK(r.total(Metric::MpiFileCwops, 0) == 1.0);
    CHECK(r.own(Metric::MpiFileIrops, 0, "main/MPI_File_iread_shared") == 2.0);
    CHECK(r.total(Metric::MpiFileOps, 0) == 0.0);
}

TEST_CASE("file calls: classes by name as Scalasca's reports give them", "[profile][io]") {
    using Kind = FileCall::Kind;
    const auto is = [](std::string_view name, Kind kind, bool reads, bool one_rank) {
        const FileCall call = file_call(name);
        return call.kind == kind && call.reads == reads && call.one_rank == one_rank;
    };
    CHECK(is("MPI_File_iwrite_at_all", Kind::Collective, false, false));
    CHECK(is("MPI_File_read_ordered_end", Kind::Collective, true, false));
    CHECK(is("MPI_File_iread_shared", Kind::Individual, true, false));
    CHECK(is("MPI_File_write_at", Kind::Individual, false, false));
    CHECK(is("MPI_File_get_position_shared", Kind::Management, false, true));
    CHECK(is("MPI_File_set_view", Kind::Management, false, false));
    // Neither file operations nor management: error handlers, handle
    // conversions; and names that only begin alike.
    CHECK(file_call("MPI_File_get_errhandler").kind == Kind::None);
    CHECK(file_call("MPI_File_c2f").kind == Kind::None);
    CHECK(file_call("MPI_File_read_all_begins").kind == Kind::None);
    CHECK(file_call("MPI_Filer_read").kind == Kind::None);
}
