// The MPI replay engine on builder traces, run with several ranks: payloads
// reach the recorded partners, replies come back,
// collective exchanges compute what they promise on the mirrored
// communicators, and pairing leaves out the messages and collectives that
// do not pair up, agreeing on both sides which.
#define CATCH_CONFIG_RUNNER
// Catch's own implementation (compiled here for the MPI-aware main below)
// trips a false positive of GCC 12 in sanitizer builds.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <catch2/catch.hpp>
#pragma GCC diagnostic pop

#include <mpi.h>

#include <algorithm>
#include <array>
#include <map>
#include <numeric>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "common/error.hpp"
#include "replay/batched_collectives.hpp"
#include "replay/call_tree_unification.hpp"
#include "replay/communicator_mirror.hpp"
#include "replay/mpi_engine.hpp"
#include "replay/pairing.hpp"
#include "trace/trace_loader.hpp"
#include "tests/support/scratch_dir.hpp"
#include "tests/support/trace_builder.hpp"

using namespace hindsight;
using namespace hindsight::replay;
using namespace hindsight::trace;
using hindsight::testing::TraceBuilder;

namespace {

int world_rank() {
    int r = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}
int world_size() {
    int n = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    return n;
}

// A directory every rank sees: rank 0 creates it and shares its path.
class SharedScratch {
public:
    SharedScratch() {
        std::string path;
        if (world_rank() == 0) {
            dir_.emplace();
            path = dir_->path().string();
        }
        int length = static_cast<int>(path.size());
        MPI_Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD);
        path.resize(static_cast<std::size_t>(length));
        MPI_Bcast(path.data(), length, MPI_CHAR, 0, MPI_COMM_WORLD);
        path_ = path;
    }
    ~SharedScratch() { MPI_Barrier(MPI_COMM_WORLD); }  // nobody still reads when rank 0 removes it
    std::string anchor() const { return path_ + "/traces.otf2"; }
    std::string path() const { return path_; }

private:
    std::optional<hindsight::testing::ScratchDir> dir_;
    std::string path_;
};

// How the tests wait for the other ranks, as the analyzer does.
ProgressWatch test_watch() { return ProgressWatch(std::chrono::seconds(60), spin_budget(MPI_COMM_WORLD)); }

// Writes the builder's trace on rank 0 and loads each rank's share.
LocalTrace load(const TraceBuilder& builder, const SharedScratch& dir) {
    if (world_rank() == 0) builder.write(dir.path());
    MPI_Barrier(MPI_COMM_WORLD);
    LocalTrace trace = load_local_trace(dir.anchor(), world_rank(), world_size()).trace;
    ProgressWatch watch = test_watch();
    unify_call_trees(trace, MPI_COMM_WORLD, watch);
    return trace;
}

constexpr Ticks send_time(int r) { return 1000 + 10 * r; }
constexpr Ticks recv_time(int r) { return 2000 + 10 * r; }

// A ring: rank r sends to r+1 (tag 10+r); rank 0 sends before it receives,
// all others receive first, so that every send's receiver has reached its
// receive when the reply is asked for. Then a broadcast from rank 1 on
// MPI_COMM_WORLD and an allreduce on a communicator holding the last and the
// first rank, in that order.
TraceBuilder ring_scenario(int n) {
    TraceBuilder t(n);
    const auto pair = t.communicator({n - 1, 0}, t.world(), "last and first");
    for (int r = 0; r < n; ++r) {
        auto& b = t.rank(r);
        const int next = (r + 1) % n, prev = (r + n - 1) % n;
        b.enter(0, "main").init(10, 20);
        if (r == 0) {
            b.send(send_time(r), send_time(r) + 5, next, 10 + static_cast<std::uint32_t>(r), 8);
            b.recv(recv_time(r) - 5, recv_time(r), prev, 10 + static_cast<std::uint32_t>(prev), 8);
        } else {
            b.recv(recv_time(r) - 1000, recv_time(r), prev, 10 + static_cast<std::uint32_t>(prev), 8);
            b.send(send_time(r) + 2000, send_time(r) + 2005, next, 10 + static_cast<std::uint32_t>(r), 8);
        }
        b.bcast(5000, 5100, 1, 16);
        if (r == 0 || r == n - 1) b.allreduce(5200, 5300, 8, pair);
        b.finalize(6000, 6100).leave(7000);
    }
    return t;
}

// What every exchange operation computes, on the collective's communicator:
// used by observers of passes message by message and of batched passes.
// Counts the exchanges that ran to their end in `completed`.
CollectiveTask check_collective_exchange(const EventView& v, CollectiveChannel& x, int& completed) {
    const auto members = v.trace().definitions.world_ranks(v.collective().comm);
    REQUIRE(x.size() == static_cast<int>(members.size()));
    REQUIRE(members[static_cast<std::size_t>(x.rank())] == v.trace().rank);
    for (int i = 0; i < x.size(); ++i) CHECK(x.world_rank(i) == members[static_cast<std::size_t>(i)]);

    std::array<double, 2> sums{static_cast<double>(v.trace().rank + 1), 1.0};
    co_await x.allreduce(sums, ReduceOp::Sum);
    double expected = 0;
    for (int m : members) expected += m + 1;
    CHECK(sums[0] == expected);
    CHECK(sums[1] == x.size());

    const RankedValue max = co_await x.allreduce_maxloc(v.trace().rank);
    const auto max_it = std::max_element(members.begin(), members.end());
    CHECK(max.value == *max_it);
    CHECK(max.rank == max_it - members.begin());
    const RankedValue min = co_await x.allreduce_minloc(1.0);  // a tie: the lowest rank wins
    CHECK(min.value == 1.0);
    CHECK(min.rank == 0);

    // Ranks 0 and 1 offer 0, ranks 2 and 3 offer 1, ...: the maximum up to
    // a rank is its own value, first offered by the even rank of its pair.
    const RankedValue prefix_max = co_await x.scan_maxloc(x.rank() / 2);
    CHECK(prefix_max.value == x.rank() / 2);
    CHECK(prefix_max.rank == x.rank() / 2 * 2);

    std::array<double, 1> prefix{1.0};
    co_await x.exscan(prefix, ReduceOp::Sum);
    CHECK(prefix[0] == (x.rank() == 0 ? 1.0 : x.rank()));

    std::array<double, 1> reduced{1.0};
    co_await x.reduce_sum(reduced, 0);
    CHECK(reduced[0] == (x.rank() == 0 ? x.size() : 1.0));

    std::vector<double> data;
    const int root = x.size() - 1;
    if (x.rank() == root) data.assign(static_cast<std::size_t>(x.size() + 1), 7.0);
    co_await x.broadcast(data, root);
    CHECK(data == std::vector<double>(static_cast<std::size_t>(x.size() + 1), 7.0));
    ++completed;
}

// Checks what arrives: the sender's rank and send time; replies, the
// replier's rank.
class CheckingObserver final : public ReplayObserver {
public:
    explicit CheckingObserver(std::vector<int> partners_world) : world_(std::move(partners_world)) {}

    int unpacked = 0, replies = 0, collectives = 0, exchanged = 0;

    replay::Participation participation() const override {
        return {.payloads = replay::Payloads::FromPass, .replies = true, .collectives = true};
    }
    void pack(const EventView& v, PayloadWriter& w) override {
        w.put<std::int32_t>(v.trace().rank);
        w.put<Ticks>(v.time());
    }
    void unpack(const EventView& v, PayloadReader& r) override {
        const auto from = r.get<std::int32_t>();
        const auto time = r.get<Ticks>();
        CHECK(from == world_[static_cast<std::size_t>(v.message().partner)]);
        CHECK(v.kind() == EventKind::Recv);
        CHECK(time == (from == 0 ? send_time(0) : send_time(from) + 2000));  // the sender's MPI_SEND
        ++unpacked;
    }
    bool needs_reply(const EventView&) const override { return true; }
    void pack_reply(const EventView& v, PayloadWriter& w) override { w.put<std::int32_t>(1000 + v.trace().rank); }
    void unpack_reply(const EventView& v, PayloadReader& r) override {
        CHECK(r.get<std::int32_t>() == 1000 + world_[static_cast<std::size_t>(v.message().partner)]);
        ++replies;
    }
    CollectiveTask on_collective(const EventView& v, CollectiveChannel& x) override {
        ++collectives;
        return check_collective_exchange(v, x, exchanged);
    }

private:
    std::vector<int> world_;  // world rank of each MPI_COMM_WORLD rank (identity)
};

// The ring scenario on this run's ranks, loaded, checked and ready to replay.
// The ring needs two ranks at least.
int ring_ranks() {
    REQUIRE(world_size() >= 2);
    return world_size();
}

// Paired: everything of the ring's trace pairs up.
struct RingReplay {
    RingReplay() : trace(load(ring_scenario(ring_ranks()), dir)), mirror(trace, MPI_COMM_WORLD, watch) {
        INFO(pairing.problem.value_or(""));
        REQUIRE_FALSE(pairing.problem);
        REQUIRE(pairing.unpaired.empty());
    }

    SharedScratch dir;
    ProgressWatch watch = test_watch();
    LocalTrace trace;
    MessageSlots slots{trace};
    const Pairing pairing = pair_traces(trace, slots, MPI_COMM_WORLD, watch);
    const CommunicatorMirror mirror;
    MpiReplayEngine engine{trace, slots, mirror, watch};
};

}  // namespace

TEST_CASE("payloads, replies and collective exchanges reach the recorded partners", "[engine][mpi]") {
    RingReplay ring;
    const int n = world_size();
    MpiReplayEngine& engine = ring.engine;
    std::vector<int> identity(static_cast<std::size_t>(n));
    std::iota(identity.begin(), identity.end(), 0);
    CheckingObserver observer(identity);
    std::array<ReplayObserver*, 1> observers{&observer};

    const int rank = world_rank();
    const int expected_collectives = 3 + ((rank == 0 || rank == n - 1) ? 1 : 0);  // init, bcast, finalize (+ pair)
    engine.run("test pass", observers);
    CHECK(observer.unpacked == 1);
    CHECK(observer.replies == 1);
    CHECK(observer.collectives == expected_collectives);
    CHECK(observer.exchanged == observer.collectives);
}

// Packs the same as CheckingObserver, but declares it packs trace data only
// (the engine then exchanges the payloads in bulk and batches the collective
// exchanges) or, with `silent`, packs nothing from the pass (its unpack then
// gets an empty reader) and ignores Enters and Leaves.
class BulkObserver final : public ReplayObserver {
public:
    BulkObserver(std::vector<int> partners_world, bool silent)
        : world_(std::move(partners_world)), silent_(silent) {}

    int unpacked = 0, empty = 0, collectives = 0, exchanged = 0, regions_seen = 0;

    replay::Participation participation() const override {
        return {.enters = !silent_,
                .leaves = !silent_,
                .payloads = silent_ ? replay::Payloads::FromPass : replay::Payloads::FromTrace,
                .collectives = true};
    }
    void on_enter(const EventView&) override { ++regions_seen; }
    void on_leave(const EventView&) override { ++regions_seen; }
    void pack(const EventView& v, PayloadWriter& w) override {
        if (silent_) return;
        w.put<std::int32_t>(v.trace().rank);
        w.put<Ticks>(v.time());
    }
    void unpack(const EventView& v, PayloadReader& r) override {
        if (r.empty()) {
            ++empty;
            return;
        }
        const auto from = r.get<std::int32_t>();
        const auto time = r.get<Ticks>();
        CHECK(from == world_[static_cast<std::size_t>(v.message().partner)]);
        CHECK(time == (from == 0 ? send_time(0) : send_time(from) + 2000));
        ++unpacked;
    }
    CollectiveTask on_collective(const EventView& v, CollectiveChannel& x) override {
        ++collectives;
        return check_collective_exchange(v, x, exchanged);
    }

private:
    std::vector<int> world_;
    bool silent_;
};

TEST_CASE("payloads in bulk, and empty parts beside another observer's", "[engine][mpi]") {
    RingReplay ring;
    const int n = world_size();
    MpiReplayEngine& engine = ring.engine;
    std::vector<int> identity(static_cast<std::size_t>(n));
    std::iota(identity.begin(), identity.end(), 0);

    BulkObserver bulk(identity, false);
    std::array<ReplayObserver*, 1> bulk_pass{&bulk};
    engine.run("test pass", bulk_pass);
    CHECK(bulk.unpacked == 1);
    CHECK(bulk.empty == 0);
    const int rank = world_rank();
    const int collectives = 3 + ((rank == 0 || rank == n - 1) ? 1 : 0);  // init, bcast, finalize (+ pair)
    CHECK(bulk.collectives == collectives);
    CHECK(bulk.exchanged == bulk.collectives);
    // main, the send's and the receive's calls and every collective's call
    // (MPI_Init and MPI_Finalize included): an Enter and a Leave each.
    CHECK(bulk.regions_seen == 2 * (3 + collectives));

    // Mixed with an observer that does not pack trace data only: message by
    // message, and the silent one gets empty readers where the other writes.
    BulkObserver silent(identity, true);
    CheckingObserver checking(identity);
    std::array<ReplayObserver*, 2> mixed{&silent, &checking};
    engine.run("test pass", mixed);
    CHECK(silent.empty == 1);
    CHECK(silent.regions_seen == 0);
    CHECK(checking.unpacked == 1);
    CHECK(checking.replies == 1);
}

namespace {

// Rank r sends three messages to r+1 with tags 3, 1, 2 and receives three
// from r-1 with tags 1, 2, 3, so that the order of the events differs from
// the order of the message slots on both sides.
TraceBuilder tags_scenario(int n) {
    TraceBuilder t(n);
    const std::array<std::uint32_t, 3> send_tags{3, 1, 2}, recv_tags{1, 2, 3};
    for (int r = 0; r < n; ++r) {
        auto& b = t.rank(r);
        b.enter(0, "main").init(10, 20);
        for (std::size_t k = 0; k < 3; ++k) b.send(100 + 10 * Ticks(k), 105 + 10 * Ticks(k), (r + 1) % n, send_tags[k], 8);
        for (std::size_t k = 0; k < 3; ++k) b.recv(200 + 10 * Ticks(k), 205 + 10 * Ticks(k), (r + n - 1) % n, recv_tags[k], 8);
        b.finalize(300, 310).leave(400);
    }
    return t;
}

// Leaves a note (its rank and the message's tag) at every message except
// those of tag 2, and records where notes arrive.
class NoteObserver final : public ReplayObserver {
public:
    std::vector<EventIndex> noted;  // packing events that got a note, in order of arrival

    replay::Participation participation() const override { return {.notes = true}; }
    void write_note(const EventView& v, PayloadWriter& w) override {
        if (v.message().tag == 2) return;
        w.put<std::int32_t>(v.trace().rank);
        w.put<std::uint32_t>(v.message().tag);
    }
    void read_note(const EventView& v, PayloadReader& r) override {
        CHECK(r.get<std::int32_t>() == v.message().partner);  // MPI_COMM_WORLD: ranks are world ranks
        CHECK(r.get<std::uint32_t>() == v.message().tag);
        noted.push_back(v.index());
    }
};

// Packs state, not trace data: a pass with it goes message by message.
class StatefulObserver final : public ReplayObserver {
public:
    replay::Participation participation() const override { return {.payloads = replay::Payloads::FromPass}; }
};

// The sends of `trace` in pass order whose tag is not 2.
std::vector<EventIndex> expected_notes(const LocalTrace& trace) {
    std::vector<EventIndex> events;
    for (EventIndex i = 0; i < trace.events.size(); ++i) {
        const Event& e = trace.events[i];
        if (e.kind == EventKind::Send && trace.messages[e.ref].tag != 2) events.push_back(i);
    }
    return events;
}

}  // namespace

TEST_CASE("notes reach their packing events after the pass, in pass order", "[engine][mpi]") {
    const int n = world_size();
    REQUIRE(n >= 2);
    SharedScratch dir;
    LocalTrace trace = load(tags_scenario(n), dir);
    ProgressWatch watch = test_watch();
    MessageSlots slots(trace);
    const Pairing pairing = pair_traces(trace, slots, MPI_COMM_WORLD, watch);
    REQUIRE_FALSE(pairing.problem);
    REQUIRE(pairing.unpaired.empty());
    const CommunicatorMirror mirror(trace, MPI_COMM_WORLD, watch);
    MpiReplayEngine engine(trace, slots, mirror, watch);

    const std::vector<EventIndex> expected = expected_notes(trace);
    REQUIRE(expected.size() == 2);

    NoteObserver batched;
    std::array<ReplayObserver*, 1> batched_pass{&batched};
    engine.run("test pass", batched_pass);
    CHECK(batched.noted == expected);

    NoteObserver one_by_one;
    StatefulObserver stateful;
    std::array<ReplayObserver*, 2> one_by_one_pass{&stateful, &one_by_one};
    engine.run("test pass", one_by_one_pass);
    CHECK(one_by_one.noted == expected);
}

TEST_CASE("waits for other ranks complete together, or end in a clear error after the timeout", "[progress][mpi]") {
    const int n = world_size(), me = world_rank();
    ProgressWatch watch = test_watch();
    int sum = me, highest = me;
    watch.complete<2>("two reductions", [&](auto& r) {
        MPI_Iallreduce(MPI_IN_PLACE, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[0]);
        MPI_Iallreduce(MPI_IN_PLACE, &highest, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &r[1]);
    });
    CHECK(sum == n * (n - 1) / 2);
    CHECK(highest == n - 1);

    // A receive nobody matches: the wait gives up after the timeout and
    // says what it waited for.
    ProgressWatch impatient(std::chrono::milliseconds(200), spin_budget(MPI_COMM_WORLD));
    int value = 0;
    MPI_Request never = MPI_REQUEST_NULL;
    MPI_Irecv(&value, 1, MPI_INT, 0, 7, MPI_COMM_SELF, &never);
    std::string message;
    try {
        impatient.wait(never, [] { return std::string("a message nobody sends"); });
    } catch (const Error& e) {
        message = e.what();
    }
    CHECK(message == "the analysis made no progress for 0.2 s: a message nobody sends "
                     "(the trace may be inconsistent, or a rank has stopped)");
    MPI_Cancel(&never);
    MPI_Wait(&never, MPI_STATUS_IGNORE);
}

TEST_CASE("stall detection: a rank working longer than the timeout keeps the others waiting", "[progress][mpi]") {
    using namespace std::chrono_literals;
    ProgressWatch watch(200ms, spin_budget(MPI_COMM_WORLD));
    watch.detect_stalls(MPI_COMM_WORLD);
    // Rank 0 computes for five timeouts without a call to MPI, as rank 0
    // writing a large report does; the others wait for it meanwhile.
    if (world_rank() == 0) {
        const auto until = std::chrono::steady_clock::now() + 1s;
        while (std::chrono::steady_clock::now() < until) {
        }
    }
    CHECK_NOTHROW(watch.complete("rank 0 to finish", [&](auto& r) { MPI_Ibarrier(MPI_COMM_WORLD, &r[0]); }));
}

TEST_CASE("stall detection: every rank waiting for what nobody sends ends in a clear error", "[progress][mpi]") {
    using namespace std::chrono_literals;
    ProgressWatch watch(200ms, spin_budget(MPI_COMM_WORLD));
    watch.detect_stalls(MPI_COMM_WORLD);
    int value = 0;
    MPI_Request never = MPI_REQUEST_NULL;
    MPI_Irecv(&value, 1, MPI_INT, 0, 7, MPI_COMM_SELF, &never);
    std::string message;
    try {
        watch.wait(never, [] { return std::string("a message nobody sends"); });
    } catch (const Error& e) {
        message = e.what();
    }
    CHECK(message == "the analysis made no progress for 0.2 s: a message nobody sends "
                     "(every rank waits for another: the trace may be inconsistent)");
    MPI_Cancel(&never);
    MPI_Wait(&never, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
}

namespace {

// Pairs the loaded trace; the problem must be none.
struct Paired {
    Paired(const TraceBuilder& t, const SharedScratch& dir) : trace(load(t, dir)), slots(trace) {
        ProgressWatch watch = test_watch();
        pairing = pair_traces(trace, slots, MPI_COMM_WORLD, watch);
        INFO(pairing.problem.value_or(""));
        REQUIRE_FALSE(pairing.problem);
    }
    // This rank's records, as (kind, from, to, count), with the call path's
    // region.
    std::vector<std::tuple<Unpairing, int, int, std::uint32_t, std::string>> found() const {
        std::vector<std::tuple<Unpairing, int, int, std::uint32_t, std::string>> out;
        for (const Unpaired& u : pairing.unpaired)
            out.emplace_back(u.kind, u.from, u.to, u.count, trace.region_of(u.cnode).name);
        return out;
    }
    // The times of this rank's Send (or Recv) events.
    std::vector<Ticks> times(EventKind kind) const {
        std::vector<Ticks> out;
        for (const Event& e : trace.events)
            if (e.kind == kind) out.push_back(e.time);
        return out;
    }
    LocalTrace trace;
    MessageSlots slots;
    Pairing pairing;
};

// Passes each send's time to its receive (a payload that must arrive) and
// takes part in every collective.
class PassingObserver final : public ReplayObserver {
public:
    int unpacked = 0, collectives = 0;

    replay::Participation participation() const override {
        return {.payloads = replay::Payloads::FromPass, .collectives = true};
    }
    void pack(const EventView& v, PayloadWriter& w) override { w.put<Ticks>(v.time()); }
    void unpack(const EventView&, PayloadReader& r) override {
        static_cast<void>(r.get<Ticks>());
        ++unpacked;
    }
    CollectiveTask on_collective(const EventView&, CollectiveChannel&) override {
        ++collectives;
        co_return;
    }
};

// Replays the paired trace: a pass in which every message and collective
// synchronizes must end, with every receive and collective left seen.
void replays(const Paired& paired) {
    ProgressWatch watch = test_watch();
    const CommunicatorMirror mirror(paired.trace, MPI_COMM_WORLD, watch);
    MpiReplayEngine engine(paired.trace, paired.slots, mirror, watch);
    PassingObserver observer;
    std::array<ReplayObserver*, 1> observers{&observer};
    engine.run("paired", observers);
    CHECK(observer.unpacked == static_cast<int>(paired.times(EventKind::Recv).size()));
    CHECK(observer.collectives == static_cast<int>(paired.trace.collectives.size()));
}

}  // namespace

TEST_CASE("pairing: a send without a receive is left out on the sender's side only", "[pairing][mpi]") {
    const int n = world_size();
    SharedScratch dir;
    TraceBuilder t(n);
    for (int r = 0; r < n; ++r) t.rank(r).enter(0, "main");
    t.rank(0).send(10, 20, 1, 3, 8).send(30, 40, 1, 3, 8);
    t.rank(1).recv(10, 40, 0, 3, 8);
    for (int r = 0; r < n; ++r) t.rank(r).leave(100);
    const Paired p(t, dir);
    using Found = decltype(p.found());
    if (world_rank() == 0) {
        // The first send pairs (MPI matches in order), the second goes.
        CHECK(p.found() == Found{{Unpairing::NoReceive, 0, 1, 1, "MPI_Send"}});
        CHECK(p.times(EventKind::Send) == std::vector<Ticks>{10});
        CHECK(p.trace.messages.size() == 1);
        CHECK(p.slots.sends()[1] == 1);
    } else {
        CHECK(p.found().empty());
    }
    if (world_rank() == 1) CHECK(p.times(EventKind::Recv) == std::vector<Ticks>{40});
    // The calls stay: rank 0's two MPI_Send calls, each an Enter and its Leave.
    for (EventIndex i = 0; i < p.trace.events.size(); ++i) {
        const Event& e = p.trace.events[i];
        if (e.kind == EventKind::Enter) CHECK(p.trace.events[e.ref].ref == i);
    }
    if (world_rank() == 0) CHECK(p.trace.events.size() == 2 + 2 * 2 + 1);
    replays(p);
}

TEST_CASE("pairing: differing tags leave out the send and the receive", "[pairing][mpi]") {
    const int n = world_size();
    SharedScratch dir;
    TraceBuilder t(n);
    for (int r = 0; r < n; ++r) t.rank(r).enter(0, "main");
    t.rank(0).send(10, 20, 1, 3, 8);
    t.rank(1).recv(10, 40, 0, 4, 8);
    for (int r = 0; r < n; ++r) t.rank(r).leave(100);
    const Paired p(t, dir);
    using Found = decltype(p.found());
    if (world_rank() == 0) CHECK(p.found() == Found{{Unpairing::NoReceive, 0, 1, 1, "MPI_Send"}});
    if (world_rank() == 1) CHECK(p.found() == Found{{Unpairing::NoSend, 0, 1, 1, "MPI_Recv"}});
    if (world_rank() > 1) CHECK(p.found().empty());
    CHECK(p.trace.messages.empty());
    replays(p);
}

TEST_CASE("pairing: messages of differing sizes pair, with a warning from the receiver", "[pairing][mpi]") {
    const int n = world_size();
    SharedScratch dir;
    TraceBuilder t(n);
    for (int r = 0; r < n; ++r) t.rank(r).enter(0, "main");
    // The same sizes in another order differ too.
    t.rank(0).send(10, 20, 1, 3, 8).send(30, 40, 1, 3, 16);
    t.rank(1).recv(10, 20, 0, 3, 16).recv(30, 40, 0, 3, 8);
    for (int r = 0; r < n; ++r) t.rank(r).leave(100);
    const Paired p(t, dir);
    using Found = decltype(p.found());
    if (world_rank() == 1) CHECK(p.found() == Found{{Unpairing::SizesDiffer, 0, 1, 2, "MPI_Recv"}});
    else CHECK(p.found().empty());
    if (world_rank() < 2) CHECK(p.trace.messages.size() == 2);
    replays(p);
}

TEST_CASE("pairing: a collective missing on one rank leaves out the communicator's collectives", "[pairing][mpi]") {
    const int n = world_size();
    SharedScratch dir;
    TraceBuilder t(n);
    for (int r = 0; r < n; ++r) t.rank(r).enter(0, "main").init(1, 5).barrier(10, 20);
    t.rank(n - 1).barrier(30, 40);
    t.rank(0).send(50, 60, n - 1, 2, 8);
    t.rank(n - 1).recv(50, 60, 0, 2, 8);
    for (int r = 0; r < n; ++r) t.rank(r).finalize(70, 80).leave(100);
    const Paired p(t, dir);
    using Found = decltype(p.found());
    // MPI_Init and MPI_Finalize are collectives of MPI_COMM_WORLD too; the
    // rank with most records them (rank n - 1), the lowest with fewest
    // (rank 0), are named by every member.
    const std::uint32_t barriers = world_rank() == n - 1 ? 2 : 1;
    CHECK(p.found() == Found{{Unpairing::Collectives, n - 1, 0, 1, "MPI_Init"},
                             {Unpairing::Collectives, n - 1, 0, barriers, "MPI_Barrier"},
                             {Unpairing::Collectives, n - 1, 0, 1, "MPI_Finalize"}});
    CHECK(p.trace.collectives.empty());
    for (const Event& e : p.trace.events) CHECK(e.kind != EventKind::CollectiveEnd);
    // The message stays.
    if (world_rank() == 0 || world_rank() == n - 1) CHECK(p.trace.messages.size() == 1);
    replays(p);
}

namespace {

// Every rank sends to itself and receives it afterwards (a periodic
// boundary on one rank), and rank 0 sends to rank n - 1; with
// `receive_first`, rank 0 then receives a message from itself that it
// sends only later.
TraceBuilder messages_to_oneself(int n, bool receive_first) {
    TraceBuilder t(n);
    for (int r = 0; r < n; ++r) t.rank(r).enter(0, "main").sendrecv(10, 20, r, 4, 8, r, 4, 8);
    t.rank(0).send(30, 40, n - 1, 3, 8);
    t.rank(n - 1).recv(30, 50, 0, 3, 8);
    if (receive_first) t.rank(0).recv(60, 70, 0, 9, 8).send(80, 90, 0, 9, 8);
    for (int r = 0; r < n; ++r) t.rank(r).leave(100);
    return t;
}

}  // namespace

TEST_CASE("pairing: messages to oneself pair, a receive before its own send is left out", "[pairing][mpi]") {
    const int n = world_size();
    for (const bool receive_first : {false, true}) {
        SharedScratch dir;
        const Paired p(messages_to_oneself(n, receive_first), dir);
        using Found = decltype(p.found());
        if (receive_first && world_rank() == 0) {
            CHECK(p.found() == Found{{Unpairing::ImpossibleOrder, 0, 0, 1, "MPI_Recv"}});
            // Left: the message of the sendrecv to itself and the one to n - 1.
            CHECK(p.times(EventKind::Send) == std::vector<Ticks>{10, 30});
            CHECK(p.times(EventKind::Recv) == std::vector<Ticks>{20});
        } else {
            CHECK(p.found().empty());
        }
        replays(p);
    }
}

TEST_CASE("pairing: two ranks that each receive before sending what the other waits for", "[pairing][mpi]") {
    const int n = world_size();
    SharedScratch dir;
    TraceBuilder t(n);
    for (int r = 0; r < n; ++r) t.rank(r).enter(0, "main");
    // Rank 0 waits for tag 1 before it sends tag 2, rank 1 for tag 2 before
    // it sends tag 1; then a ping-pong in a possible order (tags 5, 6).
    t.rank(0).recv(10, 20, 1, 1, 8).send(30, 40, 1, 2, 8).send(50, 60, 1, 5, 8).recv(70, 80, 1, 6, 8);
    t.rank(1).recv(10, 20, 0, 2, 8).send(30, 40, 0, 1, 8).recv(50, 60, 0, 5, 8).send(70, 80, 0, 6, 8);
    for (int r = 0; r < n; ++r) t.rank(r).leave(100);
    const Paired p(t, dir);
    using Found = decltype(p.found());
    // The lower rank checks the pair and leaves out its receive of tag 1;
    // rank 1 its send of tag 1. Tag 2 can then have been sent before it was
    // received: no message waits for the other any more.
    if (world_rank() == 0) {
        CHECK(p.found() == Found{{Unpairing::ImpossibleOrder, 1, 0, 1, "MPI_Recv"}});
        CHECK(p.times(EventKind::Recv) == std::vector<Ticks>{80});
    } else {
        CHECK(p.found().empty());
    }
    if (world_rank() == 1) CHECK(p.times(EventKind::Send) == std::vector<Ticks>{70});
    replays(p);
}

namespace {

// Passes message by message (it packs from the pass) and exchanges a
// fixed-size broadcast at the broadcast only, nothing at the other
// collectives.
class FixedBroadcastObserver final : public ReplayObserver {
public:
    int broadcasts = 0, others = 0;

    replay::Participation participation() const override {
        return {.payloads = replay::Payloads::FromPass, .collectives = true};
    }
    CollectiveTask on_collective(const EventView& v, CollectiveChannel& x) override {
        if (v.collective().op != CollectiveOp::Bcast) {
            ++others;
            co_return;
        }
        std::array<double, 3> data{0.0, 0.0, 0.0};
        if (x.rank() == v.collective().root) data = {1.0, 2.0, 3.0};
        co_await x.broadcast_fixed(data, v.collective().root);
        CHECK(data == std::array<double, 3>{1.0, 2.0, 3.0});
        ++broadcasts;
    }
};

}  // namespace

TEST_CASE("fixed-size collective exchanges in a pass message by message", "[engine][mpi]") {
    RingReplay ring;
    const int n = world_size();
    FixedBroadcastObserver observer;
    std::array<ReplayObserver*, 1> observers{&observer};
    ring.engine.run("test pass", observers);
    const int rank = world_rank();
    CHECK(observer.broadcasts == 1);
    CHECK(observer.others == 2 + ((rank == 0 || rank == n - 1) ? 1 : 0));  // init, finalize (+ pair)
}

TEST_CASE("rounds get the exchange among all ranks and are counted apart from the passes", "[engine][mpi]") {
    RingReplay ring;
    const int n = world_size();
    std::array<double, 1> ranks{1.0};
    ring.engine.run_rounds("sums", [&](Exchange& exchange) {
        CHECK(exchange.rank() == world_rank());
        CHECK(exchange.size() == n);
        exchange.sum(ranks);
        CHECK(exchange.any(exchange.rank() == n - 1));
    });
    CHECK(ranks[0] == n);
    REQUIRE(ring.engine.pass_exchanges().size() == 1);
    CHECK(ring.engine.pass_exchanges()[0].name == "sums");
    CHECK(ring.engine.pass_exchanges()[0].rounds == 2);
    CHECK(ring.engine.pass_exchanges()[0].hand_overs == 0);
}

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int failed = Catch::Session().run(argc, argv);
    // Every rank exits with the verdict of all.
    MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Finalize();
    return failed ? 1 : 0;
}

namespace {

// A batched pass's observer (trace data only) that awaits two operations at
// every collective, with values that name the collective: the position of
// the collective on its communicator, counted by each rank as the engine
// meets them.
class NumberedCollectives final : public ReplayObserver {
public:
    int completed = 0, wrong = 0;

    replay::Participation participation() const override { return {.collectives = true}; }
    CollectiveTask on_collective(const EventView& v, CollectiveChannel& x) override {
        const double number = seen_[v.collective().comm]++;
        std::array<double, 1> sum{1000.0 * number + x.rank()};
        co_await x.allreduce(sum, ReduceOp::Sum);
        const double ranks = x.size();
        if (sum[0] != 1000.0 * number * ranks + ranks * (ranks - 1) / 2) ++wrong;
        const RankedValue last = co_await x.allreduce_maxloc(number + x.rank());
        if (last.value != number + ranks - 1 || last.rank != x.size() - 1) ++wrong;
        ++completed;
    }

private:
    std::map<CommId, int> seen_;
};

}  // namespace

TEST_CASE("batched collective exchanges: thousands of collectives on two communicators", "[engine][mpi]") {
    // More collectives on MPI_COMM_WORLD than a batch holds, every third
    // of them followed by one on a communicator of the last and the first
    // rank: the batches of both run in several rounds and several parts.
    constexpr int kCollectives = 2 * static_cast<int>(BatchedCollectives::kMaxWaiting) + 500;
    const int n = world_size();
    REQUIRE(n >= 2);
    SharedScratch dir;
    TraceBuilder t(n);
    const auto pair = t.communicator({n - 1, 0}, t.world(), "last and first");
    int on_pair = 0;
    for (int r = 0; r < n; ++r) {
        auto& b = t.rank(r);
        b.enter(0, "main").init(0, 10);
        Ticks time = 100;
        on_pair = 0;
        for (int k = 0; k < kCollectives; ++k, time += 100) {
            b.allreduce(time, time + 10, 8);
            if (k % 3 == 0) {
                ++on_pair;
                if (r == 0 || r == n - 1) b.allreduce(time + 20, time + 30, 8, pair);
            }
        }
        b.finalize(time, time + 10).leave(time + 20);
    }
    LocalTrace trace = load(t, dir);
    ProgressWatch watch = test_watch();
    MessageSlots slots(trace);
    const Pairing pairing = pair_traces(trace, slots, MPI_COMM_WORLD, watch);
    REQUIRE_FALSE(pairing.problem);
    REQUIRE(pairing.unpaired.empty());
    const CommunicatorMirror mirror(trace, MPI_COMM_WORLD, watch);
    MpiReplayEngine engine(trace, slots, mirror, watch);
    NumberedCollectives observer;
    std::array<ReplayObserver*, 1> observers{&observer};
    engine.run("test pass", observers);

    const int rank = world_rank();
    const bool in_pair = rank == 0 || rank == n - 1;
    CHECK(observer.completed == kCollectives + 2 + (in_pair ? on_pair : 0));  // + MPI_Init, MPI_Finalize
    CHECK(observer.wrong == 0);
}
