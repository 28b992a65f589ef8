// The trace loader on builder traces: what each OTF2 record becomes in the
// event store (see trace/event.hpp and the builder's placement rules).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "trace/trace_loader.hpp"
#include "tests/support/scorep_intercommunicator.hpp"
#include "tests/support/scratch_dir.hpp"
#include "tests/support/trace_builder.hpp"

using namespace hindsight;
using namespace hindsight::trace;
using hindsight::testing::ScratchDir;
using hindsight::testing::TraceBuilder;

namespace {

// Rank 0 sends a blocking and a non-blocking message to rank 1, then both
// take part in a broadcast and a barrier, all inside main with MPI_Init and
// MPI_Finalize.
void write_exchange(const ScratchDir& dir) {
    TraceBuilder t(2);
    auto& r0 = t.rank(0);
    r0.enter(0, "main").init(5, 10).send(30, 40, 1, 7, 100);
    const auto req0 = r0.isend(50, 55, 1, 8, 200);
    r0.wait(60, 70, req0).bcast(80, 90, 0, 64).barrier(91, 93).finalize(95, 98).leave(100);
    auto& r1 = t.rank(1);
    r1.enter(0, "main").init(5, 12).recv(20, 45, 0, 7, 100);
    const auto req1 = r1.irecv(46, 47, 0, 8, 200);
    r1.wait(48, 75, req1).bcast(85, 90, 0, 64).barrier(91, 93).finalize(96, 98).leave(100);
    t.write(dir.path());
}

std::string region(const LocalTrace& trace, EventIndex i) { return trace.region_of(trace.events[i].cnode).name; }

// Region names from the root down to the event's call path, joined by '/'.
std::string path(const LocalTrace& trace, EventIndex i) { return call_path_text(trace, trace.events[i].cnode); }

}  // namespace

TEST_CASE("the loader turns a receiver's records into events with links and side tables", "[loader]") {
    ScratchDir dir;
    write_exchange(dir);
    const LoadedTrace loaded = load_local_trace(dir.anchor(), 1, 2);
    const LocalTrace& t = loaded.trace;
    using K = EventKind;
    // Derived from the builder's placement rules: MPI_IRECV_REQUEST and
    // MPI_COLLECTIVE_BEGIN leave no event; MPI_Init and MPI_Finalize get a
    // collective just before their LEAVE.
    const std::vector<std::pair<K, Ticks>> expected{
        {K::Enter, 0},  {K::Enter, 5},   {K::CollectiveEnd, 12}, {K::Leave, 12},  {K::Enter, 20},
        {K::Recv, 45},  {K::Leave, 45},  {K::Enter, 46},         {K::Leave, 47},  {K::Enter, 48},
        {K::Recv, 75},  {K::Leave, 75},  {K::Enter, 85},         {K::CollectiveEnd, 90},
        {K::Leave, 90}, {K::Enter, 91},  {K::CollectiveEnd, 93}, {K::Leave, 93},  {K::Enter, 96},
        {K::CollectiveEnd, 98},          {K::Leave, 98},         {K::Leave, 100}};
    REQUIRE(t.events.size() == expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        INFO("event " << i);
        CHECK(t.events[i].kind == expected[i].first);
        CHECK(t.events[i].time == expected[i].second);
    }
    CHECK(t.rank == 1);

    SECTION("call paths follow the nesting") {
        CHECK(path(t, 0) == "main");
        CHECK(path(t, 1) == "main/MPI_Init");
        CHECK(path(t, 5) == "main/MPI_Recv");
        CHECK(path(t, 10) == "main/MPI_Wait");
        CHECK(path(t, 21) == "main");
        CHECK(t.events[4].cnode == t.events[5].cnode);  // the Recv is in MPI_Recv's call path
    }
    SECTION("Enter and Leave point at each other") {
        const std::vector<std::pair<EventIndex, EventIndex>> pairs{{0, 21}, {1, 3}, {4, 6}, {7, 8}, {9, 11},
                                                                   {12, 14}, {15, 17}, {18, 20}};
        for (auto [enter, leave] : pairs) {
            CHECK(t.events[enter].ref == leave);
            CHECK(t.events[leave].ref == enter);
        }
    }
    SECTION("receives carry their envelope and the enclosing call") {
        const Message& blocking = t.message(t.events[5]);
        CHECK(blocking.partner == 0);
        CHECK(blocking.tag == 7);
        CHECK(blocking.bytes == 100);
        CHECK(blocking.call_enter == 4);
        CHECK_FALSE(blocking.nonblocking);
        CHECK(t.definitions.communicators[blocking.comm].name == "MPI_COMM_WORLD");
        // The MPI_Irecv completes inside MPI_Wait.
        const Message& irecv = t.message(t.events[10]);
        CHECK(irecv.tag == 8);
        CHECK(irecv.bytes == 200);
        CHECK(irecv.call_enter == 9);
        CHECK(irecv.nonblocking);
        CHECK(region(t, 10) == "MPI_Wait");
        CHECK(EventView(t, 10).leave_index() == 11);
    }
    SECTION("receives know the call that posted them") {
        // A blocking receive is posted by its own call; the MPI_Irecv's
        // receive by the MPI_Irecv (Enter 7), not the MPI_Wait completing it.
        CHECK(t.posting_call(t.events[5]) == 4);
        CHECK(t.posting_call(t.events[10]) == 7);
        CHECK(region(t, 7) == "MPI_Irecv");
        REQUIRE(t.posted_receives.size() == 1);
        CHECK(t.posted_receives[0].message == t.events[10].ref);
    }
    SECTION("collectives carry operation, root and bytes") {
        const Collective& init = t.collective(t.events[2]);
        CHECK(init.op == CollectiveOp::Init);
        CHECK(init.root == -1);
        CHECK(init.call_enter == 1);
        const Collective& bcast = t.collective(t.events[13]);
        CHECK(bcast.op == CollectiveOp::Bcast);
        CHECK(bcast.root == 0);
        CHECK(bcast.bytes_received == 64);
        CHECK(bcast.bytes_sent == 0);
        CHECK(bcast.call_enter == 12);
        const Collective& barrier = t.collective(t.events[16]);
        CHECK(barrier.op == CollectiveOp::Barrier);
        CHECK(barrier.root == -1);  // OTF2_UNDEFINED_UINT32
        CHECK(t.collective(t.events[19]).op == CollectiveOp::Finalize);
        CHECK(t.definitions.communicators[init.comm].name == "MPI_COMM_WORLD");
    }
    SECTION("nothing was skipped or fixed up") {
        CHECK(loaded.stats.other_skipped == 0);
        CHECK(loaded.stats.metric_records == 0);
        CHECK(loaded.stats.timestamp_fixups == 0);
        CHECK(loaded.stats.first_time == 0);
        CHECK(loaded.stats.last_time == 100);
    }
}

TEST_CASE("the loader marks sends, blocking or not", "[loader]") {
    ScratchDir dir;
    write_exchange(dir);
    const LocalTrace t = load_local_trace(dir.anchor(), 0, 2).trace;
    // main, Init(enter, coll, leave), Send(enter, send, leave), Isend(enter, send, leave), ...
    REQUIRE(t.events[5].kind == EventKind::Send);
    const Message& blocking = t.message(t.events[5]);
    CHECK(blocking.partner == 1);
    CHECK(blocking.tag == 7);
    CHECK_FALSE(blocking.nonblocking);
    CHECK(t.events[5].time == 30);  // MPI_SEND at the call's enter
    REQUIRE(t.events[8].kind == EventKind::Send);
    const Message& isend = t.message(t.events[8]);
    CHECK(isend.nonblocking);
    CHECK(isend.bytes == 200);
    CHECK(region(t, 8) == "MPI_Isend");
    CHECK(t.messages.size() == 2);
}

TEST_CASE("the loader places non-blocking collectives where they complete, started where their request is",
          "[loader]") {
    ScratchDir dir;
    TraceBuilder t(2);
    for (int r = 0; r < 2; ++r) {
        auto& rank = t.rank(r);
        rank.enter(0, "main").init(5, 10).enter(20, "MPI_Ibcast");
        const auto request = rank.nonblocking_collective_request_event(21);
        rank.leave(22).enter(40, "MPI_Wait");
        rank.nonblocking_collective_complete_event(45, request, OTF2_COLLECTIVE_OP_BCAST, hindsight::testing::kWorld, 1,
                                                   r == 1 ? 16 : 0, 8);
        rank.leave(46).finalize(95, 98).leave(100);
    }
    t.write(dir.path());
    const auto loaded = load_local_trace(dir.anchor(), 0, 2);
    const LocalTrace& trace = loaded.trace;
    // MPI_Init's and MPI_Finalize's synchronizations around the broadcast.
    REQUIRE(trace.collectives.size() == 3);
    const Collective& bcast = trace.collectives[1];
    CHECK(bcast.op == CollectiveOp::Bcast);
    CHECK(bcast.nonblocking);
    CHECK(bcast.root == 1);
    CHECK(bcast.bytes_sent == 0);
    CHECK(bcast.bytes_received == 8);
    CHECK(path(trace, bcast.call_enter) == "main/MPI_Wait");
    CHECK(path(trace, bcast.starting_call) == "main/MPI_Ibcast");
    CHECK(bcast.begin == 21);  // the request
    CHECK(bcast.started_as == 1);
    CHECK(trace.collectives[2].started_as == 2);
    // Its event stands in MPI_Wait, at the completion.
    const auto event = std::find_if(trace.events.begin(), trace.events.end(), [&](const Event& e) {
        return e.kind == EventKind::CollectiveEnd && e.ref == 1;
    });
    REQUIRE(event != trace.events.end());
    CHECK(event->time == 45);
    CHECK(loaded.stats.other_skipped == 0);
    CHECK(loaded.stats.damage.empty());
}

TEST_CASE("the loader numbers collectives in the order they were started, per communicator", "[loader]") {
    // Two MPI_Iallreduce started in the order a, b, completed b, a by one
    // MPI_Waitall, a barrier in between on a communicator of its own.
    ScratchDir dir;
    TraceBuilder t(2);
    const auto half = t.communicator({0, 1}, t.world(), "half");
    for (int r = 0; r < 2; ++r) {
        auto& rank = t.rank(r);
        rank.enter(0, "main").init(1, 2).enter(10, "MPI_Iallreduce");
        const auto a = rank.nonblocking_collective_request_event(11);
        rank.leave(12).barrier(13, 14, half).enter(20, "MPI_Iallreduce");
        const auto b = rank.nonblocking_collective_request_event(21);
        rank.leave(22).enter(30, "MPI_Waitall");
        rank.nonblocking_collective_complete_event(31, b, OTF2_COLLECTIVE_OP_ALLREDUCE, hindsight::testing::kWorld, -1,
                                                   8, 8);
        rank.nonblocking_collective_complete_event(32, a, OTF2_COLLECTIVE_OP_ALLREDUCE, hindsight::testing::kWorld, -1,
                                                   8, 8);
        rank.leave(33).finalize(40, 41).leave(50);
    }
    t.write(dir.path());
    const LocalTrace trace = load_local_trace(dir.anchor(), 1, 2).trace;
    // Init, barrier, b, a, Finalize in event order.
    REQUIRE(trace.collectives.size() == 5);
    CHECK(trace.collectives[0].started_as == 0);  // MPI_Init on MPI_COMM_WORLD
    CHECK(trace.collectives[1].started_as == 0);  // the first on "half"
    CHECK(trace.collectives[2].started_as == 2);  // b, started after a
    CHECK(trace.collectives[3].started_as == 1);  // a
    CHECK(trace.collectives[4].started_as == 3);  // MPI_Finalize
}

TEST_CASE("the loader pairs receive requests with their completions", "[loader]") {
    ScratchDir dir;
    TraceBuilder t(2);
    auto& r0 = t.rank(0);
    r0.enter(0, "main").send(10, 11, 1, 1, 8).send(12, 13, 1, 2, 8).send(14, 15, 1, 3, 8).leave(100);
    auto& r1 = t.rank(1);
    r1.enter(0, "main");
    // A cancelled request; two completed by one MPI_Waitall in the other
    // order; one posted by MPI_Start (a persistent request).
    r1.enter(20, "MPI_Irecv");
    const auto cancelled = r1.irecv_request_event(20);
    r1.leave(21).enter(22, "MPI_Cancel").request_cancelled_event(22, cancelled).leave(23);
    const auto a = r1.irecv(30, 31, 0, 1, 8);
    const auto b = r1.irecv(32, 33, 0, 2, 8);
    r1.waitall(40, 50, {b, a});
    r1.enter(55, "MPI_Start");
    const auto started = r1.irecv_request_event(55);
    r1.leave(56).enter(60, "MPI_Wait").irecv_event(61, started, 0, 3, 8).leave(62).leave(100);
    t.write(dir.path());
    const LocalTrace trace = load_local_trace(dir.anchor(), 1, 2).trace;
    std::vector<EventIndex> recvs;
    for (EventIndex i = 0; i < trace.events.size(); ++i)
        if (trace.events[i].kind == EventKind::Recv) recvs.push_back(i);
    REQUIRE(recvs.size() == 3);
    // MPI_Waitall completes b (tag 2) first, then a (tag 1).
    CHECK(trace.message(trace.events[recvs[0]]).tag == 2);
    CHECK(trace.events[trace.posting_call(trace.events[recvs[0]])].time == 32);
    CHECK(trace.events[trace.posting_call(trace.events[recvs[1]])].time == 30);
    CHECK(path(trace, trace.posting_call(trace.events[recvs[1]])) == "main/MPI_Irecv");
    CHECK(path(trace, trace.posting_call(trace.events[recvs[2]])) == "main/MPI_Start");
    CHECK(trace.posted_receives.size() == 3);
}

TEST_CASE("clock offsets are interpolated between the first and the last measurement", "[loader][clock]") {
    ScratchDir dir;
    TraceBuilder t(2);
    t.set_global_offset(1000);
    t.rank(0).enter(1000, "main").leave(2000);
    // Rank 1's clock is 100 ticks behind at 1000 and 300 behind at 2000.
    t.rank(1).clock_offset(1000, 100).clock_offset(2000, 300);
    t.rank(1).enter(1000, "main").region(1500, 1600, "work").leave(2000);
    t.write(dir.path());

    const LocalTrace r0 = load_local_trace(dir.anchor(), 0, 2).trace;
    CHECK(r0.events.front().time == 0);  // no offsets: only the global offset goes
    CHECK(r0.events.back().time == 1000);
    const LocalTrace r1 = load_local_trace(dir.anchor(), 1, 2).trace;
    REQUIRE(r1.events.size() == 4);
    CHECK(r1.events[0].time == 100);        // 1000 + 100 - 1000
    CHECK(r1.events[1].time == 500 + 200);  // halfway: offset 200
    CHECK(r1.events[2].time == 600 + 220);
    CHECK(r1.events[3].time == 1000 + 300);
}

TEST_CASE("a clock correction that runs backwards is clamped and counted", "[loader][clock]") {
    ScratchDir dir;
    TraceBuilder t(1);
    // Offset falls by 500 ticks over 100: corrected time would go back.
    t.rank(0).clock_offset(0, 0).clock_offset(100, -500);
    t.rank(0).enter(0, "main").leave(100);
    t.write(dir.path());
    const LoadedTrace loaded = load_local_trace(dir.anchor(), 0, 1);
    CHECK(loaded.trace.events[1].time == 0);
    CHECK(loaded.stats.timestamp_fixups == 1);
}

TEST_CASE("ClockCorrection: none, one and two measurements", "[clock]") {
    ClockCorrection none(10);
    CHECK(none.apply(25) == 15);
    ClockCorrection one(0);
    one.add_offset(500, -7);
    CHECK(one.apply(0) == -7);
    CHECK(one.apply(10'000) == 9'993);
    ClockCorrection two(0);
    two.add_offset(2000, 50);  // given out of order
    two.add_offset(1000, 10);
    CHECK(two.apply(1500) == 1530);
    CHECK(two.apply(3000) == 3090);  // the line extends past the last one
}

TEST_CASE("the loader refuses what it cannot analyze, naming the file", "[loader][errors]") {
    ScratchDir dir;
    write_exchange(dir);
    SECTION("a different number of ranks") {
        REQUIRE_THROWS_WITH(load_local_trace(dir.anchor(), 0, 3),
                            Catch::Contains(dir.anchor()) && Catch::Contains("has 2 MPI ranks"));
    }
    SECTION("a missing archive") {
        const auto missing = (dir.path() / "nothing" / "traces.otf2").string();
        REQUIRE_THROWS_WITH(load_local_trace(missing, 0, 2), Catch::Contains(missing) && Catch::Contains("no such file"));
    }
    SECTION("a file that is no archive") {
        const auto garbage = (dir.path() / "garbage.otf2").string();
        std::ofstream(garbage) << "this is not an OTF2 anchor file\n";
        REQUIRE_THROWS_WITH(load_local_trace(garbage, 0, 2), Catch::StartsWith(garbage + ": "));
    }
    SECTION("a truncated event file") {
        const auto evt = dir.path() / "traces" / "1.evt";
        std::filesystem::resize_file(evt, std::filesystem::file_size(evt) / 2);
        REQUIRE_THROWS_WITH(load_local_trace(dir.anchor(), 1, 2), Catch::StartsWith(evt.string() + ": "));
    }
    SECTION("a tag no MPI program can use") {
        // OTF2 stores tags as unsigned 32-bit numbers; MPI's are non-negative ints.
        ScratchDir odd;
        TraceBuilder t(2);
        t.rank(0).enter(0, "main").send(10, 20, 1, 0x80000000u, 8).leave(30);
        t.rank(1).enter(0, "main").recv(5, 25, 0, 0x80000000u, 8).leave(30);
        t.write(odd.path());
        REQUIRE_THROWS_WITH(load_local_trace(odd.anchor(), 0, 2),
                            Catch::StartsWith(odd.anchor() + ": ") && Catch::Contains("tag 2147483648"));
    }
}

TEST_CASE("Score-P's program region becomes the call tree's root", "[loader][scorep]") {
    const char* data = std::getenv("HINDSIGHT_TESTDATA");
    REQUIRE(data != nullptr);
    const std::string anchor = std::string(data) + "/scorep-pingpong/traces.otf2";
    const LoadedTrace loaded = load_local_trace(anchor, 0, 2);
    const LocalTrace& t = loaded.trace;
    // otf2-print: 60 records on location 0; PROGRAM_BEGIN/END become the
    // program region's Enter/Leave, MPI_Init and MPI_Finalize each gain a
    // collective: 62 events.
    REQUIRE(t.events.size() == 62);
    CHECK(t.events.front().kind == EventKind::Enter);
    CHECK(t.events.back().kind == EventKind::Leave);
    CHECK(path(t, 0) == "ping-pong.otf2");
    CHECK(t.call_tree.node(t.events[0].cnode).parent == kNoCallPath);
    CHECK(path(t, 1) == "ping-pong.otf2/int main(int, char**)");
    CHECK(t.events.front().ref == t.events.size() - 1);
    CHECK(t.events.front().time == 7397466977622557 - 7397466976977800);  // PROGRAM_BEGIN, clock offset 0
    CHECK(t.messages.size() == 16);  // 8 sends, 8 receives
    CHECK(t.collectives.size() == 2);
    CHECK(loaded.stats.other_skipped == 0);
    // What ran, as otf2-print shows it: the creator, the program without
    // arguments, no date (the trace predates OTF2 3.0's realtime stamp).
    CHECK(t.definitions.origin.creator == "Score-P 7.1");
    CHECK(t.program == "/g/g92/bhatele1/umd/traces/score-p/ping-pong.otf2");
    CHECK(t.program_arguments.empty());
    CHECK_FALSE(t.definitions.origin.start_unix_ns);
}

TEST_CASE("the loader keeps what ran: the program's call, the trace's creator and start", "[loader]") {
    ScratchDir dir;
    TraceBuilder t(2);
    t.set_program_name("/apps/solver");
    t.set_start_time(1'796'000'000'123'456'789);
    // Arguments may repeat each other and the program's name, and be empty.
    const std::vector<std::string> arguments{"--grid", "64", "64", "/apps/solver", "", "a b"};
    for (int r = 0; r < 2; ++r) t.rank(r).program_begin(0, arguments).enter(1, "main").leave(9).program_end(10);
    t.write(dir.path());
    const LoadedTrace loaded = load_local_trace(dir.anchor(), 1, 2);
    CHECK(loaded.trace.program == "/apps/solver");
    CHECK(loaded.trace.program_arguments == arguments);
    CHECK(loaded.trace.definitions.origin.creator == "Hindsight trace builder");
    CHECK(loaded.trace.definitions.origin.start_unix_ns == 1'796'000'000'123'456'789u);
}

TEST_CASE("METRIC records are skipped and counted", "[loader][scorep]") {
    const char* data = std::getenv("HINDSIGHT_TESTDATA");
    REQUIRE(data != nullptr);
    const LoadedTrace loaded = load_local_trace(std::string(data) + "/scorep-pingpong-papi/traces.otf2", 1, 2);
    CHECK(loaded.stats.metric_records == 42);  // 84 METRIC records over 2 locations, one per ENTER/LEAVE
    CHECK(loaded.stats.other_skipped == 0);
}

TEST_CASE("the loader gives the receive call after a blocking probe that probe", "[loader]") {
    ScratchDir dir;
    TraceBuilder t(2);
    t.rank(0).enter(0, "main").send(10, 11, 1, 1, 8).send(12, 13, 1, 2, 8).send(14, 15, 1, 3, 8)
        .send(16, 17, 1, 4, 8).send(18, 19, 1, 5, 8).send(20, 21, 1, 6, 8).leave(200);
    // MPI_Probe, then two receives (only the first is the probed one), then
    // MPI_Mprobe and MPI_Mrecv; a probe of MPI_PROC_NULL and its receive,
    // which record no message, so that the next receive was probed by
    // nobody; MPI_Mprobe and MPI_Imrecv, completed by MPI_Wait after a
    // receive of another message.
    auto& r1 = t.rank(1);
    r1.enter(0, "main").region(20, 30, "MPI_Probe").recv(31, 32, 0, 1, 8).recv(33, 34, 0, 2, 8)
        .region(40, 41, "MPI_Mprobe").enter(42, "MPI_Mrecv").recv_event(43, 0, 3, 8).leave(44)
        .region(50, 51, "MPI_Mprobe").region(52, 53, "MPI_Mrecv").recv(60, 61, 0, 4, 8)
        .region(70, 71, "MPI_Mprobe").enter(72, "MPI_Imrecv");
    const auto imrecv = r1.irecv_request_event(72);
    r1.leave(73).recv(75, 76, 0, 6, 8).enter(80, "MPI_Wait").irecv_event(81, imrecv, 0, 5, 8).leave(82).leave(200);
    t.write(dir.path());
    const LocalTrace trace = load_local_trace(dir.anchor(), 1, 2).trace;
    std::vector<std::string> probes;
    for (const Event& e : trace.events) {
        if (e.kind != EventKind::Recv) continue;
        const EventIndex probe = trace.probing_call(e);
        probes.push_back(probe == kNoEvent ? "-" : path(trace, probe) + "@" + std::to_string(trace.events[probe].time));
    }
    CHECK(probes ==
          std::vector<std::string>{"main/MPI_Probe@20", "-", "main/MPI_Mprobe@40", "-", "-", "main/MPI_Mprobe@70"});
}

TEST_CASE("the loader reads Score-P's intercommunicators: peers in the other group, no root", "[loader]") {
    // scorep_intercommunicator.hpp: rank 0 sends to rank 1 of the other
    // group (world rank 3), rank 2 to its rank 1 (world rank 1); an MPI_Bcast
    // with Score-P's roots ("self", "this group", the root's rank).
    ScratchDir dir;
    const TraceBuilder t = hindsight::testing::scorep_intercommunicator_trace();
    t.write(dir.path());
    const int peer_of[] = {3, 2, 1, 0};
    for (int r = 0; r < 4; ++r) {
        INFO("rank " << r);
        const auto loaded = load_local_trace(dir.anchor(), r, 4);
        REQUIRE(loaded.trace.messages.size() == 1);
        CHECK(loaded.slots.peer(0) == peer_of[r]);
        // MPI_Init, the broadcast, MPI_Finalize.
        REQUIRE(loaded.trace.collectives.size() == 3);
        CHECK(loaded.trace.collectives[1].op == CollectiveOp::Bcast);
        CHECK(loaded.trace.collectives[1].root == -1);
    }
}

TEST_CASE("the loader gives a receive polled for its first polling call", "[loader]") {
    ScratchDir dir;
    TraceBuilder t(2);
    auto& r0 = t.rank(0);
    r0.enter(0, "main");
    for (std::uint32_t tag = 1; tag <= 5; ++tag) r0.send(tag, tag, 1, tag, 8);
    r0.leave(100);
    auto& r1 = t.rank(1);
    r1.enter(0, "main");
    const auto a = r1.irecv(10, 11, 0, 1, 8);
    const auto b = r1.irecv(12, 13, 0, 2, 8);
    // MPI_Testany over both requests: a full unsuccessful call, the summed
    // calls after it, then the call completing the first request, which
    // takes those polls; the second request's polling begins anew after it.
    r1.enter(20, "MPI_Testany").request_test_event(21, a).request_test_event(21, b).leave(21)
        .region(22, 30, "MPI_Testany")
        .enter(31, "MPI_Testany").irecv_event(32, a, 0, 1, 8).leave(32)
        .enter(33, "MPI_Testany").request_test_event(34, b).leave(34)
        .wait(35, 40, b);
    // A receive nobody polled for.
    const auto c = r1.irecv(41, 42, 0, 3, 8);
    r1.wait(43, 45, c);
    // MPI_Iprobe polls before a receive; the receive after it polled nothing.
    r1.region(50, 51, "MPI_Iprobe").region(52, 53, "MPI_Iprobe").recv(54, 55, 0, 4, 8).recv(56, 57, 0, 5, 8)
        .leave(100);
    t.write(dir.path());
    const LocalTrace trace = load_local_trace(dir.anchor(), 1, 2).trace;
    std::vector<std::string> polls;
    for (const Event& e : trace.events) {
        if (e.kind != EventKind::Recv) continue;
        const EventIndex poll = trace.polling_call(e);
        polls.push_back(poll == kNoEvent ? "-" : path(trace, poll) + "@" + std::to_string(trace.events[poll].time));
    }
    CHECK(polls == std::vector<std::string>{"main/MPI_Testany@20", "main/MPI_Testany@33", "-", "main/MPI_Iprobe@50",
                                            "-"});
}

namespace {

// An MPI_Alltoallv among world ranks 3, 1 and 0 (communicator ranks 0, 1,
// 2: not world order), in which communicator rank 0 receives from rank 2,
// rank 1 from none and rank 2 from ranks 0 and 1 (given in another order);
// the same again; a barrier of all four without sources; an MPI_Alltoallv
// whose sources name world rank 2, no member; and an MPI_Ialltoallv in
// which each receives from every other member.
void write_alltoallv_sources(const ScratchDir& dir) {
    TraceBuilder t(4);
    const auto sub = t.communicator({3, 1, 0}, t.world(), "sub");
    const std::vector<std::vector<int>> sources{{2}, {}, {1, 0}};
    const std::vector<std::vector<int>> others{{1, 2}, {0, 2}, {0, 1}};
    for (int world : {3, 1, 0}) {
        const int r = t.comms().rank_of(sub, world);
        auto& rank = t.rank(world);
        rank.enter(0, "main");
        rank.receive_sources(sources[r]).collective(10, 20, "MPI_Alltoallv", sub, -1, 8, 8);
        rank.receive_sources(sources[r]).collective(30, 40, "MPI_Alltoallv", sub, -1, 8, 8);
        rank.barrier(50, 60);
        rank.receive_sources_raw_world_ranks({2}).collective(70, 80, "MPI_Alltoallv", sub, -1, 8, 8);
        rank.enter(90, "MPI_Ialltoallv");
        const auto request = rank.nonblocking_collective_request_event(91);
        rank.leave(92).enter(100, "MPI_Wait");
        rank.receive_sources(others[r])
            .nonblocking_collective_complete_event(110, request, OTF2_COLLECTIVE_OP_ALLTOALLV, sub, -1, 16, 16);
        rank.leave(110).leave(200);
    }
    t.rank(2).enter(0, "main").barrier(50, 60).leave(200);
    t.write(dir.path());
}

// The sources of each collective of a rank, in table order; "none" where
// the trace gives none.
std::vector<std::string> sources_text(const LocalTrace& t) {
    std::vector<std::string> texts;
    for (const Collective& c : t.collectives) {
        if (c.sources == Collective::kNoSources) {
            texts.push_back("none");
            continue;
        }
        std::string text = "{";
        for (const int r : t.sources(c)) text += (text.size() > 1 ? "," : "") + std::to_string(r);
        texts.push_back(text + "}");
    }
    return texts;
}

}  // namespace

TEST_CASE("the loader reads the receive sources of collectives as communicator ranks", "[loader][sources]") {
    ScratchDir dir;
    write_alltoallv_sources(dir);
    using V = std::vector<std::string>;
    // World rank 0 is communicator rank 2; the damaged list (world rank 2 is
    // no member) and the barrier have none.
    const LoadedTrace r0 = load_local_trace(dir.anchor(), 0, 4);
    CHECK(sources_text(r0.trace) == V{"{0,1}", "{0,1}", "none", "none", "{0,1}"});
    // One list, kept once, for both Alltoallv and the Ialltoallv.
    CHECK(r0.trace.source_lists.size() == 1);
    CHECK(r0.trace.collectives[0].sources == r0.trace.collectives[1].sources);
    CHECK(r0.trace.collectives[4].nonblocking);

    // World rank 3 is communicator rank 0: received from rank 2 (world rank
    // 0), then from ranks 1 and 2.
    const LoadedTrace r3 = load_local_trace(dir.anchor(), 3, 4);
    CHECK(sources_text(r3.trace) == V{"{2}", "{2}", "none", "none", "{1,2}"});
    CHECK(r3.trace.source_lists == std::vector<std::vector<int>>{{2}, {1, 2}});

    // World rank 1 received nothing: an empty list, which is not "none".
    const LoadedTrace r1 = load_local_trace(dir.anchor(), 1, 4);
    CHECK(sources_text(r1.trace) == V{"{}", "{}", "none", "none", "{0,2}"});

    // No member of the communicator: a barrier of its own.
    const LoadedTrace r2 = load_local_trace(dir.anchor(), 2, 4);
    CHECK(sources_text(r2.trace) == V{"none"});
    CHECK(r2.trace.source_lists.empty());
}

TEST_CASE("a trace without the receive-sources attribute gives no collective sources", "[loader][sources]") {
    ScratchDir dir;
    write_exchange(dir);
    const LoadedTrace loaded = load_local_trace(dir.anchor(), 0, 2);
    for (const Collective& c : loaded.trace.collectives) CHECK(c.sources == Collective::kNoSources);
    CHECK(loaded.trace.source_lists.empty());
}
