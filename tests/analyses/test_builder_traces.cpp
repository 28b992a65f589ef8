// The in-memory builder traces follow the loader's conventions: here, for
// the receive sources of collective operations.
#include <catch2/catch.hpp>

#include <optional>
#include <vector>

#include "tests/analyses/builder_traces.hpp"
#include "tests/support/scratch_dir.hpp"
#include "trace/trace_loader.hpp"

using namespace hindsight;
using namespace hindsight::testing;

TEST_CASE("builder traces give collectives the receive sources the loader gives them", "[builder][sources]") {
    // An MPI_Alltoallv on world ranks 2, 0, 1 (communicator ranks 0, 1, 2):
    // communicator rank 0 receives from rank 1, rank 1 from none, rank 2
    // from ranks 0 and 1; then a barrier without sources, and the first
    // exchange again.
    TraceBuilder t(3);
    const auto sub = t.communicator({2, 0, 1}, t.world(), "sub");
    const std::vector<std::vector<int>> sources{{1}, {}, {1, 0}};
    for (int world = 0; world < 3; ++world) {
        const int r = t.comms().rank_of(sub, world);
        auto& rank = t.rank(world);
        rank.enter(0, "main");
        rank.receive_sources(sources[r]).collective(10, 20, "MPI_Alltoallv", sub, -1, 4, 4);
        rank.barrier(30, 40);
        rank.receive_sources(sources[r]).collective(50, 60, "MPI_Alltoallv", sub, -1, 4, 4);
        rank.leave(100);
    }
    // In communicator ranks, by world rank.
    const std::vector<std::vector<int>> expected{{}, {0, 1}, {1}};
    const std::vector<trace::LocalTrace> traces = local_traces(t);
    ScratchDir dir;
    t.write(dir.path());
    for (int world = 0; world < 3; ++world) {
        INFO("world rank " << world);
        const trace::LocalTrace& built = traces[static_cast<std::size_t>(world)];
        REQUIRE(built.collectives.size() == 3);
        CHECK(built.source_lists == std::vector<std::vector<int>>{expected[static_cast<std::size_t>(world)]});
        CHECK(built.collectives[0].sources == 0);
        CHECK(built.collectives[1].sources == trace::Collective::kNoSources);
        CHECK(built.collectives[2].sources == 0);
        const trace::LoadedTrace loaded = trace::load_local_trace(dir.anchor(), world, 3);
        CHECK(loaded.trace.source_lists == built.source_lists);
        for (std::size_t c = 0; c < 3; ++c) CHECK(loaded.trace.collectives[c].sources == built.collectives[c].sources);
    }
}

TEST_CASE("builder traces give file I/O the records the loader gives it", "[builder][io]") {
    // A collective write on a world handle (rank 1 begins later), a
    // non-blocking read completed by MPI_Wait, and a collective write on a
    // handle without communicator.
    TraceBuilder t(2);
    const IoHandle world_file = t.file("a.dat", t.world());
    const IoHandle lone_file = t.file("b.dat", std::nullopt);
    for (int r = 0; r < 2; ++r) {
        auto& rank = t.rank(r).enter(0, "main");
        rank.file_io(10 + 10 * r, 40, "MPI_File_write_at_all", world_file, false, true, 100);
        const auto request = rank.file_io_start(40, 42, "MPI_File_iread", world_file, true, false, 30);
        rank.wait(50, 60, request).file_io(60, 70, "MPI_File_write_all", lone_file, false, true, 7).leave(100);
    }
    const std::vector<trace::LocalTrace> traces = local_traces(t);
    ScratchDir dir;
    t.write(dir.path());
    for (int r = 0; r < 2; ++r) {
        INFO("rank " << r);
        const trace::LocalTrace& built = traces[static_cast<std::size_t>(r)];
        const trace::LoadedTrace loaded = trace::load_local_trace(dir.anchor(), r, 2);
        REQUIRE(built.file_transfers.size() == 3);
        REQUIRE(loaded.trace.file_transfers.size() == 3);
        for (std::size_t k = 0; k < 3; ++k) {
            CHECK(built.file_transfers[k].bytes == loaded.trace.file_transfers[k].bytes);
            CHECK(built.file_transfers[k].read == loaded.trace.file_transfers[k].read);
            CHECK(built.file_transfers[k].call_enter == loaded.trace.file_transfers[k].call_enter);
        }
        REQUIRE(built.collectives.size() == 1);
        REQUIRE(loaded.trace.collectives.size() == 1);
        const trace::Collective& b = built.collectives[0];
        const trace::Collective& l = loaded.trace.collectives[0];
        CHECK(b.op == l.op);
        CHECK(b.comm == l.comm);
        CHECK(b.begin == l.begin);
        CHECK(b.call_enter == l.call_enter);
        CHECK(b.nonblocking == l.nonblocking);
    }
}
