// The profile per communicator as the analyzer shows it: the table built from
// all ranks' shares of the split-communicator scenario
// (tests/analyses/split_communicators.hpp), its CSV and JSON files and its
// summary section, and the refusal of communicators with bad members.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

#include "analyzer/communication_files.hpp"
#include "analyzer/communicator_summary.hpp"
#include "analyzer/communication_structure.hpp"
#include "common/error.hpp"
#include "tests/analyses/analysis_harness.hpp"
#include "tests/analyses/split_communicators.hpp"
#include "tests/support/scratch_dir.hpp"

using namespace hindsight;
using namespace hindsight::analyzer;
using namespace hindsight::testing;

namespace {

struct Analyzed {
    AnalysisResults results{split_communicators()};
    analyses::CommunicatorProfile profile;
    std::vector<std::vector<analyses::TrafficCell>> rows;
    Analyzed() {
        for (int rank = 0; rank < 4; ++rank) {
            analyses::merge_into(profile, results.findings(rank).communicators);
            rows.push_back(results.findings(rank).traffic);
        }
    }
    const Definitions& definitions() const { return results.trace(0).definitions; }
};

std::string text_of(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace

TEST_CASE("communicator table: largest time first, named with their parent", "[communicators]") {
    const Analyzed a;
    const auto table = communicator_table(a.definitions(), a.profile, "t.otf2");
    // even: allreduce 40 + barrier 20 ns; odd: allreduces 35 + send 1 +
    // receive 8 ns; world: bcast 4 x 10 ns. MPI_COMM_SELF has nothing.
    REQUIRE(table.size() == 3);
    // One split made both halves: their members tell them apart.
    CHECK(table[0].label == std::string(kSplitName) + " of MPI_COMM_WORLD (ranks 0, 2)");
    CHECK(table[1].label == std::string(kSplitName) + " of MPI_COMM_WORLD (ranks 1, 3)");
    CHECK(table[0].members == std::vector<int>{0, 2});
    CHECK(table[0].seconds == Approx(ns(40 + 20)));
    CHECK(table[0].waiting_seconds == Approx(ns(20)));
    CHECK(table[0].operations == 2);
    CHECK(table[0].by_operation.front().operation == "MPI_Allreduce");
    CHECK(table[1].members == std::vector<int>{3, 1});
    CHECK(table[1].seconds == Approx(ns(35 + 1 + 8)));
    CHECK(table[1].operations == 2 + 1 + 1);
    CHECK(table[1].bytes == 4 * 16 + 100);
    CHECK(table[1].origin.creator == "MPI_Comm_split");
    CHECK(table[1].origin.call_path == "main > setup");
    CHECK(table[1].topology == TopologyKind::None);
    CHECK(table[2].label == "MPI_COMM_WORLD");
    CHECK(table[2].seconds == Approx(ns(40)));
}

TEST_CASE("communicator table: CSV, JSON and the summary section", "[communicators]") {
    const Analyzed a;
    const CommunicationStructure structure = communication_structure(a.definitions(), a.profile, a.rows, 0, "t.otf2");
    const auto& table = structure.communicators;
    const ScratchDir dir;
    const auto report = dir.path() / "analysis.cubex";
    CHECK(communicators_csv_path(report) == dir.path() / "analysis.communicators.csv");
    CHECK(communication_json_path(report) == dir.path() / "analysis.communication.json");
    CHECK(matrix_csv_path(report) == dir.path() / "analysis.matrix.csv");
    CHECK(machine_file_path(report) == dir.path() / "analysis.machines");
    write_communication_files(report, structure, "t.otf2");

    const std::string csv = text_of(communicators_csv_path(report));
    // A header, then even's two operations, world's one, odd's three.
    CHECK(std::count(csv.begin(), csv.end(), '\n') == 1 + 2 + 1 + 3);
    CHECK(csv.find("\n2,\"MPI_Comm_split @ main > setup of MPI_COMM_WORLD (ranks 0, 2)\",2,none,0,MPI_Allreduce,1,2,") !=
          std::string::npos);
    const std::string json = text_of(communication_json_path(report));
    CHECK(json.find("\"schema\":\"hindsight-communication\",\"version\":1") != std::string::npos);
    CHECK(json.find("\"id\":3,\"name\":\"MPI_Comm_split @ main > setup\"") != std::string::npos);
    CHECK(json.find("\"members\":[3,1]") != std::string::npos);
    CHECK(json.find("{\"operation\":\"MPI_Recv\",\"operations\":1,\"calls\":1,") != std::string::npos);
    // The one message: world rank 3 to world rank 1, 100 bytes; all ranks
    // run on the builder's one node, which then has 4 cores.
    CHECK(json.find("\n  [3,1,1,100,") != std::string::npos);
    CHECK(json.find("\"nodes\":[\"node0\"]") != std::string::npos);
    CHECK(json.find("\"placement\":{\"cores_per_node\":4,\"cores_from\":\"trace\",\"nodes\":1,") != std::string::npos);
    CHECK(text_of(machine_file_path(report)) == "node0:4\n");

    std::ostringstream out;
    print_communicators(out, table, /*allocation time*/ ns(400), 2);
    const std::string summary = out.str();
    CHECK(summary.rfind("Communicators taking most time (3 communicators):\n  " + std::string(kSplitName) +
                            " of MPI_COMM_WORLD (ranks 0, 2): 60.0 ns (15.0 %), 2 ranks\n",
                        0) == 0);
    CHECK(summary.find("of MPI_COMM_WORLD (ranks 1, 3): 44.0 ns (11.0 %), 2 ranks\n    4 operations, waiting 8.00 ns, 164 bytes sent; "
                       "mostly MPI_Allreduce (35.0 ns, 2 operations)\n") != std::string::npos);
    CHECK(summary.find("  MPI_COMM_WORLD:") == std::string::npos);  // the limit: two communicators

    // A communicator that took no time is not listed, and the count says so.
    std::vector<CommunicatorLine> idle = table;
    idle.back().seconds = 0;
    std::ostringstream idle_out;
    print_communicators(idle_out, idle, ns(400), 5);
    CHECK(idle_out.str().rfind("Communicators taking most time (3 communicators, 2 of them took time):\n", 0) == 0);

    // All four ranks ran on node0, whose four cores are the default node size:
    // nothing crosses a node, so there is no advice to give.
    std::ostringstream placement;
    print_placement(placement, structure, machine_file_path(report).string());
    CHECK(placement.str() ==
          "Placement: every rank fits on one node of 4 cores (as many as the busiest node of the trace ran), no bytes "
          "cross nodes; --cores-per-node N predicts the traffic between nodes of N cores\n");
}

// Ranks 0 and 1 each call MPI_Barrier on MPI_COMM_SELF (10..20 and
// 10..15 ns) and once on MPI_COMM_WORLD (20..30 on both): MPI_COMM_SELF is a
// communicator of one rank, not one without members.
TEST_CASE("communicator table: MPI_COMM_SELF has one rank", "[communicators]") {
    TraceBuilder t(2);
    t.rank(0).enter(0, "main").barrier(10, 20, t.self()).barrier(20, 30).leave(40);
    t.rank(1).enter(0, "main").barrier(10, 15, t.self()).barrier(20, 30).leave(40);
    const AnalysisResults results(t);
    analyses::CommunicatorProfile profile;
    for (int rank = 0; rank < 2; ++rank) analyses::merge_into(profile, results.findings(rank).communicators);
    const auto table = communicator_table(results.trace(0).definitions, profile, "t.otf2");
    REQUIRE(table.size() == 2);
    CHECK(table[1].label == "MPI_COMM_SELF");
    CHECK(table[1].size() == 1);
    CHECK(table[1].seconds == Approx(ns(10 + 5)));
    std::ostringstream out;
    print_communicators(out, table, ns(80));
    CHECK(out.str().find("\n  MPI_COMM_SELF: 15.0 ns (18.8 %), 1 rank each\n") != std::string::npos);
}

// Two duplicates of MPI_COMM_WORLD made at the same place have the same
// name, parent and members: their order tells them apart.
TEST_CASE("communicator table: communicators alike in all but their id are numbered", "[communicators]") {
    TraceBuilder t(2);
    const Comm first = t.communicator({0, 1}, t.world(), "MPI_Comm_dup @ main");
    const Comm second = t.communicator({0, 1}, t.world(), "MPI_Comm_dup @ main");
    for (int rank = 0; rank < 2; ++rank)
        t.rank(rank).enter(0, "main").barrier(10, 30, first).barrier(30, 40, second).leave(50);
    const AnalysisResults results(t);
    analyses::CommunicatorProfile profile;
    for (int rank = 0; rank < 2; ++rank) analyses::merge_into(profile, results.findings(rank).communicators);
    const auto table = communicator_table(results.trace(0).definitions, profile, "t.otf2");
    REQUIRE(table.size() == 3);  // and MPI_COMM_WORLD, with nothing on it
    CHECK(table[0].label == "MPI_Comm_dup @ main of MPI_COMM_WORLD (ranks 0, 1) #1");
    CHECK(table[1].label == "MPI_Comm_dup @ main of MPI_COMM_WORLD (ranks 0, 1) #2");
    CHECK(table[2].label == "MPI_COMM_WORLD");
}

// Names come from the trace as bytes: the JSON stays valid UTF-8 and never
// holds a "<" that could close the script element of a page embedding it.
TEST_CASE("communication JSON: names of any bytes stay valid JSON", "[communicators]") {
    const Analyzed a;
    const std::string trace = "run\xff</script>.otf2";
    const CommunicationStructure structure = communication_structure(a.definitions(), a.profile, a.rows, 0, trace);
    const ScratchDir dir;
    const auto report = dir.path() / "analysis.cubex";
    write_communication_files(report, structure, trace);
    const std::string json = text_of(communication_json_path(report));
    CHECK(json.find('\xff') == std::string::npos);
    CHECK(json.find('<') == std::string::npos);
    CHECK(json.find("\"trace\":\"run\xef\xbf\xbd\\u003c/script>.otf2\"") != std::string::npos);
}

TEST_CASE("communicator table: members outside the trace or of unknown kind are refused", "[communicators]") {
    const Analyzed a;
    Definitions defs = a.definitions();
    const GroupId odd_group = defs.communicators[3].group;
    SECTION("a rank beyond the trace's ranks") {
        defs.groups[odd_group].members.push_back(7);
        CHECK_THROWS_WITH(communicator_table(defs, a.profile, "t.otf2"),
                          "t.otf2: communicator 3 ('" + std::string(kSplitName) +
                              "') has member 7, not a rank of the trace's 4");
    }
    SECTION("members that are no ranks") {
        defs.groups[odd_group].type = GroupType::Other;
        CHECK_THROWS_WITH(communicator_table(defs, a.profile, "t.otf2"),
                          "t.otf2: communicator 3 ('" + std::string(kSplitName) + "') has members of unknown kind");
    }
    SECTION("no group at all") {
        defs.communicators[3].group = kNoId;
        CHECK_THROWS_WITH(communicator_table(defs, a.profile, "t.otf2"),
                          "t.otf2: communicator 3 ('" + std::string(kSplitName) + "') has no group of members");
    }
    SECTION("a communicator nothing ran on is left out instead") {
        defs.communicators[3].group = kNoId;
        analyses::CommunicatorProfile without_odd;
        for (const analyses::CommOperationStats& s : a.profile)
            if (s.comm != 3) without_odd.push_back(s);
        const auto table = communicator_table(defs, without_odd, "t.otf2");
        CHECK(table.size() == 2);
        CHECK(std::none_of(table.begin(), table.end(), [](const CommunicatorLine& l) { return l.id == 3; }));
    }
}
