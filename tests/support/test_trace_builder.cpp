// Tests of the exact-trace builder: scenarios are written, read back with
// the OTF2 reader and compared with the events and definitions the scenario
// declares; otf2-print must accept every archive; misuse must throw.
#include <catch2/catch.hpp>

#include <unistd.h>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "tests/support/trace_builder.hpp"
#include "tests/support/trace_reader.hpp"

namespace fs = std::filesystem;
using namespace hindsight::testing;
namespace d = hindsight::testing::describe;
using Lines = std::vector<std::string>;

namespace {

constexpr std::uint32_t kNone = OTF2_UNDEFINED_UINT32;

// A fresh directory for one archive, removed afterwards.
class TempDir {
public:
    explicit TempDir(const std::string& name)
        : path_(fs::temp_directory_path() /
                ("hindsight-trace-builder-" + std::to_string(::getpid()) + "-" + name)) {
        fs::remove_all(path_);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const fs::path& path() const { return path_; }
    fs::path anchor() const { return path_ / "traces.otf2"; }

private:
    fs::path path_;
};

// Lines of one collective call: ENTER, COLLECTIVE_BEGIN, COLLECTIVE_END, LEAVE.
Lines coll(std::uint64_t enter, std::uint64_t leave, const std::string& region,
           OTF2_CollectiveOp op, std::uint32_t comm, std::uint32_t root, std::uint64_t sent,
           std::uint64_t received) {
    return {d::enter(enter, region), d::collective_begin(enter),
            d::collective_end(leave, op, comm, root, sent, received), d::leave(leave, region)};
}

Lines concat(std::initializer_list<Lines> parts) {
    Lines all;
    for (const Lines& p : parts) all.insert(all.end(), p.begin(), p.end());
    return all;
}

// Runs otf2-print (path from the OTF2_PRINT environment variable that the
// build sets) on an archive; true when it succeeds without warnings.
bool otf2_print_accepts(const fs::path& anchor, const std::string& options) {
    const char* program = std::getenv("OTF2_PRINT");
    REQUIRE(program != nullptr);
    const std::string command = std::string("'") + program + "' --warnings-as-errors " + options +
                                " '" + anchor.string() + "' > /dev/null 2>&1";
    return std::system(command.c_str()) == 0;
}

void require_otf2_print_accepts(const fs::path& anchor) {
    CHECK(otf2_print_accepts(anchor, ""));
    CHECK(otf2_print_accepts(anchor, "-G"));
    CHECK(otf2_print_accepts(anchor, "-C"));
}

const ReadTrace::Group& group_of(const ReadTrace& t, OTF2_CommRef comm) {
    return t.groups.at(t.comms.at(comm).group);
}

OTF2_SystemTreeNodeRef node_named(const ReadTrace& t, const std::string& name) {
    for (const auto& [id, n] : t.nodes)
        if (n.name == name) return id;
    FAIL("no system tree node " << name);
    return OTF2_UNDEFINED_SYSTEM_TREE_NODE;
}

// --- scenario 1: blocking ping-pong with program begin/end ------------------
TraceBuilder pingpong() {
    TraceBuilder t(2);
    t.set_program_name("pingpong");
    t.rank(0).program_begin(0).enter(10, "main").init(20, 100);
    t.rank(0).send(200, 210, 1, 5, 1024).recv(300, 420, 1, 6, 2048);
    t.rank(0).finalize(500, 600).leave(700).program_end(710);
    t.rank(1).program_begin(5).enter(15, "main").init(25, 100);
    t.rank(1).recv(150, 260, 0, 5, 1024).send(400, 410, 0, 6, 2048, kWorld, "MPI_Ssend");
    t.rank(1).finalize(500, 600).leave(690).program_end(700, 3);
    return t;
}

}  // namespace

TEST_CASE("ping-pong events are written at the declared times", "[trace_builder]") {
    TempDir dir("pingpong");
    pingpong().write(dir.path());
    require_otf2_print_accepts(dir.anchor());
    const ReadTrace t = read_trace(dir.anchor());

    const Lines rank0 = {
        d::program_begin(0, "pingpong"), d::enter(10, "main"),
        d::enter(20, "MPI_Init"),        d::leave(100, "MPI_Init"),
        d::enter(200, "MPI_Send"),       d::send(200, 1, 0, 5, 1024),
        d::leave(210, "MPI_Send"),       d::enter(300, "MPI_Recv"),
        d::recv(420, 1, 0, 6, 2048),     d::leave(420, "MPI_Recv"),
        d::enter(500, "MPI_Finalize"),   d::leave(600, "MPI_Finalize"),
        d::leave(700, "main"),           d::program_end(710, 0),
    };
    const Lines rank1 = {
        d::program_begin(5, "pingpong"), d::enter(15, "main"),
        d::enter(25, "MPI_Init"),        d::leave(100, "MPI_Init"),
        d::enter(150, "MPI_Recv"),       d::recv(260, 0, 0, 5, 1024),
        d::leave(260, "MPI_Recv"),       d::enter(400, "MPI_Ssend"),
        d::send(400, 0, 0, 6, 2048),     d::leave(410, "MPI_Ssend"),
        d::enter(500, "MPI_Finalize"),   d::leave(600, "MPI_Finalize"),
        d::leave(690, "main"),           d::program_end(700, 3),
    };
    REQUIRE(t.events.size() == 2);
    CHECK(t.events.at(0) == rank0);
    CHECK(t.events.at(1) == rank1);
}

TEST_CASE("ping-pong definitions follow Score-P's layout", "[trace_builder]") {
    TempDir dir("pingpong-defs");
    pingpong().write(dir.path());
    const ReadTrace t = read_trace(dir.anchor());

    SECTION("clock: 1 ns ticks, offset 0, length from first to last event") {
        CHECK(t.clock_definitions == 1);
        CHECK(t.clock.ticks_per_second == 1'000'000'000u);
        CHECK(t.clock.global_offset == 0u);
        CHECK(t.clock.length == 710u);
    }
    SECTION("MPI paradigm") {
        REQUIRE(t.paradigms.count(OTF2_PARADIGM_MPI) == 1);
        CHECK(t.paradigms.at(OTF2_PARADIGM_MPI).name == "MPI");
        CHECK(t.paradigms.at(OTF2_PARADIGM_MPI).paradigm_class == OTF2_PARADIGM_CLASS_PROCESS);
    }
    SECTION("only the regions used, with Score-P's roles") {
        CHECK(t.regions.size() == 6);
        const auto& main = t.region("main");
        CHECK(main.canonical_name == "main");
        CHECK(main.paradigm == OTF2_PARADIGM_USER);
        CHECK(main.role == OTF2_REGION_ROLE_FUNCTION);
        struct Expected {
            const char* name;
            OTF2_RegionRole role;
        };
        for (const Expected& e : {Expected{"MPI_Init", OTF2_REGION_ROLE_FUNCTION},
                                  Expected{"MPI_Finalize", OTF2_REGION_ROLE_FUNCTION},
                                  Expected{"MPI_Send", OTF2_REGION_ROLE_POINT2POINT},
                                  Expected{"MPI_Ssend", OTF2_REGION_ROLE_POINT2POINT},
                                  Expected{"MPI_Recv", OTF2_REGION_ROLE_POINT2POINT}}) {
            INFO(e.name);
            const auto& r = t.region(e.name);
            CHECK(r.canonical_name == e.name);
            CHECK(r.file == "MPI");
            CHECK(r.paradigm == OTF2_PARADIGM_MPI);
            CHECK(r.role == e.role);
        }
    }
    SECTION("system tree, processes and threads") {
        REQUIRE(t.nodes.size() == 2);
        const auto machine = node_named(t, "Linux");
        const auto node = node_named(t, "node0");
        CHECK(t.nodes.at(machine).class_name == "machine");
        CHECK(t.nodes.at(machine).parent == OTF2_UNDEFINED_SYSTEM_TREE_NODE);
        CHECK(t.nodes.at(machine).domains ==
              std::vector<OTF2_SystemTreeDomain>{OTF2_SYSTEM_TREE_DOMAIN_MACHINE});
        CHECK(t.nodes.at(node).class_name == "node");
        CHECK(t.nodes.at(node).parent == machine);
        CHECK(t.nodes.at(node).domains ==
              std::vector<OTF2_SystemTreeDomain>{OTF2_SYSTEM_TREE_DOMAIN_SHARED_MEMORY});
        REQUIRE(t.location_groups.size() == 2);
        REQUIRE(t.locations.size() == 2);
        for (OTF2_LocationRef r : {0u, 1u}) {
            INFO("rank " << r);
            const auto& group = t.location_groups.at(static_cast<OTF2_LocationGroupRef>(r));
            CHECK(group.name == "MPI Rank " + std::to_string(r));
            CHECK(group.type == OTF2_LOCATION_GROUP_TYPE_PROCESS);
            CHECK(group.parent == node);
            const auto& location = t.locations.at(r);
            CHECK(location.name == "Master thread");
            CHECK(location.type == OTF2_LOCATION_TYPE_CPU_THREAD);
            CHECK(location.group == r);
            CHECK(location.events == 14u);
        }
    }
    SECTION("groups and communicators") {
        CHECK(t.groups.size() == 3);
        int locations = 0;
        for (const auto& [id, g] : t.groups) {
            CHECK(g.paradigm == OTF2_PARADIGM_MPI);
            if (g.type == OTF2_GROUP_TYPE_COMM_LOCATIONS) {
                ++locations;
                CHECK(g.members == std::vector<std::uint64_t>{0, 1});
            }
        }
        CHECK(locations == 1);
        REQUIRE(t.comms.size() == 2);
        CHECK(t.comms.at(0).name == "MPI_COMM_WORLD");
        CHECK(t.comms.at(0).parent == OTF2_UNDEFINED_COMM);
        CHECK(group_of(t, 0).type == OTF2_GROUP_TYPE_COMM_GROUP);
        CHECK(group_of(t, 0).members == std::vector<std::uint64_t>{0, 1});
        CHECK(t.comms.at(1).name == "MPI_COMM_SELF");
        CHECK(t.comms.at(1).parent == OTF2_UNDEFINED_COMM);
        CHECK(group_of(t, 1).type == OTF2_GROUP_TYPE_COMM_SELF);
        CHECK(group_of(t, 1).members.empty());
    }
}

TEST_CASE("non-blocking exchange: requests complete at the leave of wait and test",
          "[trace_builder]") {
    TraceBuilder b(2);
    auto& r0 = b.rank(0);
    r0.enter(0, "main");
    const RequestId recv_req = r0.irecv(10, 12, 1, 3, 64);
    const RequestId send_req = r0.isend(20, 25, 1, 4, 128);
    r0.test(30, 32, recv_req, false).waitall(40, 90, {recv_req, send_req});
    const RequestId cancelled = r0.irecv(100, 101, 1, 9, 8);
    r0.enter(110, "MPI_Wait").request_cancelled_event(120, cancelled).leave(120).leave(200);

    auto& r1 = b.rank(1);
    r1.enter(0, "main");
    const RequestId s = r1.isend(5, 8, 0, 3, 64);
    const RequestId r = r1.irecv(9, 11, 0, 4, 128);
    r1.sendrecv(50, 60, 0, 1, 16, 0, 1, 16, b.self());
    r1.wait(70, 80, s).test(81, 85, r, true).leave(200);

    CHECK(recv_req != send_req);
    CHECK(send_req != cancelled);
    CHECK(s != r);

    TempDir dir("nonblocking");
    b.write(dir.path());
    require_otf2_print_accepts(dir.anchor());
    const ReadTrace t = read_trace(dir.anchor());

    const Lines rank0 = {
        d::enter(0, "main"),
        d::enter(10, "MPI_Irecv"),
        d::irecv_request(10, recv_req),
        d::leave(12, "MPI_Irecv"),
        d::enter(20, "MPI_Isend"),
        d::isend(20, 1, 0, 4, 128, send_req),
        d::leave(25, "MPI_Isend"),
        d::enter(30, "MPI_Test"),
        d::request_test(32, recv_req),
        d::leave(32, "MPI_Test"),
        d::enter(40, "MPI_Waitall"),
        d::irecv(90, 1, 0, 3, 64, recv_req),
        d::isend_complete(90, send_req),
        d::leave(90, "MPI_Waitall"),
        d::enter(100, "MPI_Irecv"),
        d::irecv_request(100, cancelled),
        d::leave(101, "MPI_Irecv"),
        d::enter(110, "MPI_Wait"),
        d::request_cancelled(120, cancelled),
        d::leave(120, "MPI_Wait"),
        d::leave(200, "main"),
    };
    const Lines rank1 = {
        d::enter(0, "main"),           d::enter(5, "MPI_Isend"),     d::isend(5, 0, 0, 3, 64, s),
        d::leave(8, "MPI_Isend"),      d::enter(9, "MPI_Irecv"),     d::irecv_request(9, r),
        d::leave(11, "MPI_Irecv"),     d::enter(50, "MPI_Sendrecv"), d::send(50, 0, 1, 1, 16),
        d::recv(60, 0, 1, 1, 16),      d::leave(60, "MPI_Sendrecv"), d::enter(70, "MPI_Wait"),
        d::isend_complete(80, s),      d::leave(80, "MPI_Wait"),     d::enter(81, "MPI_Test"),
        d::irecv(85, 0, 0, 4, 128, r), d::leave(85, "MPI_Test"),     d::leave(200, "main"),
    };
    CHECK(t.events.at(0) == rank0);
    CHECK(t.events.at(1) == rank1);
    CHECK(t.locations.at(0).events == rank0.size());
    CHECK(t.locations.at(1).events == rank1.size());
    CHECK(t.region("MPI_Isend").role == OTF2_REGION_ROLE_POINT2POINT);
    CHECK(t.region("MPI_Irecv").role == OTF2_REGION_ROLE_POINT2POINT);
    CHECK(t.region("MPI_Sendrecv").role == OTF2_REGION_ROLE_POINT2POINT);
    // Score-P files the completion calls under FUNCTION.
    CHECK(t.region("MPI_Wait").role == OTF2_REGION_ROLE_FUNCTION);
    CHECK(t.region("MPI_Waitall").role == OTF2_REGION_ROLE_FUNCTION);
    CHECK(t.region("MPI_Test").role == OTF2_REGION_ROLE_FUNCTION);
}

TEST_CASE("collectives on the world and on sub-communicators", "[trace_builder]") {
    TraceBuilder b(4);
    b.set_machine_name("cluster");
    b.set_node_of_rank(2, "n1");
    b.set_node_of_rank(3, "n1");
    // Comm rank 0 is world rank 3, comm rank 1 is world rank 1.
    const Comm odd = b.communicator({3, 1}, b.world(), "odd");
    const Comm lone = b.communicator({1}, odd);
    const Comm dup = b.communicator({0, 1, 2, 3}, b.world(), "dup");
    REQUIRE(odd.id == 2);
    REQUIRE(lone.id == 3);
    REQUIRE(dup.id == 4);

    for (int r = 0; r < 4; ++r) {
        auto& rank = b.rank(r);
        rank.enter(0, "main").barrier(10, 20 + r);
        rank.bcast(30, 40, 2, 100).reduce(50, 60, 0, 8).allreduce(70, 80, 8);
        rank.scan(90, 100, 4).exscan(110, 120, 4);
        rank.gather(130, 140, 1, 10).scatter(150, 160, 3, 10);
        rank.allgather(170, 180, 2).alltoall(190, 200, 3).reduce_scatter_block(210, 220, 5);
        if (r == 1 || r == 3) rank.bcast(230, 240, 0, 50, odd).allreduce(250, 260, 6, odd);
        rank.barrier(270, 280, dup);
        if (r == 1) rank.barrier(290, 300, lone);
        rank.collective(310, 320, "MPI_Alltoallv", b.world(), -1, 7 + r, 9).leave(400);
    }

    TempDir dir("collectives");
    b.write(dir.path());
    require_otf2_print_accepts(dir.anchor());
    const ReadTrace t = read_trace(dir.anchor());

    // Per world rank, Score-P's byte accounting worked out by hand:
    // bcast root 2 (100 B), reduce root 0 (8 B), scan/exscan 4 B,
    // gather root 1 (10 B), scatter root 3 (10 B).
    struct Bytes {
        std::uint64_t bcast_sent, reduce_received, scan_sent, scan_received, exscan_sent,
            exscan_received, gather_received, scatter_sent;
    };
    const Bytes bytes[4] = {
        {0, 32, 16, 4, 12, 0, 0, 0},
        {0, 0, 12, 8, 8, 4, 40, 0},
        {400, 0, 8, 12, 4, 8, 0, 0},
        {0, 0, 4, 16, 0, 12, 0, 40},
    };
    for (std::uint32_t r = 0; r < 4; ++r) {
        INFO("rank " << r);
        const Bytes& x = bytes[r];
        Lines expected = concat({
            {d::enter(0, "main")},
            coll(10, 20 + r, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, kNone, 0, 0),
            coll(30, 40, "MPI_Bcast", OTF2_COLLECTIVE_OP_BCAST, 0, 2, x.bcast_sent, 100),
            coll(50, 60, "MPI_Reduce", OTF2_COLLECTIVE_OP_REDUCE, 0, 0, 8, x.reduce_received),
            coll(70, 80, "MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, 0, kNone, 32, 32),
            coll(90, 100, "MPI_Scan", OTF2_COLLECTIVE_OP_SCAN, 0, kNone, x.scan_sent,
                 x.scan_received),
            coll(110, 120, "MPI_Exscan", OTF2_COLLECTIVE_OP_EXSCAN, 0, kNone, x.exscan_sent,
                 x.exscan_received),
            coll(130, 140, "MPI_Gather", OTF2_COLLECTIVE_OP_GATHER, 0, 1, 10, x.gather_received),
            coll(150, 160, "MPI_Scatter", OTF2_COLLECTIVE_OP_SCATTER, 0, 3, x.scatter_sent, 10),
            coll(170, 180, "MPI_Allgather", OTF2_COLLECTIVE_OP_ALLGATHER, 0, kNone, 8, 8),
            coll(190, 200, "MPI_Alltoall", OTF2_COLLECTIVE_OP_ALLTOALL, 0, kNone, 12, 12),
            coll(210, 220, "MPI_Reduce_scatter_block", OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK, 0,
                 kNone, 20, 20),
        });
        auto add = [&](const Lines& more) {
            expected.insert(expected.end(), more.begin(), more.end());
        };
        if (r == 3)  // root of the bcast on "odd" (its comm rank 0)
            add(coll(230, 240, "MPI_Bcast", OTF2_COLLECTIVE_OP_BCAST, 2, 0, 100, 50));
        if (r == 1) add(coll(230, 240, "MPI_Bcast", OTF2_COLLECTIVE_OP_BCAST, 2, 0, 0, 50));
        if (r == 1 || r == 3)
            add(coll(250, 260, "MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, 2, kNone, 12, 12));
        add(coll(270, 280, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 4, kNone, 0, 0));
        if (r == 1) add(coll(290, 300, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 3, kNone, 0, 0));
        add(coll(310, 320, "MPI_Alltoallv", OTF2_COLLECTIVE_OP_ALLTOALLV, 0, kNone, 7 + r, 9));
        add({d::leave(400, "main")});
        CHECK(t.events.at(r) == expected);
        CHECK(t.locations.at(r).events == expected.size());
    }

    SECTION("collective regions carry Score-P's roles") {
        CHECK(t.region("MPI_Barrier").role == OTF2_REGION_ROLE_BARRIER);
        CHECK(t.region("MPI_Bcast").role == OTF2_REGION_ROLE_COLL_ONE2ALL);
        CHECK(t.region("MPI_Scatter").role == OTF2_REGION_ROLE_COLL_ONE2ALL);
        CHECK(t.region("MPI_Reduce").role == OTF2_REGION_ROLE_COLL_ALL2ONE);
        CHECK(t.region("MPI_Gather").role == OTF2_REGION_ROLE_COLL_ALL2ONE);
        CHECK(t.region("MPI_Allreduce").role == OTF2_REGION_ROLE_COLL_ALL2ALL);
        CHECK(t.region("MPI_Allgather").role == OTF2_REGION_ROLE_COLL_ALL2ALL);
        CHECK(t.region("MPI_Alltoall").role == OTF2_REGION_ROLE_COLL_ALL2ALL);
        CHECK(t.region("MPI_Alltoallv").role == OTF2_REGION_ROLE_COLL_ALL2ALL);
        CHECK(t.region("MPI_Reduce_scatter_block").role == OTF2_REGION_ROLE_COLL_ALL2ALL);
        CHECK(t.region("MPI_Scan").role == OTF2_REGION_ROLE_COLL_OTHER);
        CHECK(t.region("MPI_Exscan").role == OTF2_REGION_ROLE_COLL_OTHER);
    }
    SECTION("sub-communicators: members in comm rank order, parents, shared groups") {
        REQUIRE(t.comms.size() == 5);
        CHECK(t.comms.at(2).name == "odd");
        CHECK(t.comms.at(2).parent == 0u);
        CHECK(group_of(t, 2).type == OTF2_GROUP_TYPE_COMM_GROUP);
        CHECK(group_of(t, 2).members == std::vector<std::uint64_t>{3, 1});
        CHECK(t.comms.at(3).name.empty());
        CHECK(t.comms.at(3).parent == 2u);
        CHECK(group_of(t, 3).members == std::vector<std::uint64_t>{1});
        CHECK(t.comms.at(4).name == "dup");
        CHECK(t.comms.at(4).parent == 0u);
        // Equal member lists share one group.
        CHECK(t.comms.at(4).group == t.comms.at(0).group);
        CHECK(group_of(t, 0).members == std::vector<std::uint64_t>{0, 1, 2, 3});
        int comm_groups = 0;
        for (const auto& [id, g] : t.groups) comm_groups += g.type == OTF2_GROUP_TYPE_COMM_GROUP;
        CHECK(comm_groups == 3);
    }
    SECTION("ranks sit on the nodes they were placed on") {
        REQUIRE(t.nodes.size() == 3);
        const auto machine = node_named(t, "cluster");
        const auto node0 = node_named(t, "node0");
        const auto n1 = node_named(t, "n1");
        CHECK(t.nodes.at(node0).parent == machine);
        CHECK(t.nodes.at(n1).parent == machine);
        CHECK(t.location_groups.at(0).parent == node0);
        CHECK(t.location_groups.at(1).parent == node0);
        CHECK(t.location_groups.at(2).parent == n1);
        CHECK(t.location_groups.at(3).parent == n1);
    }
}

TEST_CASE("clock properties and clock offsets are written as configured", "[trace_builder]") {
    TraceBuilder b(3);
    b.set_ticks_per_second(1000);
    b.set_global_offset(1000);
    b.rank(0).region(1500, 1600, "work").clock_offset(1000, 0).clock_offset(2000, 0);
    b.rank(1).region(1200, 1900, "work").clock_offset(1000, -30, 1.5).clock_offset(2000, -19, 0.5);
    // Rank 2 records nothing at all.

    TempDir dir("clock");
    b.write(dir.path());
    require_otf2_print_accepts(dir.anchor());
    const ReadTrace t = read_trace(dir.anchor());

    CHECK(t.clock.ticks_per_second == 1000u);
    CHECK(t.clock.global_offset == 1000u);
    CHECK(t.clock.length == 700u);
    REQUIRE(t.clock_offsets.at(0).size() == 2);
    CHECK(t.clock_offsets.at(0)[0].time == 1000u);
    CHECK(t.clock_offsets.at(0)[0].offset == 0);
    CHECK(t.clock_offsets.at(0)[1].time == 2000u);
    REQUIRE(t.clock_offsets.at(1).size() == 2);
    CHECK(t.clock_offsets.at(1)[0].time == 1000u);
    CHECK(t.clock_offsets.at(1)[0].offset == -30);
    CHECK(t.clock_offsets.at(1)[0].stddev == 1.5);
    CHECK(t.clock_offsets.at(1)[1].time == 2000u);
    CHECK(t.clock_offsets.at(1)[1].offset == -19);
    CHECK(t.clock_offsets.at(1)[1].stddev == 0.5);
    CHECK(t.clock_offsets.count(2) == 0);
    // Raw timestamps, as declared.
    CHECK(t.events.at(1) == Lines{d::enter(1200, "work"), d::leave(1900, "work")});
    CHECK(t.events.at(2).empty());
    CHECK(t.locations.at(2).events == 0u);
}

TEST_CASE("writing twice into one directory replaces the archive", "[trace_builder]") {
    TempDir dir("rewrite");
    pingpong().write(dir.path());
    TraceBuilder small(1);
    small.rank(0).region(0, 5, "only");
    small.write(dir.path());
    const ReadTrace t = read_trace(dir.anchor());
    CHECK(t.locations.size() == 1);
    CHECK(t.events.at(0) == Lines{d::enter(0, "only"), d::leave(5, "only")});
}

TEST_CASE("misuse throws hindsight::Error", "[trace_builder]") {
    using hindsight::Error;
    TraceBuilder b(2);
    auto& r0 = b.rank(0);

    SECTION("time going backwards") {
        r0.enter(100, "main");
        CHECK_THROWS_AS(r0.leave(99), Error);
        CHECK_THROWS_AS(r0.send(50, 60, 1, 0, 8), Error);
        CHECK_THROWS_AS(r0.recv(120, 110, 1, 0, 8), Error);
    }
    SECTION("negative time") { CHECK_THROWS_AS(r0.enter(-1, "main"), Error); }
    SECTION("leave without enter") { CHECK_THROWS_AS(r0.leave(10), Error); }
    SECTION("a region never left") {
        r0.enter(0, "main");
        TempDir dir("unbalanced");
        CHECK_THROWS_AS(b.write(dir.path()), Error);
    }
    SECTION("events before the global offset") {
        b.set_global_offset(100);
        r0.region(50, 150, "main");
        TempDir dir("before-offset");
        CHECK_THROWS_AS(b.write(dir.path()), Error);
    }
    SECTION("unknown or completed requests") {
        r0.enter(0, "main");
        CHECK_THROWS_AS(r0.wait(10, 20, 42), Error);
        const RequestId q = r0.isend(30, 40, 1, 0, 8);
        r0.wait(50, 60, q);
        CHECK_THROWS_AS(r0.wait(70, 80, q), Error);
    }
    SECTION("ranks outside the communicator") {
        r0.enter(0, "main");
        CHECK_THROWS_AS(r0.send(10, 20, 2, 0, 8), Error);
        CHECK_THROWS_AS(r0.recv(10, 20, -1, 0, 8), Error);
        CHECK_THROWS_AS(r0.bcast(10, 20, 5, 8), Error);
        CHECK_THROWS_AS(r0.send(10, 20, 1, 0, 8, b.self()), Error);
        const Comm only1 = b.communicator({1}, b.world());
        CHECK_THROWS_AS(r0.barrier(10, 20, only1), Error);  // rank 0 is no member
        CHECK_THROWS_AS(r0.barrier(10, 20, Comm{99}), Error);
    }
    SECTION("malformed communicators") {
        CHECK_THROWS_AS(b.communicator({}, b.world()), Error);
        CHECK_THROWS_AS(b.communicator({0, 2}, b.world()), Error);
        CHECK_THROWS_AS(b.communicator({1, 1}, b.world()), Error);
        const Comm only1 = b.communicator({1}, b.world());
        CHECK_THROWS_AS(b.communicator({0}, only1), Error);
    }
    SECTION("collectives: unknown region, missing or superfluous root") {
        r0.enter(0, "main");
        CHECK_THROWS_AS(r0.collective(10, 20, "MPI_Send", b.world(), -1, 0, 0), Error);
        CHECK_THROWS_AS(r0.collective(10, 20, "MPI_Bcast", b.world(), -1, 0, 0), Error);
        CHECK_THROWS_AS(r0.collective(10, 20, "MPI_Allreduce", b.world(), 0, 0, 0), Error);
    }
    SECTION("low-level events outside any region") {
        CHECK_THROWS_AS(r0.send_event(10, 1, 0, 8), Error);
        CHECK_THROWS_AS(r0.collective_begin_event(10), Error);
    }
    SECTION("program begin and end out of place") {
        r0.enter(0, "main");
        CHECK_THROWS_AS(r0.program_begin(5), Error);
        CHECK_THROWS_AS(r0.program_end(10), Error);  // main still open
        r0.leave(20).program_end(30);
        CHECK_THROWS_AS(r0.enter(40, "late"), Error);
    }
    SECTION("clock offsets going backwards") {
        r0.clock_offset(100, 5);
        CHECK_THROWS_AS(r0.clock_offset(50, 5), Error);
    }
    SECTION("bad builder settings") {
        CHECK_THROWS_AS(TraceBuilder(0), Error);
        CHECK_THROWS_AS(b.rank(2), Error);
        CHECK_THROWS_AS(b.set_node_of_rank(-1, "n"), Error);
        CHECK_THROWS_AS(b.set_ticks_per_second(0), Error);
    }
}
