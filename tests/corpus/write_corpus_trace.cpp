// Writes one of the builder traces of the input corpus (run_corpus.py says
// what the analyzer must make of each):
//
//     write_corpus_trace NAME DIR
//
// Times are in ns. "good" is the trace the corpus damages byte by byte:
// rank 1 waits in MPI_Recv from 20 until rank 0 sends at 50, a Late Sender
// of 30 ns.
#include <cstdint>
#include <functional>
#include <iostream>
#include <map>
#include <string>

#include "common/error.hpp"
#include "tests/support/trace_builder.hpp"

namespace {

using hindsight::testing::TraceBuilder;
using Scenario = std::function<void(const std::string& dir)>;

// The Late Sender of "good" inside a region called `region` on both ranks.
void late_sender(const std::string& dir, const std::string& region, std::uint64_t global_offset = 0) {
    TraceBuilder t(2);
    t.set_global_offset(global_offset);
    const auto at = [&](std::int64_t ns) { return static_cast<std::int64_t>(global_offset) + ns; };
    t.rank(0).enter(at(0), region).init(at(1), at(5)).send(at(50), at(60), 1, 7, 1024).finalize(at(90), at(95)).leave(at(100));
    t.rank(1).enter(at(0), region).init(at(1), at(5)).recv(at(20), at(70), 0, 7, 1024).finalize(at(90), at(95)).leave(at(100));
    t.write(dir);
}

const std::map<std::string, Scenario>& scenarios() {
    static const std::map<std::string, Scenario> all = {
        {"good", [](const std::string& dir) { late_sender(dir, "main"); }},
        // "good" as a run of `/apps/solver --grid 64` started on
        // 2026-11-27 at 08:30:00 UTC would record it: its PROGRAM_BEGIN and
        // PROGRAM_END around everything, and the start in the clock.
        {"named-run",
         [](const std::string& dir) {
             TraceBuilder t(2);
             t.set_program_name("/apps/solver");
             t.set_start_time(1'795'768'200'000'000'000);
             for (int r = 0; r < 2; ++r) t.rank(r).program_begin(0, {"--grid", "64"}).enter(0, "main").init(1, 5);
             t.rank(0).send(50, 60, 1, 7, 1024);
             t.rank(1).recv(20, 70, 0, 7, 1024);
             for (int r = 0; r < 2; ++r) t.rank(r).finalize(90, 95).leave(100).program_end(100);
             t.write(dir);
         }},
        // Ranks enter the barrier at 10, 20, 30, 40 and all leave at 50:
        // 30 + 20 + 10 ns of Wait at Barrier on ranks 0, 1, 2.
        {"good4",
         [](const std::string& dir) {
             TraceBuilder t(4);
             for (int r = 0; r < 4; ++r)
                 t.rank(r).enter(0, "main").init(1, 5).barrier(10 * (r + 1), 50).finalize(90, 95).leave(100);
             t.write(dir);
         }},
        // Names that are not valid UTF-8: "über" in Latin-1, and a
        // noncharacter (U+FFFE).
        {"latin1-name", [](const std::string& dir) { late_sender(dir, "\xFC" "ber"); }},
        {"noncharacter-name", [](const std::string& dir) { late_sender(dir, "work\xEF\xBF\xBE"); }},
        // Timestamps far from zero but near the global offset are fine.
        {"large-global-offset",
         [](const std::string& dir) { late_sender(dir, "main", std::uint64_t{1} << 62); }},
        // Each rank receives before it sends what the other waits for: no
        // run of a program records this.
        {"cyclic-order",
         [](const std::string& dir) {
             TraceBuilder t(2);
             t.rank(0).enter(0, "main").recv(10, 20, 1, 1, 8).send(30, 40, 1, 2, 8).leave(50);
             t.rank(1).enter(0, "main").recv(10, 20, 0, 2, 8).send(30, 40, 0, 1, 8).leave(50);
             t.write(dir);
         }},
        // A broadcast whose root, 2^31, is negative as a 32-bit int.
        {"root-2-31",
         [](const std::string& dir) {
             TraceBuilder t(2);
             for (int r = 0; r < 2; ++r) {
                 t.rank(r).enter(0, "main").enter(10, "MPI_Bcast").collective_begin_event(10);
                 t.rank(r).collective_end_event_raw_root(20 + r, OTF2_COLLECTIVE_OP_BCAST, t.world(),
                                                         std::uint32_t{1} << 31, 8, 8);
                 t.rank(r).leave(30).leave(40);
             }
             t.write(dir);
         }},
        {"rank-without-events",
         [](const std::string& dir) {
             TraceBuilder t(2);
             t.rank(0).enter(0, "main").leave(10);
             t.write(dir);
         }},
        {"far-timestamps",
         [](const std::string& dir) {
             TraceBuilder t(2);
             const std::int64_t far = std::int64_t{1} << 62;
             for (int r = 0; r < 2; ++r) t.rank(r).enter(0, "main").leave(far);
             t.write(dir);
         }},
        {"far-clock-offset",
         [](const std::string& dir) {
             TraceBuilder t(2);
             for (int r = 0; r < 2; ++r) t.rank(r).enter(0, "main").leave(10);
             t.rank(1).clock_offset(0, std::int64_t{1} << 62);
             t.write(dir);
         }},
        // Rank 0 sends two messages, rank 1 takes one.
        {"unmatched",
         [](const std::string& dir) {
             TraceBuilder t(2);
             t.rank(0).enter(0, "main").init(10, 20).send(30, 40, 1, 5, 64).send(50, 60, 1, 5, 64).finalize(70, 80).leave(90);
             t.rank(1).enter(0, "main").init(10, 20).recv(30, 45, 0, 5, 64).finalize(70, 80).leave(90);
             t.write(dir);
         }},
        {"tag-mismatch",
         [](const std::string& dir) {
             TraceBuilder t(2);
             t.rank(0).enter(0, "main").send(30, 40, 1, 7, 64).leave(90);
             t.rank(1).enter(0, "main").recv(30, 45, 0, 8, 64).leave(90);
             t.write(dir);
         }},
        // The Late Sender of "good" received with MPI_Irecv and MPI_Wait
        // (waiting from 20 to the send at 50), the completion naming request
        // 99, which was never posted: damaged.
        {"unposted-irecv",
         [](const std::string& dir) {
             TraceBuilder t(2);
             t.rank(0).enter(0, "main").init(1, 5).send(50, 60, 1, 7, 1024).finalize(90, 95).leave(100);
             auto& r1 = t.rank(1);
             r1.enter(0, "main").init(1, 5).enter(10, "MPI_Irecv");
             (void)r1.irecv_request_event(10);
             r1.leave(12).enter(20, "MPI_Wait").irecv_event_raw_request(70, 99, 0, 7, 1024).leave(70);
             r1.finalize(90, 95).leave(100);
             t.write(dir);
         }},
        // "good" with the send made by MPI_Isend, whose MPI_Wait completes
        // request 7, which no MPI_ISEND started.
        {"unstarted-isend-complete",
         [](const std::string& dir) {
             TraceBuilder t(2);
             auto& r0 = t.rank(0);
             r0.enter(0, "main").init(1, 5).enter(50, "MPI_Isend");
             (void)r0.isend_event(50, 1, 7, 1024);
             r0.leave(52).enter(55, "MPI_Wait").isend_complete_event_raw_request(60, 7).leave(60);
             r0.finalize(90, 95).leave(100);
             t.rank(1).enter(0, "main").init(1, 5).recv(20, 70, 0, 7, 1024).finalize(90, 95).leave(100);
             t.write(dir);
         }},
        // "good" followed by a barrier (entered at 72 and 76, left at 80)
        // whose MPI_COLLECTIVE_END records are lost on both ranks.
        {"collective-begin-without-end",
         [](const std::string& dir) {
             TraceBuilder t(2);
             t.rank(0).enter(0, "main").init(1, 5).send(50, 60, 1, 7, 1024);
             t.rank(1).enter(0, "main").init(1, 5).recv(20, 70, 0, 7, 1024);
             for (int r = 0; r < 2; ++r) {
                 const std::int64_t enter = 72 + 4 * r;
                 t.rank(r).enter(enter, "MPI_Barrier").collective_begin_event(enter).leave(80);
                 t.rank(r).finalize(90, 95).leave(100);
             }
             t.write(dir);
         }},
        {"collective-count-mismatch",
         [](const std::string& dir) {
             TraceBuilder t(2);
             t.rank(0).enter(0, "main").barrier(10, 20).barrier(30, 40).leave(90);
             t.rank(1).enter(0, "main").barrier(10, 20).leave(90);
             t.write(dir);
         }},
    };
    return all;
}

}  // namespace

int main(int argc, char** argv) {
    const auto scenario = argc == 3 ? scenarios().find(argv[1]) : scenarios().end();
    if (scenario == scenarios().end()) {
        std::cerr << "usage: write_corpus_trace NAME DIR; NAME one of";
        for (const auto& [name, write] : scenarios()) std::cerr << ' ' << name;
        std::cerr << '\n';
        return 2;
    }
    try {
        scenario->second(argv[2]);
    } catch (const hindsight::Error& e) {
        std::cerr << "write_corpus_trace: " << e.what() << '\n';
        return 1;
    }
    return 0;
}
