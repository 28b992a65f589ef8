// Leaving events out of a loaded trace: what stays must read as if the
// left-out events had never been recorded, every index renumbered.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "trace/leave_out.hpp"
#include "trace/message_slots.hpp"
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

namespace {

// Rank 0: a send (message 0), a receive posted by MPI_Irecv at 20 and
// completed in MPI_Wait at 45 (message 1), a barrier (collective 1, after
// MPI_Init), a send at 50 (message 2), an MPI_Probe at 55, a receive posted
// at 60 and completed at 75 (message 3, the probed one), a non-blocking
// allreduce started at 80 and completed in MPI_Wait at 84 (collective 2).
LocalTrace rank_zero(const ScratchDir& dir) {
    TraceBuilder t(2);
    auto& r0 = t.rank(0);
    r0.enter(0, "main").init(1, 5).send(10, 12, 1, 7, 8);
    const auto first = r0.irecv(20, 21, 1, 8, 8);
    r0.barrier(30, 35).wait(40, 45, first).send(50, 52, 1, 9, 8).region(55, 58, "MPI_Probe");
    const auto second = r0.irecv(60, 61, 1, 10, 8);
    r0.wait(70, 75, second).enter(80, "MPI_Iallreduce");
    const auto reduction = r0.nonblocking_collective_request_event(80);
    r0.leave(81).enter(82, "MPI_Wait");
    r0.nonblocking_collective_complete_event(84, reduction, OTF2_COLLECTIVE_OP_ALLREDUCE, t.world(), -1, 16, 16);
    r0.leave(85).finalize(90, 95).leave(100);
    t.rank(1).enter(0, "main").leave(100);
    t.write(dir.path());
    return load_local_trace(dir.anchor(), 0, 2).trace;
}

// The time of the Enter of the call holding each event of `kind`.
std::vector<Ticks> call_entries(const LocalTrace& trace, EventKind kind) {
    std::vector<Ticks> out;
    for (EventIndex i = 0; i < trace.events.size(); ++i)
        if (trace.events[i].kind == kind) out.push_back(EventView(trace, i).enter().time);
    return out;
}

std::vector<Ticks> times(const LocalTrace& trace, EventKind kind) {
    std::vector<Ticks> out;
    for (const Event& e : trace.events)
        if (e.kind == kind) out.push_back(e.time);
    return out;
}

}  // namespace

TEST_CASE("leaving out messages and collectives renumbers every index", "[leave_out]") {
    ScratchDir dir;
    LocalTrace trace = rank_zero(dir);
    REQUIRE(trace.messages.size() == 4);
    REQUIRE(trace.collectives.size() == 4);  // MPI_Init, the barrier, the allreduce, MPI_Finalize
    REQUIRE(trace.posted_receives.size() == 2);
    REQUIRE(trace.probed_receives.size() == 1);
    const std::size_t events = trace.events.size();

    // The first send, the first receive (with its posting) and the barrier.
    leave_out(trace, {true, true, false, false}, {false, true, false, false});

    CHECK(trace.events.size() == events - 3);
    CHECK(times(trace, EventKind::Send) == std::vector<Ticks>{50});
    CHECK(times(trace, EventKind::Recv) == std::vector<Ticks>{75});
    CHECK(times(trace, EventKind::CollectiveEnd) == std::vector<Ticks>{5, 84, 95});
    // Every Enter and its Leave still refer to each other.
    for (EventIndex i = 0; i < trace.events.size(); ++i) {
        const Event& e = trace.events[i];
        if (e.kind != EventKind::Enter) continue;
        REQUIRE(e.ref < trace.events.size());
        CHECK(trace.events[e.ref].kind == EventKind::Leave);
        CHECK(trace.events[e.ref].ref == i);
    }
    // The tables: the remaining messages and collectives, their calls.
    REQUIRE(trace.messages.size() == 2);
    CHECK(trace.messages[0].tag == 9);
    CHECK(trace.messages[1].tag == 10);
    CHECK(call_entries(trace, EventKind::Send) == std::vector<Ticks>{50});
    CHECK(call_entries(trace, EventKind::Recv) == std::vector<Ticks>{70});
    REQUIRE(trace.collectives.size() == 3);
    CHECK(call_entries(trace, EventKind::CollectiveEnd) == std::vector<Ticks>{1, 82, 90});
    // The posting of the second receive remains, the first's is gone.
    REQUIRE(trace.posted_receives.size() == 1);
    CHECK(trace.posted_receives[0].message == 1);
    for (EventIndex i = 0; i < trace.events.size(); ++i)
        if (trace.events[i].kind == EventKind::Recv) CHECK(trace.events[trace.posting_call(trace.events[i])].time == 60);
    // The allreduce's starting call, and the receive's probe.
    CHECK(trace.events[trace.collectives[1].starting_call].time == 80);
    CHECK(trace.region_of(trace.events[trace.collectives[1].starting_call].cnode).name == "MPI_Iallreduce");
    for (EventIndex i = 0; i < trace.events.size(); ++i)
        if (trace.events[i].kind == EventKind::Recv) CHECK(trace.events[trace.probing_call(trace.events[i])].time == 55);

    // Numbered anew, the slots name the events that remain.
    const MessageSlots slots(trace);
    CHECK(trace.events[slots.event(0)].time == 50);
    CHECK(trace.events[slots.event(1)].time == 75);
    CHECK(slots.sends()[1] == 1);
    CHECK(slots.receives()[1] == 1);
}

TEST_CASE("leaving out nothing changes nothing", "[leave_out]") {
    ScratchDir dir;
    LocalTrace trace = rank_zero(dir);
    const std::vector<Ticks> before = times(trace, EventKind::Enter);
    const std::size_t events = trace.events.size();
    leave_out(trace, {}, {false, false, false});
    CHECK(trace.events.size() == events);
    CHECK(times(trace, EventKind::Enter) == before);
    CHECK(trace.messages.size() == 4);
    CHECK(trace.posted_receives.size() == 2);
}

TEST_CASE("leaving out a message renumbers the polling calls of the receives", "[leave_out]") {
    ScratchDir dir;
    TraceBuilder t(2);
    // Rank 0: a send (message 0, left out), then a receive posted at 20,
    // polled for by MPI_Test at 30 and completed in MPI_Wait at 45.
    auto& r0 = t.rank(0);
    r0.enter(0, "main").send(10, 12, 1, 7, 8);
    const auto request = r0.irecv(20, 21, 1, 8, 8);
    r0.test(30, 32, request, false).wait(40, 45, request).leave(100);
    t.rank(1).enter(0, "main").leave(100);
    t.write(dir.path());
    LocalTrace trace = load_local_trace(dir.anchor(), 0, 2).trace;
    leave_out(trace, {true, false}, {});
    REQUIRE(trace.polled_receives.size() == 1);
    CHECK(trace.polled_receives[0].message == 0);
    for (EventIndex i = 0; i < trace.events.size(); ++i) {
        if (trace.events[i].kind != EventKind::Recv) continue;
        const EventIndex poll = trace.polling_call(trace.events[i]);
        REQUIRE(poll != kNoEvent);
        CHECK(trace.events[poll].time == 30);
        CHECK(trace.region_of(trace.events[poll].cnode).name == "MPI_Test");
    }
}

TEST_CASE("leaving out a message keeps the file transfers with their calls", "[leave_out][io]") {
    ScratchDir dir;
    TraceBuilder t(2);
    const IoHandle file = t.file("out.dat", t.world());
    // Rank 0: a send (message 0, left out), then an individual write of 300
    // bytes at 20 and a non-blocking read of 200 bytes completed in MPI_Wait
    // at 45.
    auto& r0 = t.rank(0).enter(0, "main").send(10, 12, 1, 7, 8);
    r0.file_io(20, 25, "MPI_File_write_at", file, false, false, 300);
    const auto request = r0.file_io_start(30, 32, "MPI_File_iread_at", file, true, false, 200);
    r0.wait(40, 45, request).leave(100);
    t.rank(1).enter(0, "main").leave(100);
    t.write(dir.path());
    LocalTrace trace = load_local_trace(dir.anchor(), 0, 2).trace;
    REQUIRE(trace.file_transfers.size() == 2);
    leave_out(trace, {true}, {});
    REQUIRE(trace.file_transfers.size() == 2);
    CHECK(region_at(trace, trace.file_transfers[0].call_enter) == "MPI_File_write_at");
    CHECK(trace.events[trace.file_transfers[0].call_enter].time == 20);
    CHECK(region_at(trace, trace.file_transfers[1].call_enter) == "MPI_Wait");
    CHECK(trace.events[trace.file_transfers[1].call_enter].time == 40);
}

TEST_CASE("collectives kept keep their receive sources", "[leave_out][sources]") {
    // Rank 0 of 2: an MPI_Alltoallv receiving from rank 1 (collective 0),
    // one receiving from nobody (1), one from both ranks (2). Leaving out
    // the first two must leave the third with its own list.
    ScratchDir dir;
    TraceBuilder t(2);
    for (int r = 0; r < 2; ++r) {
        auto& rank = t.rank(r);
        rank.enter(0, "main");
        rank.receive_sources({1 - r}).collective(10, 20, "MPI_Alltoallv", t.world(), -1, 4, 4);
        rank.receive_sources({}).collective(30, 40, "MPI_Alltoallv", t.world(), -1, 0, 0);
        rank.receive_sources({0, 1}).collective(50, 60, "MPI_Alltoallv", t.world(), -1, 8, 8);
        rank.leave(100);
    }
    t.write(dir.path());
    LocalTrace trace = load_local_trace(dir.anchor(), 0, 2).trace;
    REQUIRE(trace.collectives.size() == 3);
    leave_out(trace, {}, {true, true});
    REQUIRE(trace.collectives.size() == 1);
    REQUIRE(trace.collectives[0].sources != Collective::kNoSources);
    const std::span<const int> kept = trace.sources(trace.collectives[0]);
    CHECK(std::vector<int>(kept.begin(), kept.end()) == std::vector<int>{0, 1});
}

TEST_CASE("leaving out a message renumbers the calls of one-sided communication", "[leave_out][rma]") {
    ScratchDir dir;
    TraceBuilder t(2);
    const auto win = t.window(t.world());
    // Rank 0: a send (message 0, left out), then a put at 20 completed by
    // the fence at 40, a post at 50, a lock at 60.
    auto& r0 = t.rank(0);
    r0.enter(0, "main").send(10, 12, 1, 7, 8).put(20, 22, win, 1, 8).win_fence(30, 40, win);
    r0.win_post(50, 52, win, {1}).win_lock(60, 62, win, 1, false).leave(100);
    t.rank(1).enter(0, "main").win_fence(30, 40, win).leave(100);
    t.write(dir.path());
    LocalTrace trace = load_local_trace(dir.anchor(), 0, 2).trace;
    leave_out(trace, {true}, {});
    const auto entered = [&](EventIndex call) { return trace.events[call].time; };
    REQUIRE(trace.rma.transfers.size() == 1);
    CHECK(entered(trace.rma.transfers[0].call_enter) == 20);
    CHECK(entered(trace.rma.transfers[0].completing_call) == 30);
    REQUIRE(trace.rma.group_syncs.size() == 1);
    CHECK(entered(trace.rma.group_syncs[0].call_enter) == 50);
    REQUIRE(trace.rma.locks.size() == 1);
    CHECK(entered(trace.rma.locks[0].call_enter) == 60);
}
