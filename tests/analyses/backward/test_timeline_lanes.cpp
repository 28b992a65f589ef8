// The timeline's windows and lanes: which waits get a window, and what each
// rank keeps of its events there, on Figure 3's run (figure3.hpp), whose
// events, waits and critical path are known by hand.
#include <catch2/catch.hpp>

#include <vector>

#include "analyses/timeline/lane.hpp"
#include "analyses/timeline/lane_cutter.hpp"
#include "tests/analyses/builder_traces.hpp"
#include "tests/analyses/backward/backward_helpers.hpp"
#include "tests/analyses/backward/figure3.hpp"

using namespace hindsight;
using namespace hindsight::analyses;
using namespace hindsight::testing;

namespace {

// Rank `rank`'s lane of every window, in the windows' order.
std::vector<Lane> lanes_of(const AnalysisResults& r, int rank) {
    const AnalysisFindings& f = r.findings(rank);
    ByteReader in(f.timeline_lanes);
    std::vector<Lane> lanes;
    for (std::size_t w = 0; w < f.timeline_windows.size(); ++w) lanes.push_back(Lane::read(in));
    CHECK(in.empty());
    return lanes;
}

std::size_t window_of(const AnalysisFindings& f, WaitPattern pattern) {
    for (std::size_t w = 0; w < f.timeline_windows.size(); ++w)
        if (f.timeline_windows[w].wait.pattern == pattern) return w;
    FAIL("no window of the pattern");
    return 0;
}

struct Bar {
    Ticks start, end;
    std::uint32_t depth;
    std::string path;
    bool operator==(const Bar&) const = default;
};

std::vector<Bar> bars(const AnalysisResults& r, int rank, const std::vector<LaneBar>& kept) {
    std::vector<Bar> out;
    for (const LaneBar& b : kept) out.push_back({b.start, b.end, b.depth, trace::call_path_text(r.trace(rank), b.path)});
    return out;
}
std::vector<Bar> bars(const AnalysisResults& r, int rank, const Lane& lane) { return bars(r, rank, lane.bars); }

}  // namespace

TEST_CASE("timeline: windows around the longest waits of each pattern", "[timeline]") {
    AnalysisOptions options = kAllAnalyses;
    options.timeline_waits = 1;
    const AnalysisResults r(figure3_trace(), options);
    constexpr Ticks u = kUnit;
    // Every rank picked the same windows.
    for (int rank = 1; rank < 3; ++rank) {
        REQUIRE(r.findings(rank).timeline_windows.size() == r.findings(0).timeline_windows.size());
        for (std::size_t w = 0; w < r.findings(0).timeline_windows.size(); ++w)
            CHECK(r.findings(rank).timeline_windows[w].from == r.findings(0).timeline_windows[w].from);
    }
    // Of the two Late Sender waits (B 3 units in R3, C 2 units in R4) the
    // longer: B's, from 3 to 6, with half its length before and after.
    const std::size_t w = window_of(r.findings(0), WaitPattern::LateSender);
    const TimelineWindow& window = r.findings(0).timeline_windows[w];
    CHECK(window.rank == 1);
    CHECK(window.wait.start == 3 * u);
    CHECK(window.wait.waiting == 3 * u);
    CHECK(window.from == 3 * u / 2);
    CHECK(window.to == 15 * u / 2);
    // One window per pattern at most.
    for (std::size_t other = 0; other < r.findings(0).timeline_windows.size(); ++other)
        if (other != w) CHECK(r.findings(0).timeline_windows[other].wait.pattern != WaitPattern::LateSender);

    // A: in f since 1, g from 3, S3 from 6 to 7, MPI_Finalize from 7 (left
    // at 9, after the window); the path ran on A from the start until its
    // send ended B's wait, at 6.
    const Lane a = lanes_of(r, 0)[w];
    CHECK(a.from == window.from);
    CHECK(a.to == window.to);
    CHECK(bars(r, 0, a) == std::vector<Bar>{{3 * u / 2, 15 * u / 2, 0, "main"},
                                            {3 * u / 2, 3 * u, 1, "main/f"},
                                            {3 * u, 6 * u, 1, "main/g"},
                                            {6 * u, 7 * u, 1, "main/MPI_Send"},
                                            {7 * u, 15 * u / 2, 1, "main/MPI_Finalize"}});
    REQUIRE(a.sends.size() == 1);
    CHECK(a.sends[0].time == 6 * u);
    CHECK(a.sends[0].peer == 1);
    CHECK(a.receives.empty());
    CHECK(a.collectives.empty());  // MPI_Init's ended at 1, MPI_Finalize's at 9
    CHECK(a.waits.empty());
    REQUIRE(a.critical.size() == 1);
    CHECK(a.critical[0].from == 3 * u / 2);
    CHECK(a.critical[0].to == 6 * u);

    // B: h until 2, f, R3 from 3 (waiting until 6) to 7, S4 to 7.5, then
    // MPI_Finalize; the path ran on B from R3's wait's end to S4's start.
    const Lane b = lanes_of(r, 1)[w];
    CHECK(bars(r, 1, b) == std::vector<Bar>{{3 * u / 2, 15 * u / 2, 0, "main"},
                                            {3 * u / 2, 2 * u, 1, "main/h"},
                                            {2 * u, 3 * u, 1, "main/f"},
                                            {3 * u, 7 * u, 1, "main/MPI_Recv"},
                                            {7 * u, 15 * u / 2, 1, "main/MPI_Send"},
                                            {15 * u / 2, 15 * u / 2, 1, "main/MPI_Finalize"}});
    REQUIRE(b.receives.size() == 1);
    CHECK(b.receives[0].time == 7 * u);
    CHECK(b.receives[0].peer == 0);
    CHECK(b.receives[0].slot == a.sends[0].slot);  // the same message
    REQUIRE(b.sends.size() == 1);
    CHECK(b.sends[0].peer == 2);
    REQUIRE(b.waits.size() == 1);
    CHECK(b.waits[0].pattern == WaitPattern::LateSender);
    CHECK(b.waits[0].start == 3 * u);
    CHECK(b.waits[0].end == 6 * u);
    REQUIRE(b.critical.size() == 1);
    CHECK(b.critical[0].from == 6 * u);
    CHECK(b.critical[0].to == 7 * u);

    // C: in f until 3.5, g until 5, in R4 from 5 (its wait, 5 to 7, ends
    // with its receive at 8, after the window); the path runs on C from S4's
    // start (7) to the end of the window.
    const Lane c = lanes_of(r, 2)[w];
    CHECK(bars(r, 2, c) == std::vector<Bar>{{3 * u / 2, 15 * u / 2, 0, "main"},
                                            {3 * u / 2, 2 * u, 1, "main/h"},
                                            {2 * u, 7 * u / 2, 1, "main/f"},
                                            {7 * u / 2, 5 * u, 1, "main/g"},
                                            {5 * u, 15 * u / 2, 1, "main/MPI_Recv"}});
    CHECK(c.receives.empty());
    CHECK(c.waits.empty());
    REQUIRE(c.critical.size() == 1);
    CHECK(c.critical[0].from == 7 * u);
    CHECK(c.critical[0].to == 15 * u / 2);
}

TEST_CASE("timeline: a lane keeps at most its bound of events, those nearest the wait", "[timeline]") {
    // Rank 1 waits in a receive from 100 to 200 (window 50 to 250); rank 0
    // runs 60 short regions of 2 ticks from 80 to 200, then sends. With 20
    // events at most, rank 0 keeps 10 before the wait's start and 10 after.
    TraceBuilder t(2);
    auto& r0 = t.rank(0).enter(0, "main");
    for (Ticks s = 80; s < 200; s += 2) r0.region(s, s + 1, "step");
    r0.send(200, 201, 1, 1, 8).leave(300);
    t.rank(1).enter(0, "main").recv(100, 201, 0, 1, 8).leave(300);
    const std::vector<trace::LocalTrace> traces = local_traces(t);
    // The wait state, as the forward pass finds it, is not needed to cut.
    TimelineWindow window;
    window.rank = 1;
    window.wait = {WaitPattern::LateSender, kNoCallPath, 100, 100};
    window.from = 50;
    window.to = 250;
    const ForwardFacts facts = ForwardFactsBuilder().finish();
    const trace::MessageSlots slots(traces[0]);
    const LaneCutter cutter(traces[0], facts, slots, {}, 20);
    const Lane lane = cutter.cut(window);
    // Ten events before the wait's start (the steps entered at 90 ... 98)
    // and ten from there (the steps entered at 100 ... 108): main, open
    // throughout, and those ten steps.
    CHECK(lane.from == 90);
    CHECK(lane.to == 109);
    REQUIRE(lane.bars.size() == 11);
    CHECK(lane.bars[0].depth == 0);
    CHECK(lane.bars[1].start == 90);
    CHECK(lane.bars[10].start == 108);
    CHECK(lane.bars[10].end == 109);
}

TEST_CASE("timeline: of equal waits the earlier gets a window, then the lower rank's", "[timeline]") {
    // Late Sender waits of 10 ticks on rank 0 at 50 and rank 1 at 40 and 50;
    // one of 20 on rank 2 at 90; a barrier wait of 4 on rank 1.
    const std::vector<std::vector<WaitInstance>> by_rank{
        {{WaitPattern::LateSender, 1, 50, 10}},
        {{WaitPattern::LateSender, 1, 50, 10}, {WaitPattern::LateSender, 1, 40, 10}, {WaitPattern::Barrier, 2, 0, 4}},
        {{WaitPattern::LateSender, 1, 90, 20}},
    };
    const std::vector<TimelineWindow> windows = choose_windows(by_rank, 3);
    REQUIRE(windows.size() == 4);
    const auto is = [](const TimelineWindow& w, WaitPattern p, int rank, Ticks start) {
        return w.wait.pattern == p && w.rank == rank && w.wait.start == start;
    };
    CHECK(is(windows[0], WaitPattern::LateSender, 2, 90));
    CHECK(windows[0].from == 80);
    CHECK(windows[0].to == 120);
    CHECK(is(windows[1], WaitPattern::LateSender, 1, 40));
    CHECK(is(windows[2], WaitPattern::LateSender, 0, 50));
    CHECK(is(windows[3], WaitPattern::Barrier, 1, 0));
    CHECK(choose_windows(by_rank, 0).empty());
}

TEST_CASE("timeline: a lane for each OpenMP worker thread, with its visits", "[timeline][openmp]") {
    // Two ranks of two threads; MPI_Init 0-50, a parallel region forked at
    // 100 and joined at 600 on each, MPI_Finalize 650-660. In it, rank 0's
    // master works 100-300, sends 300-310 and waits in the barrier 310-590;
    // rank 1's master receives 250-320 (a Late Sender of 50, 250-300) and
    // waits in the barrier 320-590. Rank 0's worker works 110-200 and waits
    // in the barrier 200-590; rank 1's worker works 120-500, then the
    // barrier 500-590.
    const std::string parallel = "!$omp parallel @a.c:1", barrier = "!$omp implicit barrier @a.c:9";
    TraceBuilder t(2);
    t.set_threads(2);
    for (int rank = 0; rank < 2; ++rank) {
        t.rank(rank).enter(0, "main").init(0, 50).fork(100, 2).team_begin(100).enter(100, parallel);
        t.thread(rank, 1).team_begin(100).enter(100, parallel);
    }
    t.rank(0).region(100, 300, "work").send(300, 310, 1, 5, 8).region(310, 590, barrier);
    t.rank(1).recv(250, 320, 0, 5, 8).region(320, 590, barrier);
    t.thread(0, 1).region(110, 200, "work").region(200, 590, barrier);
    t.thread(1, 1).region(120, 500, "work").region(500, 590, barrier);
    for (int rank = 0; rank < 2; ++rank) {
        t.rank(rank).leave(600).team_end(600).join(600).finalize(650, 660).leave(700);
        t.thread(rank, 1).leave(600).team_end(600);
    }
    AnalysisOptions options = kAllAnalyses;
    options.timeline_waits = 1;
    const AnalysisResults r(t, options);
    // The Late Sender's window: its 50 with half of it on each side, 225
    // to 325. Each rank's lane has its worker's part: the visits open at
    // 225 from there (the region, the barrier or the work), until the end
    // of the window or their end.
    const std::size_t w = window_of(r.findings(0), WaitPattern::LateSender);
    CHECK(r.findings(0).timeline_windows[w].from == 225);
    CHECK(r.findings(0).timeline_windows[w].to == 325);
    const std::string in_region = "main/" + parallel;
    const Lane zero = lanes_of(r, 0)[w];
    REQUIRE(zero.threads.size() == 1);
    CHECK(zero.threads[0].thread == 1);
    CHECK(zero.threads[0].from == 225);
    CHECK(zero.threads[0].to == 325);
    CHECK(bars(r, 0, zero.threads[0].bars) ==
          std::vector<Bar>{{225, 325, 1, in_region}, {225, 325, 2, in_region + "/" + barrier}});
    // The master's part is the lane itself, as without threads.
    CHECK(bars(r, 0, zero) == std::vector<Bar>{{225, 325, 0, "main"},
                                               {225, 325, 1, in_region},
                                               {225, 300, 2, in_region + "/work"},
                                               {300, 310, 2, in_region + "/MPI_Send"},
                                               {310, 325, 2, in_region + "/" + barrier}});
    const Lane one = lanes_of(r, 1)[w];
    REQUIRE(one.threads.size() == 1);
    CHECK(bars(r, 1, one.threads[0].bars) ==
          std::vector<Bar>{{225, 325, 1, in_region}, {225, 325, 2, in_region + "/work"}});
}
