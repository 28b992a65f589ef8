// End to end: a builder scenario written as an OTF2 archive, analysed by
// hindsight-analyze under mpiexec, read back from the .cubex. The values are
// the metric-inclusive ones a report stores (a metric plus its sub-metrics),
// derived by hand from the timestamps (1 tick = 1 ns).
//
// Environment: HINDSIGHT_ANALYZE (the analyzer), HINDSIGHT_MPIEXEC (mpiexec).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>

#include "common/cube/query.hpp"
#include "common/cube/reader.hpp"
#include "tests/analyses/backward/figure3.hpp"
#include "tests/analyses/backward/messages_to_oneself.hpp"
#include "tests/support/builder_ticks.hpp"
#include "tests/support/test_environment.hpp"
#include "tests/support/trace_builder.hpp"

using namespace hindsight;
using namespace hindsight::testing;
namespace fs = std::filesystem;

namespace {

// Writes the scenario, analyses it on as many ranks (with the extra
// analyzer options `options`) and reads the report.
cube::Report analyse(const TraceBuilder& t, const std::string& name, const std::string& options = "--timeout 60") {
    const fs::path dir = fs::temp_directory_path() / ("hindsight-analyses-" + name + "-" +
                                                      std::to_string(::getpid()));
    fs::remove_all(dir);
    t.write(dir / "trace");
    const fs::path report = dir / "report.cubex";
    const std::string command = required_env("HINDSIGHT_MPIEXEC") + " -n " + std::to_string(t.size()) +
                                " " + required_env("HINDSIGHT_ANALYZE") + " --quiet " + options + " -o " +
                                report.string() + " " + (dir / "trace" / "traces.otf2").string();
    REQUIRE(std::system(command.c_str()) == 0);
    cube::Report result = cube::read_cubex(report);
    fs::remove_all(dir);
    return result;
}

}  // namespace

TEST_CASE("analyzer: point-to-point and collective wait states of a 3-rank run", "[mpi]") {
    TraceBuilder t(3);
    // MPI_Init: 0..50, 10..40, 5..45 -> first exit 40, last entry 10.
    // Point-to-point:
    //   rank 0 sends to 2 at 100..105 (late: rank 2 waits from 70 in "first")
    //   rank 1 sends to 2 at 60..62 (early), rank 2 receives it next (110..115)
    //     -> rank 2's first wait (100 - 70) was due to messages in wrong order
    //   rank 1 sends to 0 at 120..170, rank 0 receives at 150..171 -> Late Receiver 150 - 120
    // Barrier: enters 200, 210, 230; leaves 240, 245, 250.
    // MPI_Finalize: 300..400, 380..400, 350..400 -> rank 0 waits 80, rank 2 30.
    t.rank(0).enter(0, "main").init(0, 50).send(100, 105, 2, 1, 8).recv(150, 171, 1, 2, 16)
        .barrier(200, 240).finalize(300, 400).leave(400);
    t.rank(1).enter(0, "main").init(10, 40).send(60, 62, 2, 1, 8).send(120, 170, 0, 2, 16)
        .barrier(230, 250).finalize(380, 400).leave(400);
    t.rank(2).enter(0, "main").init(5, 45).enter(65, "first").recv(70, 108, 0, 1, 8).leave(109)
        .recv(110, 115, 1, 1, 8).barrier(210, 245).finalize(350, 400).leave(400);
    const cube::Report r = analyse(t, "waitstates");
    using cube::value_at;

    CHECK(value_at(r, "mpi_init_completion", {"main", "MPI_Init"}, 0) == Approx(ns(50 - 40)));
    CHECK(value_at(r, "mpi_init_completion", {"main", "MPI_Init"}, 2) == Approx(ns(45 - 40)));

    CHECK(value_at(r, "mpi_latesender", {"main", "first", "MPI_Recv"}, 2) == Approx(ns(100 - 70)));
    CHECK(value_at(r, "mpi_latesender_wo", {"main", "first", "MPI_Recv"}, 2) == Approx(ns(100 - 70)));
    CHECK(value_at(r, "mpi_lswo_different", {"main", "first", "MPI_Recv"}, 2) == Approx(ns(100 - 70)));
    CHECK(value_at(r, "mpi_lswo_same", {"main", "first", "MPI_Recv"}, 2) == 0.0);
    CHECK(value_at(r, "mpi_cls_count", {"main", "first", "MPI_Recv"}, 2) == 1.0);
    CHECK(value_at(r, "mpi_clswo_count", {"main", "first", "MPI_Recv"}, 2) == 1.0);

    CHECK(value_at(r, "mpi_latereceiver", {"main", "MPI_Send"}, 1) == Approx(ns(150 - 120)));
    CHECK(value_at(r, "mpi_clr_count", {"main", "MPI_Send"}, 1) == 1.0);
    CHECK(value_at(r, "comms_send", {"main", "MPI_Send"}, 1) == 2.0);
    CHECK(value_at(r, "bytes_sent", {"main", "MPI_Send"}, 1) == 8.0 + 16.0);
    // MPI_Send on rank 1: 2 + 50 in total, of which 30 Late Receiver.
    CHECK(value_at(r, "mpi_point2point", {"main", "MPI_Send"}, 1) == Approx(ns(2 + 50)));

    CHECK(value_at(r, "mpi_barrier_wait", {"main", "MPI_Barrier"}, 0) == Approx(ns(230 - 200)));
    CHECK(value_at(r, "mpi_barrier_wait", {"main", "MPI_Barrier"}, 2) == Approx(ns(230 - 210)));
    CHECK(value_at(r, "mpi_barrier_completion", {"main", "MPI_Barrier"}, 1) == Approx(ns(250 - 240)));
    CHECK(value_at(r, "mpi_barrier_completion", {"main", "MPI_Barrier"}, 2) == Approx(ns(245 - 240)));
    CHECK(value_at(r, "syncs_coll", {"main", "MPI_Barrier"}, 1) == 1.0);

    CHECK(value_at(r, "mpi_finalize_wait", {"main", "MPI_Finalize"}, 0) == Approx(ns(380 - 300)));
    CHECK(value_at(r, "mpi_finalize_wait", {"main", "MPI_Finalize"}, 2) == Approx(ns(380 - 350)));
    CHECK(value_at(r, "mpi_finalize_wait", {"main", "MPI_Finalize"}, 1) == 0.0);

    // Every rank's time adds up to the run's length (400).
    for (std::int64_t rank = 0; rank < 3; ++rank)
        CHECK(cube::sum_over_call_paths(r, "time", rank) == Approx(ns(400)));
    // main, MPI_Init, first, first/MPI_Recv, MPI_Recv, MPI_Barrier, MPI_Finalize
    CHECK(cube::sum_over_call_paths(r, "visits", 2) == 7.0);
}

TEST_CASE("analyzer: Late Receivers of receives posted by MPI_Irecv, none at MPI_Bsend", "[mpi]") {
    TraceBuilder t(2);
    // Rank 0's MPI_Send (100..160) waits for rank 1's MPI_Irecv at 130 (the
    // MPI_Wait completing it begins at 170, after the send ended): Late
    // Receiver 130 - 100. Its MPI_Bsend (200..260) outlasts the MPI_Recv
    // posted at 230, but a buffered send never waits for its receiver.
    // Rank 0 leaves MPI_Finalize (300..310) before rank 1 enters it (320).
    t.rank(0).enter(0, "main").init(0, 10).send(100, 160, 1, 1, 64)
        .send(200, 260, 1, 2, 64, t.world(), "MPI_Bsend").finalize(300, 310).leave(400);
    auto& r1 = t.rank(1).enter(0, "main").init(0, 10);
    const auto request = r1.irecv(130, 131, 0, 1, 64);
    r1.wait(170, 175, request).recv(230, 262, 0, 2, 64).finalize(320, 330).leave(400);
    const cube::Report r = analyse(t, "irecv-late-receiver");
    using cube::value_at;

    CHECK(value_at(r, "mpi_latereceiver", {"main", "MPI_Send"}, 0) == Approx(ns(130 - 100)));
    CHECK(value_at(r, "mpi_clr_count", {"main", "MPI_Send"}, 0) == 1.0);
    CHECK(value_at(r, "mpi_latereceiver", {"main", "MPI_Bsend"}, 0) == 0.0);
    CHECK(cube::total(r, "mpi_latereceiver") == Approx(ns(130 - 100)));
    CHECK(cube::total(r, "mpi_latesender") == 0.0);
    CHECK(value_at(r, "mpi_finalize_wait", {"main", "MPI_Finalize"}, 0) == Approx(ns(310 - 300)));
}

TEST_CASE("analyzer: collectives on a sub-communicator of 4 ranks", "[mpi]") {
    TraceBuilder t(4);
    const Comm even = t.communicator({0, 2}, t.world(), "even");
    // Allreduce on {0, 2}: enters 10, 30; leaves 50, 60.
    // Reduce on world to root 3: root enters 70, others 80, 90, 75 -> waits 90 - 70.
    // Scan on world: enters 120, 100, 130, 110 -> rank 1 waits 20, rank 3 20.
    const Ticks reduce_enter[] = {80, 90, 75, 70};
    const Ticks scan_enter[] = {120, 100, 130, 110};
    for (int k = 0; k < 4; ++k) {
        auto& rank = t.rank(k).enter(0, "main");
        if (k == 0) rank.allreduce(10, 50, 8, even);
        if (k == 2) rank.allreduce(30, 60, 8, even);
        rank.reduce(reduce_enter[k], 95, 3, 8).scan(scan_enter[k], 140, 8).leave(200);
    }
    const cube::Report r = analyse(t, "subcomm");
    using cube::value_at;
    CHECK(value_at(r, "mpi_wait_nxn", {"main", "MPI_Allreduce"}, 0) == Approx(ns(30 - 10)));
    CHECK(value_at(r, "mpi_nxn_completion", {"main", "MPI_Allreduce"}, 2) == Approx(ns(60 - 50)));
    CHECK(value_at(r, "bytes_cout", {"main", "MPI_Allreduce"}, 2) == 2.0 * 8);
    CHECK(value_at(r, "mpi_earlyreduce", {"main", "MPI_Reduce"}, 3) == Approx(ns(90 - 70)));
    CHECK(cube::sum_over_ranks(r, "mpi_earlyreduce", {"main", "MPI_Reduce"}) == Approx(ns(90 - 70)));
    CHECK(value_at(r, "mpi_earlyscan", {"main", "MPI_Scan"}, 1) == Approx(ns(120 - 100)));
    CHECK(value_at(r, "mpi_earlyscan", {"main", "MPI_Scan"}, 3) == Approx(ns(130 - 110)));
    CHECK(value_at(r, "mpi_earlyscan", {"main", "MPI_Scan"}, 2) == 0.0);
    CHECK(value_at(r, "comms_cxch", {"main", "MPI_Scan"}, 0) == 1.0);
}

TEST_CASE("analyzer: the backward pass at a collective where a rank waited", "[mpi]") {
    // At the barrier both backward analyses exchange data (their first
    // reductions travel together):
    //   rank 0: work 10..50, barrier 50..100 -> waits 90 - 50 for rank 1
    //   rank 1: work 10..90, barrier 90..100
    //   MPI_Finalize: rank 0 enters at 105, rank 1 at 110 (the last).
    TraceBuilder t(2);
    t.rank(0).enter(0, "main").init(0, 10).enter(10, "work").leave(50).barrier(50, 100)
        .finalize(105, 120).leave(120);
    t.rank(1).enter(0, "main").init(0, 10).enter(10, "work").leave(90).barrier(90, 100)
        .finalize(110, 120).leave(120);
    const cube::Report r = analyse(t, "backward");
    using cube::value_at;

    // The path runs on rank 1 from its MPI_Finalize entry back to the start
    // (rank 1 never waited): main 100..110, barrier 90..100, work 10..90,
    // MPI_Init 0..10.
    CHECK(cube::sum_over_call_paths(r, "critical_path", 1) == Approx(ns(110)));
    CHECK(cube::sum_over_call_paths(r, "critical_path", 0) == 0.0);
    CHECK(value_at(r, "critical_path", {"main", "work"}, 1) == Approx(ns(90 - 10)));
    CHECK(value_at(r, "critical_path", {"main", "MPI_Barrier"}, 1) == Approx(ns(100 - 90)));
    // work: 80 on the path, (40 + 80) / 2 on average.
    CHECK(value_at(r, "critical_path_imbalance", {"main", "work"}, 1) == Approx(ns(80 - 60)));

    // Rank 0's 40 ticks of waiting at the barrier, caused by rank 1's 40
    // ticks more of work since MPI_Init; they caused no later wait.
    CHECK(value_at(r, "delay_barrier", {"main", "work"}, 1) == Approx(ns(40)));
    CHECK(cube::sum_over_call_paths(r, "delay_barrier", 1) == Approx(ns(40)));
    CHECK(cube::sum_over_call_paths(r, "delay_barrier", 0) == 0.0);
    CHECK(cube::sum_over_call_paths(r, "delay_barrier_longterm", 1) == 0.0);
}

TEST_CASE("analyzer: messages a rank sends to itself", "[mpi][self]") {
    // The scenario and its hand-derived values: messages_to_oneself.hpp.
    const TraceBuilder t = messages_to_oneself_trace();
    for (const std::string options : {"--timeout 60", "--timeout 60 --graph"}) {
        const cube::Report r = analyse(t, "self", options);
        using cube::value_at;
        INFO("options: " << options);

        CHECK(cube::total(r, "mpi_latesender") == Approx(ns(80 - 30)));
        CHECK(value_at(r, "mpi_latesender", {"main", "MPI_Recv"}, 1) == Approx(ns(80 - 30)));
        CHECK(cube::total(r, "mpi_latereceiver") == 0.0);
        CHECK(value_at(r, "comms_send", {"main", "MPI_Sendrecv"}, 0) == 1.0);
        CHECK(value_at(r, "comms_recv", {"main", "MPI_Sendrecv"}, 0) == 1.0);
        CHECK(value_at(r, "bytes_sent", {"main", "MPI_Sendrecv"}, 0) == 8.0);
        CHECK(value_at(r, "bytes_sent", {"main", "MPI_Isend"}, 1) == 32.0);
        CHECK(cube::sum_over_call_paths(r, "bytes_sent", 0) == 8.0 + 16.0);
        CHECK(cube::sum_over_call_paths(r, "bytes_rcvd", 1) == 32.0 + 16.0);

        CHECK(value_at(r, "delay_latesender", {"main", "work"}, 0) == Approx(ns(50) * 55.0 / 60.0));
        CHECK(value_at(r, "delay_latesender", {"main", "MPI_Sendrecv"}, 0) == Approx(ns(50) * 5.0 / 60.0));
        CHECK(cube::sum_over_call_paths(r, "delay_latesender", 1) == 0.0);

        CHECK(cube::sum_over_call_paths(r, "critical_path", 0) + cube::sum_over_call_paths(r, "critical_path", 1) ==
              Approx(ns(100)));
        CHECK(value_at(r, "critical_path", {"main", "work"}, 0) == Approx(ns(80 - 25)));
        CHECK(value_at(r, "critical_path", {"main", "MPI_Sendrecv"}, 0) == Approx(ns(25 - 20)));
    }
}

TEST_CASE("analyzer: a rank busy for longer than the timeout is waited for", "[mpi][progress]") {
    // Rank 0 has 20,000 regions of its own and 80,000 events to load,
    // unify and report; rank 1 almost nothing. Rank 1 waits for rank 0 far
    // longer than a timeout of 10 ms in every phase, and must go on waiting.
    TraceBuilder t(2);
    auto& busy = t.rank(0).enter(0, "main").init(1, 2);
    for (Ticks i = 0; i < 20'000; ++i) busy.region(10 + 4 * i, 12 + 4 * i, "work" + std::to_string(i)).region(13 + 4 * i, 14 + 4 * i, "work" + std::to_string(i));
    busy.finalize(100'000, 100'010).leave(100'010);
    t.rank(1).enter(0, "main").init(1, 2).finalize(100'000, 100'010).leave(100'010);
    const cube::Report r = analyse(t, "busy", "--timeout 0.01");
    CHECK(cube::sum_over_call_paths(r, "visits", 0) == 3.0 + 2 * 20'000);
}

TEST_CASE("analyzer: a cycle of messages through three ranks ends in a clear error", "[mpi][progress]") {
    // Each rank receives from the one before it before it sends to the one
    // after it: no run records this. The check before the replay looks for
    // such pairs of ranks only; the replay finds the cycle, or its timeout
    // ends it.
    TraceBuilder t(3);
    for (int r = 0; r < 3; ++r)
        t.rank(r).enter(0, "main").init(1, 2).recv(10, 20, (r + 2) % 3, 1, 8).send(30, 40, (r + 1) % 3, 1, 8)
            .finalize(50, 60).leave(60);
    const fs::path dir = fs::temp_directory_path() / ("hindsight-analyses-cycle-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    t.write(dir / "trace");
    const std::string output = (dir / "output").string();
    const std::string command = required_env("HINDSIGHT_MPIEXEC") + " -n 3 " + required_env("HINDSIGHT_ANALYZE") +
                                " --quiet --timeout 5 -o " + (dir / "report.cubex").string() + " " +
                                (dir / "trace" / "traces.otf2").string() + " 2> " + output;
    CHECK(std::system(command.c_str()) != 0);
    std::ifstream in(output);
    const std::string errors((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK_THAT(errors, Catch::Contains("cycle") || Catch::Contains("every rank waits for another"));
    fs::remove_all(dir);
}

TEST_CASE("analyzer: the timeline's windows beside the report, none with --timeline 0", "[mpi][timeline]") {
    const fs::path dir = fs::temp_directory_path() / ("hindsight-analyses-timeline-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    figure3_trace().write(dir / "trace");
    const fs::path report = dir / "report.cubex";
    const fs::path timeline = dir / "report.timeline.json";
    const auto analyze = [&](const std::string& options) {
        const std::string command = required_env("HINDSIGHT_MPIEXEC") + " -n 3 " + required_env("HINDSIGHT_ANALYZE") +
                                    " --quiet --no-page " + options + " -o " + report.string() + " " +
                                    (dir / "trace" / "traces.otf2").string();
        return std::system(command.c_str());
    };
    REQUIRE(analyze("--timeline 1") == 0);
    REQUIRE(fs::exists(timeline));
    std::ifstream in(timeline);
    const std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(json.starts_with("{\"schema\":\"hindsight-timeline\",\"version\":1,\"ranks\":3,"));
    // B's Late Sender wait, 3 s from 3 s (figure3.hpp), in a window from
    // 1.5 s to 7.5 s; C's shorter one gets none with one window per pattern.
    CHECK(json.find("{\"instance\":{\"pattern\":\"mpi_latesender\",\"rank\":1,\"start\":3,\"waiting\":3,") !=
          std::string::npos);
    CHECK(json.find("\"from\":1.5,\"to\":7.5,\"lanes\":[") != std::string::npos);
    CHECK(json.find("\"pattern\":\"mpi_latesender\",\"rank\":2") == std::string::npos);
    // A's send to B, slot 0, and B's receive of it, with B's wait.
    CHECK(json.find("\"sends\":[[6,1,0]]") != std::string::npos);
    CHECK(json.find("\"sends\":[[7,2,0]],\"receives\":[[7,0,0]]") != std::string::npos);
    CHECK(json.find("\"waits\":[[3,6,\"mpi_latesender\"]]") != std::string::npos);
    // No windows asked for: an earlier run's file is gone too.
    REQUIRE(analyze("--timeline 0") == 0);
    CHECK_FALSE(fs::exists(timeline));
    CHECK(analyze("--timeline 11 2>/dev/null") != 0);
    fs::remove_all(dir);
}

TEST_CASE("analyzer: a collective file write with a late rank, read back from the report", "[mpi][io]") {
    // Score-P's MPI-IO records through the loader and the MPI replay:
    //   rank r: MPI_Init 0..10, prep 10..(10 + p) with p = 10, 10, 40,
    //   MPI_File_write_at_all (10 + p)..70 of 1000 bytes on a file opened
    //   on MPI_COMM_WORLD, MPI_File_write_all 70..80 of 8 bytes on a handle
    //   whose communicator the trace does not name (a warning: no wait
    //   state there), MPI_Finalize 80..90.
    // Ranks 0 and 1 wait 50 - 20 for rank 2 in the collective write; rank
    // 2's 30 ticks more of prep, over each of them, bear the 60 ticks.
    TraceBuilder t(3);
    const IoHandle shared = t.file("checkpoint.dat", t.world());
    const IoHandle unknown = t.file("log.dat", std::nullopt);
    const Ticks prep[] = {10, 10, 40};
    for (int r = 0; r < 3; ++r) {
        t.rank(r).enter(0, "main").init(0, 10).region(10, 10 + prep[r], "prep");
        t.rank(r).file_io(10 + prep[r], 70, "MPI_File_write_at_all", shared, false, true, 1000);
        t.rank(r).file_io(70, 80, "MPI_File_write_all", unknown, false, true, 8);
        t.rank(r).finalize(80, 90).leave(90);
    }
    const cube::Report r = analyse(t, "fileio");
    using cube::value_at;
    for (int rank : {0, 1})
        CHECK(value_at(r, "mpi_io_wait_nxn", {"main", "MPI_File_write_at_all"}, rank) == Approx(ns(30)));
    CHECK(value_at(r, "mpi_io_wait_nxn", {"main", "MPI_File_write_at_all"}, 2) == 0.0);
    for (int rank = 0; rank < 3; ++rank) {
        CHECK(value_at(r, "mpi_io_wait_nxn", {"main", "MPI_File_write_all"}, rank) == 0.0);
        CHECK(value_at(r, "mpi_io_collective", {"main", "MPI_File_write_all"}, rank) == Approx(ns(10)));
        CHECK(value_at(r, "io_bytes_written", {"main", "MPI_File_write_at_all"}, rank) == 1000.0);
        CHECK(value_at(r, "io_bytes_written", {"main", "MPI_File_write_all"}, rank) == 8.0);
    }
    CHECK(value_at(r, "delay_io_n2n", {"main", "prep"}, 2) == Approx(ns(60)));
    CHECK(cube::sum_over_call_paths(r, "delay_io_n2n_aggregate", 0) == 0.0);
}
