// The loader on MPI-IO as Score-P records it: I/O operations paired by
// handle and matching id into the bytes read and written, and collective
// ones into collective operations on the communicator of the file's
// handle; what cannot be paired, or has no communicator, is a warning.
// Scenarios in ticks of 1 ns.
#include <catch2/catch.hpp>

#include <string>

#include "trace/trace_loader.hpp"
#include "tests/support/region_at.hpp"
#include "tests/support/scratch_dir.hpp"
#include "tests/support/trace_builder.hpp"

using namespace hindsight;
using namespace hindsight::trace;
using hindsight::testing::IoHandle;
using hindsight::testing::region_at;
using hindsight::testing::ScratchDir;
using hindsight::testing::TraceBuilder;

TEST_CASE("MPI-IO: a blocking collective write and a non-blocking read", "[loader][io]") {
    ScratchDir dir;
    TraceBuilder t(2);
    const IoHandle file = t.file("out.dat", t.world());
    for (int r = 0; r < 2; ++r) {
        auto& rank = t.rank(r).enter(0, "main");
        // Rank r writes 1000 bytes collectively from 10 + 20r to 60, then
        // reads 200 bytes on its own, completed in MPI_Wait at 80.
        rank.file_io(10 + 20 * r, 60, "MPI_File_write_at_all", file, false, true, 1000);
        const auto request = rank.file_io_start(60, 62, "MPI_File_iread_at", file, true, false, 200);
        rank.wait(70, 80, request).leave(100);
    }
    t.write(dir.path());
    const LoadedTrace loaded = load_local_trace(dir.anchor(), 1, 2);
    const LocalTrace& lt = loaded.trace;
    CHECK(loaded.stats.damage.empty());
    // Every I/O record is one the store reads: none is skipped.
    CHECK(loaded.stats.other_skipped == 0);

    REQUIRE(lt.file_transfers.size() == 2);
    CHECK(lt.file_transfers[0].bytes == 1000);
    CHECK_FALSE(lt.file_transfers[0].read);
    CHECK(region_at(lt, lt.file_transfers[0].call_enter) == "MPI_File_write_at_all");
    CHECK(lt.file_transfers[1].bytes == 200);
    CHECK(lt.file_transfers[1].read);
    // The bytes of the non-blocking read belong to the call completing it.
    CHECK(region_at(lt, lt.file_transfers[1].call_enter) == "MPI_Wait");

    // The collective write is a collective operation on MPI_COMM_WORLD, at
    // its completion (60), begun where its I/O operation began (30 on rank
    // 1); the individual read is none.
    REQUIRE(lt.collectives.size() == 1);
    const Collective& c = lt.collectives[0];
    CHECK(c.op == CollectiveOp::FileIo);
    CHECK(lt.definitions.communicators[c.comm].name == "MPI_COMM_WORLD");
    CHECK(c.begin == 30);
    CHECK_FALSE(c.nonblocking);
    CHECK(c.root == -1);
    CHECK(region_at(lt, c.call_enter) == "MPI_File_write_at_all");
    std::size_t ends = 0;
    for (const Event& e : lt.events)
        if (e.kind == EventKind::CollectiveEnd) {
            ++ends;
            CHECK(e.time == 60);
        }
    CHECK(ends == 1);
}

TEST_CASE("MPI-IO: a split collective begins in _begin and completes in _end", "[loader][io]") {
    ScratchDir dir;
    TraceBuilder t(2);
    const IoHandle file = t.file("out.dat", t.world());
    for (int r = 0; r < 2; ++r) {
        auto& rank = t.rank(r).enter(0, "main");
        const auto request = rank.file_io_start(10, 12, "MPI_File_write_all_begin", file, false, true, 64);
        rank.file_io_end(20, 30, "MPI_File_write_all_end", request).leave(100);
    }
    t.write(dir.path());
    const LoadedTrace loaded = load_local_trace(dir.anchor(), 0, 2);
    const LocalTrace& lt = loaded.trace;
    REQUIRE(lt.collectives.size() == 1);
    const Collective& c = lt.collectives[0];
    CHECK(c.op == CollectiveOp::FileIo);
    CHECK(c.nonblocking);
    CHECK(c.begin == 10);
    CHECK(region_at(lt, c.starting_call) == "MPI_File_write_all_begin");
    CHECK(region_at(lt, c.call_enter) == "MPI_File_write_all_end");
    REQUIRE(lt.file_transfers.size() == 1);
    CHECK(region_at(lt, lt.file_transfers[0].call_enter) == "MPI_File_write_all_end");
}

TEST_CASE("MPI-IO: a collective operation on a handle without communicator is a warning", "[loader][io][damage]") {
    ScratchDir dir;
    TraceBuilder t(2);
    const IoHandle file = t.file("out.dat", std::nullopt);
    for (int r = 0; r < 2; ++r)
        t.rank(r).enter(0, "main").file_io(10, 60, "MPI_File_write_at_all", file, false, true, 1000).leave(100);
    t.write(dir.path());
    const LoadedTrace loaded = load_local_trace(dir.anchor(), 1, 2);
    // No synchronization to analyze, but the bytes are kept.
    CHECK(loaded.trace.collectives.empty());
    REQUIRE(loaded.trace.file_transfers.size() == 1);
    CHECK(loaded.trace.file_transfers[0].bytes == 1000);
    REQUIRE(loaded.stats.damage.size() == 1);
    const std::string& note = loaded.stats.damage[0];
    CHECK_THAT(note, Catch::StartsWith("rank 1: 1 collective I/O operations on handles without a communicator"));
    CHECK_THAT(note, Catch::Contains("handle 0 in 'MPI_File_write_at_all' at 6e-08 s"));
    CHECK_THAT(note, Catch::Contains("without wait states"));
}

TEST_CASE("MPI-IO: operations the loader cannot pair are warnings", "[loader][io][damage]") {
    ScratchDir dir;
    TraceBuilder t(1);
    const IoHandle file = t.file("out.dat", t.world());
    // A completion of matching id 7, never begun; a begin of id 8 never
    // completed.
    t.rank(0).enter(0, "main").enter(10, "MPI_File_read").io_operation_complete_event(20, file, 5, 7).leave(20);
    t.rank(0).enter(30, "MPI_File_read").io_operation_begin_event(30, file, OTF2_IO_OPERATION_MODE_READ,
                                                                    OTF2_IO_OPERATION_FLAG_NONE, 5, 8);
    t.rank(0).leave(40).leave(100);
    t.write(dir.path());
    const LoadedTrace loaded = load_local_trace(dir.anchor(), 0, 1);
    CHECK(loaded.trace.file_transfers.empty());
    REQUIRE(loaded.stats.damage.size() == 2);
    CHECK_THAT(loaded.stats.damage[0], Catch::StartsWith("rank 0: 1 IO_OPERATION_COMPLETE records of operations no "
                                                         "IO_OPERATION_BEGIN began (the first: handle 0, matching id 7 "
                                                         "in 'MPI_File_read' at 2e-08 s)"));
    CHECK_THAT(loaded.stats.damage[1], Catch::StartsWith("rank 0: 1 IO_OPERATION_BEGIN records without their "
                                                         "IO_OPERATION_COMPLETE (the first: handle 0, matching id 8 "
                                                         "in 'MPI_File_read' at 3e-08 s)"));
}

TEST_CASE("MPI-IO: an operation completed outside any region is a warning", "[loader][io][damage]") {
    ScratchDir dir;
    TraceBuilder t(1);
    const IoHandle file = t.file("out.dat", t.world());
    // Begun in MPI_File_iwrite (matching id 1), completed after main was left.
    t.rank(0).enter(0, "main").enter(10, "MPI_File_iwrite");
    t.rank(0).io_operation_begin_event(10, file, OTF2_IO_OPERATION_MODE_WRITE, OTF2_IO_OPERATION_FLAG_NON_BLOCKING, 4, 1);
    t.rank(0).leave(12).leave(20).io_operation_complete_event(30, file, 4, 1);
    t.write(dir.path());
    const LoadedTrace loaded = load_local_trace(dir.anchor(), 0, 1);
    CHECK(loaded.trace.file_transfers.empty());
    REQUIRE(loaded.stats.damage.size() == 1);
    CHECK_THAT(loaded.stats.damage[0], Catch::StartsWith("rank 0: 1 IO_OPERATION_COMPLETE records outside any region "
                                                         "(the first: handle 0, matching id 1 at 3e-08 s)"));
}
