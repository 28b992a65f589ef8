// Unit tests of profile mode's pure pieces: the call-path profile one rank
// keeps, and the report and communicator table rank 0 makes of the ranks'
// profiles. Timestamps are chosen by hand, and so are the expected values.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <string>

#include "collector/call_path_profile.hpp"
#include "collector/profile_report.hpp"
#include "common/error.hpp"

using namespace hindsight::collect;
using hindsight::CallPathId;
using hindsight::kNoCallPath;

namespace {

// Local regions of the scenario.
constexpr std::uint32_t kProgram = 0, kMain = 1, kSend = 2, kAllreduce = 3;
// Local communicators.
constexpr std::uint32_t kWorld = 0;

// program [0, 110]: main [10, 100]: MPI_Send [20, 30] sending 100 bytes,
// MPI_Send [40, 45] sending 50 bytes, MPI_Allreduce [50, 80] (8 bytes each
// way; counted as an operation when `first` is this rank).
CallPathProfile scenario(bool first) {
    CallPathProfile p;
    p.enter(kProgram, 0);
    p.enter(kMain, 10);
    p.enter(kSend, 20);
    p.message(kWorld, 100, true);
    p.leave(30);
    p.enter(kSend, 40);
    p.message(kWorld, 50, true);
    p.leave(45);
    p.enter(kAllreduce, 50);
    p.collective(kWorld, 8, 8, first);
    p.leave(80);
    p.leave(100);
    p.leave(110);
    return p;
}

CallPathId path(const CallPathProfile& p, std::initializer_list<std::uint32_t> regions) {
    CallPathId id = kNoCallPath;
    for (const std::uint32_t r : regions) id = p.tree().find(id, r);
    return id;
}

const CommOperation& operation(const std::vector<CommOperation>& ops, std::uint32_t region) {
    const auto it = std::find_if(ops.begin(), ops.end(), [&](const CommOperation& o) { return o.region == region; });
    REQUIRE(it != ops.end());
    return *it;
}

}  // namespace

TEST_CASE("a call path's visits, times and bytes", "[collector][profile]") {
    const CallPathProfile p = scenario(true);
    REQUIRE(p.open_paths() == 0);
    REQUIRE(p.tree().size() == 4);
    const PathStats& send = p.paths()[path(p, {kProgram, kMain, kSend})];
    CHECK(send.visits == 2);
    CHECK(send.inclusive == 15);
    CHECK(send.shortest == 5);
    CHECK(send.longest == 10);
    CHECK(send.bytes_sent == 150);
    CHECK(send.bytes_received == 0);
    const PathStats& main = p.paths()[path(p, {kProgram, kMain})];
    CHECK(main.visits == 1);
    CHECK(main.inclusive == 90);
    CHECK(main.bytes_sent == 0);
    const PathStats& allreduce = p.paths()[path(p, {kProgram, kMain, kAllreduce})];
    CHECK(allreduce.bytes_sent == 8);
    CHECK(allreduce.bytes_received == 8);
}

TEST_CASE("the communicator table counts calls, operations and message sizes", "[collector][profile]") {
    const std::vector<CommOperation> ops = scenario(true).comm_operations();
    REQUIRE(ops.size() == 2);
    const CommOperation& send = operation(ops, kSend);
    CHECK(send.comm == kWorld);
    CHECK(send.calls == 2);
    CHECK(send.operations == 2);
    CHECK(send.time == 15);
    CHECK(send.bytes_sent == 150);
    CHECK(send.messages == 2);
    CHECK(send.smallest_message == 50);
    CHECK(send.largest_message == 100);
    const CommOperation& allreduce = operation(ops, kAllreduce);
    CHECK(allreduce.calls == 1);
    CHECK(allreduce.operations == 1);
    CHECK(allreduce.time == 30);
    CHECK(allreduce.messages == 0);
    // On another rank than the communicator's rank 0 the collective is a call, no operation.
    CHECK(operation(scenario(false).comm_operations(), kAllreduce).operations == 0);
}

TEST_CASE("a non-blocking collective counts with the call that started it", "[collector][profile]") {
    CallPathProfile p;
    constexpr std::uint32_t kIallreduce = 4, kWait = 5;
    p.enter(kMain, 0);
    p.enter(kIallreduce, 10);
    p.collective(kWorld, 0, 0, true);  // the request
    p.leave(12);
    p.enter(kWait, 20);
    p.collective_completed(kWorld, kIallreduce, 16, 16);
    p.leave(27);
    p.leave(30);
    const std::vector<CommOperation> ops = p.comm_operations();
    REQUIRE(ops.size() == 1);
    CHECK(ops[0].region == kIallreduce);
    CHECK(ops[0].calls == 1);
    CHECK(ops[0].operations == 1);
    CHECK(ops[0].time == 2 + 7);  // the starting call's and the completing call's
    CHECK(ops[0].bytes_sent == 16);
    CHECK(p.paths()[path(p, {kMain, kWait})].bytes_received == 16);
}

TEST_CASE("a warm profile does not grow", "[collector][profile]") {
    CallPathProfile p = scenario(true);
    const auto loop = [&](int times) {
        for (int i = 0; i < times; ++i) {
            p.enter(kMain, 200);
            p.enter(kSend, 201);
            p.message(kWorld, 1, true);
            p.leave(202);
            p.leave(203);
        }
    };
    loop(1);  // new call paths: main as a root, and its MPI_Send
    const std::size_t size = p.memory_bytes();
    loop(1000);
    CHECK(p.memory_bytes() == size);
    CHECK(p.paths()[path(p, {kMain, kSend})].visits == 1001);
}

TEST_CASE("the ranks' profiles make one report and one communicator table", "[collector][profile]") {
    UnifiedDefinitions defs;
    defs.regions = {{"app", "/bin/app", OTF2_REGION_ROLE_ARTIFICIAL, OTF2_PARADIGM_MEASUREMENT_SYSTEM, ""},
                    {"main", "main", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_COMPILER, ""},
                    {"MPI_Send", "MPI_Send", OTF2_REGION_ROLE_POINT2POINT, OTF2_PARADIGM_MPI, "MPI"},
                    {"MPI_Allreduce", "MPI_Allreduce", OTF2_REGION_ROLE_COLL_ALL2ALL, OTF2_PARADIGM_MPI, "MPI"}};
    defs.groups = {{OTF2_GROUP_TYPE_COMM_LOCATIONS, {0, 1}, OTF2_PARADIGM_MPI, ""}, {OTF2_GROUP_TYPE_COMM_GROUP, {0, 1}, OTF2_PARADIGM_MPI, ""}};
    defs.comms = {{"MPI_COMM_WORLD", 1, OTF2_UNDEFINED_COMM, {}, {}}};
    defs.nodes = {"n1"};
    defs.node_of_rank = {0, 0};
    // Rank 1 defined MPI_Send and MPI_Allreduce in the other order.
    defs.region_maps = {{0, 1, 2, 3}, {0, 1, 3, 2}};
    defs.comm_maps = {{0}, {0}};
    const double spt = 0.5;  // seconds per tick
    const std::vector<RankProfile> ranks{rank_profile(scenario(true), spt), rank_profile(scenario(false), spt)};

    const hindsight::cube::Report report = profile_report(defs, ranks);
    const auto metric = [&](const char* name) {
        const auto m = report.find_metric(name);
        REQUIRE(m != hindsight::cube::kNone);
        return m;
    };
    const auto main = report.find_cnode({"app", "main"});
    const auto send = report.find_cnode({"app", "main", "MPI_Send"});
    const auto allreduce = report.find_cnode({"app", "main", "MPI_Allreduce"});
    REQUIRE(main != hindsight::cube::kNone);
    REQUIRE(send != hindsight::cube::kNone);
    REQUIRE(allreduce != hindsight::cube::kNone);
    // Exclusive time (without the callees), split into the analyzer's classes.
    CHECK(report.value(metric("comp"), main, 0) == (90 - 15 - 30) * spt);
    CHECK(report.value(metric("time"), main, 0) == 0);
    CHECK(report.value(metric("mpi_point2point"), send, 0) == 15 * spt);
    CHECK(report.value(metric("mpi_collective"), allreduce, 0) == 30 * spt);
    CHECK(report.value(metric("mpi_point2point"), allreduce, 0) == 0);
    CHECK(report.find_metric("mpi_latesender") == hindsight::cube::kNone);  // needs a trace
    CHECK(report.value(metric("visits"), send, 0) == 2);
    CHECK(report.value(metric("min_time"), send, 0) == 5 * spt);
    CHECK(report.value(metric("max_time"), send, 0) == 10 * spt);
    CHECK(report.value(metric("bytes_sent"), send, 0) == 150);
    // Rank 1's local region 2 (its sends) is the global MPI_Allreduce, and
    // its local region 3 the global MPI_Send.
    CHECK(report.value(metric("visits"), send, 1) == 1);
    CHECK(report.value(metric("max_time"), send, 1) == 30 * spt);
    CHECK(report.value(metric("visits"), allreduce, 1) == 2);
    CHECK(report.value(metric("bytes_sent"), allreduce, 1) == 100 + 50);

    const std::vector<hindsight::CommunicatorLine> table = profile_communicators(defs, ranks);
    REQUIRE(table.size() == 1);
    CHECK(table[0].label == "MPI_COMM_WORLD");
    CHECK(table[0].members == std::vector<int>{0, 1});
    std::map<std::string, const hindsight::OperationLine*> by_name;
    for (const auto& op : table[0].by_operation) by_name[op.operation] = &op;
    REQUIRE(by_name.size() == 2);
    // Rank 0: 2 sends (150 bytes), 1 allreduce as rank 0 of the communicator;
    // rank 1's events carry its own local ids: "MPI_Send" is its MPI_Allreduce.
    CHECK(by_name["MPI_Send"]->calls == 2 + 1);
    CHECK(by_name["MPI_Allreduce"]->calls == 1 + 2);
    CHECK(by_name["MPI_Allreduce"]->seconds == (30 + 15) * spt);
}

TEST_CASE("a profile splits one-sided communication into its classes, as an analysis does", "[collector][profile]") {
    // One rank: program [0, 100]: MPI_Win_fence [10, 30], MPI_Put [40, 45].
    UnifiedDefinitions defs;
    defs.regions = {{"app", "/bin/app", OTF2_REGION_ROLE_ARTIFICIAL, OTF2_PARADIGM_MEASUREMENT_SYSTEM, ""},
                    {"MPI_Win_fence", "MPI_Win_fence", OTF2_REGION_ROLE_BARRIER, OTF2_PARADIGM_MPI, "MPI"},
                    {"MPI_Put", "MPI_Put", OTF2_REGION_ROLE_RMA, OTF2_PARADIGM_MPI, "MPI"}};
    defs.groups = {{OTF2_GROUP_TYPE_COMM_LOCATIONS, {0}, OTF2_PARADIGM_MPI, ""}};
    defs.nodes = {"n1"};
    defs.node_of_rank = {0};
    defs.region_maps = {{0, 1, 2}};
    defs.comm_maps = {{}};
    CallPathProfile p;
    p.enter(0, 0);
    p.enter(1, 10);
    p.leave(30);
    p.enter(2, 40);
    p.leave(45);
    p.leave(100);
    const hindsight::cube::Report report = profile_report(defs, {rank_profile(p, 1.0)});
    const auto value = [&](const char* metric, std::initializer_list<std::string> path) {
        const auto m = report.find_metric(metric);
        REQUIRE(m != hindsight::cube::kNone);
        const auto c = report.find_cnode(path);
        REQUIRE(c != hindsight::cube::kNone);
        return report.value(m, c, 0);
    };
    // The fence is active target synchronization, the put one-sided
    // communication, not the barrier class or MPI time of no class.
    CHECK(value("mpi_rma_sync_active", {"app", "MPI_Win_fence"}) == 20);
    CHECK(value("mpi_synchronization", {"app", "MPI_Win_fence"}) == 0);
    CHECK(value("mpi_rma_communication", {"app", "MPI_Put"}) == 5);
    CHECK(value("time", {"app", "MPI_Put"}) == 0);
    CHECK(value("mpi", {"app", "MPI_Put"}) == 0);
}

TEST_CASE("a profile naming regions its rank never defined is refused", "[collector][profile]") {
    UnifiedDefinitions defs;
    defs.regions = {{"app", "/bin/app", OTF2_REGION_ROLE_ARTIFICIAL, OTF2_PARADIGM_MEASUREMENT_SYSTEM, ""}};
    defs.nodes = {"n1"};
    defs.node_of_rank = {0};
    defs.region_maps = {{0}};
    defs.comm_maps = {{0}};
    CHECK_THROWS_AS(profile_report(defs, {rank_profile(scenario(true), 1.0)}), hindsight::Error);
    CHECK_THROWS_AS(deserialize_profile({}, 3), hindsight::Error);
}
