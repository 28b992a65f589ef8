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
