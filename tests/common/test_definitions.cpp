#include <catch2/catch.hpp>

#include "common/definitions.hpp"
#include "common/error.hpp"

using namespace hindsight;

namespace {

// Two ranks (locations 0 and 1), MPI_COMM_WORLD, and a communicator holding
// world rank 1 only.
Definitions two_rank_definitions() {
    Definitions defs;
    defs.groups.push_back({"", GroupType::CommLocations, Paradigm::Mpi, {0, 1}});
    defs.groups.push_back({"", GroupType::CommGroup, Paradigm::Mpi, {0, 1}});
    defs.groups.push_back({"", GroupType::CommGroup, Paradigm::Mpi, {1}});
    defs.groups.push_back({"", GroupType::CommSelf, Paradigm::Mpi, {}});
    defs.communicators.push_back({"MPI_COMM_WORLD", 1, kNoId});
    defs.communicators.push_back({"sub", 2, 0});
    defs.communicators.push_back({"MPI_COMM_SELF", 3, kNoId});
    return defs;
}

}  // namespace

TEST_CASE("communicator members resolve to world ranks") {
    const Definitions defs = two_rank_definitions();
    CHECK(defs.world_ranks(0) == std::vector<int>{0, 1});
    CHECK(defs.world_ranks(1) == std::vector<int>{1});
    CHECK(defs.world_ranks(2).empty());
    CHECK(defs.world_ranks(99).empty());
}

TEST_CASE("locations map to ranks and back") {
    const Definitions defs = two_rank_definitions();
    CHECK(defs.mpi_rank_count() == 2);
    CHECK(defs.world_rank_of(1) == 1);
    CHECK_FALSE(defs.world_rank_of(7).has_value());
    CHECK(defs.location_of_rank(0) == LocationId{0});
    CHECK_FALSE(defs.location_of_rank(2).has_value());
}

TEST_CASE("errors read as one line naming the file") {
    const Error e("trace/traces.otf2", "not an OTF2 archive");
    CHECK(std::string(e.what()) == "trace/traces.otf2: not an OTF2 archive");
    CHECK(e.file() == "trace/traces.otf2");
    CHECK(std::string(Error("", "bare problem").what()) == "bare problem");
}

TEST_CASE("only a communicator of every rank in world order is MPI_COMM_WORLD") {
    Definitions defs = two_rank_definitions();
    defs.groups.push_back({"", GroupType::CommGroup, Paradigm::Mpi, {1, 0}});  // 4: both ranks, swapped
    defs.groups.push_back({"", GroupType::CommGroup, Paradigm::Mpi, {0, 1}});  // 5: a copy of world's
    defs.communicators.push_back({"swapped", 4, 0});                           // 3
    defs.communicators.push_back({"dup", 5, 0});                               // 4
    defs.communicators.push_back({"broken", 99, 0});                           // 5: no such group
    CHECK(defs.is_world(0));
    CHECK(defs.is_world(4));  // MPI_Comm_dup of MPI_COMM_WORLD
    CHECK_FALSE(defs.is_world(1));  // world rank 1 only
    CHECK_FALSE(defs.is_world(2));  // MPI_COMM_SELF
    CHECK_FALSE(defs.is_world(3));  // every rank, but not at its world rank
    CHECK_FALSE(defs.is_world(5));
    CHECK_FALSE(defs.is_world(99));
    // Without the ranks' locations no communicator spans them all.
    Definitions no_ranks = two_rank_definitions();
    no_ranks.groups[0].type = GroupType::CommGroup;
    CHECK_FALSE(no_ranks.is_world(0));
}
