// The transfer of local definitions to rank 0 and of the id maps back, on
// 3 ranks: once with definitions rank 0 can read (each rank gets the maps
// worked out below), once with rank 2 sending bytes rank 0 cannot read.
// Then no rank may wait for maps that never come: every rank returns with
// the failure flagged, rank 0 knowing why. A hang fails through the test's
// timeout. Exit status 0 when every rank saw what it should.
#include <mpi.h>

#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "collector/definition_transfer.hpp"

using namespace hindsight::collect;

namespace {

int g_rank = 0;
bool g_ok = true;

void expect(bool condition, const std::string& what) {
    if (condition) return;
    std::fprintf(stderr, "unify_across_ranks: rank %d: %s\n", g_rank, what.c_str());
    g_ok = false;
}

// Rank 0 defines MPI_Send; every other rank MPI_Send and a user region of
// its own, "work<rank>". Global ids in order of first appearance:
// MPI_Send = 0, work1 = 1, work2 = 2.
LocalDefinitions definitions_of(int rank, int size) {
    LocalDefinitions defs;
    defs.regions.push_back({"MPI_Send", "MPI_Send", OTF2_REGION_ROLE_POINT2POINT, OTF2_PARADIGM_MPI, "MPI"});
    if (rank > 0) {
        const std::string name = "work" + std::to_string(rank);
        defs.regions.push_back({name, name, OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER, ""});
    }
    CommRecord world{kWorldKey, kNoCommKey, "", false, std::vector<int>(static_cast<std::size_t>(size)), {}, {}, {}};
    std::iota(world.members.begin(), world.members.end(), 0);
    defs.comms = {world, CommRecord{kSelfKey, kNoCommKey, "", false, {}, {}, {}, {}}};
    defs.hostname = "host";
    defs.event_count = 1;
    return defs;
}

}  // namespace

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 3) {
        if (g_rank == 0) std::fprintf(stderr, "unify_across_ranks: run me on 3 ranks\n");
        MPI_Finalize();
        return 2;
    }
    const std::vector<std::byte> good = serialize(definitions_of(g_rank, size));

    const TransferredDefinitions fine = unify_serialized_across_ranks(good, MPI_COMM_WORLD);
    expect(!fine.failed && fine.failure.empty(), "readable definitions: the unification failed");
    const std::vector<std::vector<std::uint64_t>> region_maps = {{0}, {0, 1}, {0, 2}};
    expect(fine.region_map == region_maps[static_cast<std::size_t>(g_rank)], "wrong region map");
    expect(fine.comm_map == std::vector<std::uint64_t>({0, 1}), "wrong communicator map");
    if (g_rank == 0) expect(fine.unified.regions.size() == 3, "rank 0 must unify 3 regions");

    std::vector<std::byte> bad = good;
    if (g_rank == 2) bad.resize(bad.size() - 1);  // truncated: unreadable
    const TransferredDefinitions broken = unify_serialized_across_ranks(bad, MPI_COMM_WORLD);
    expect(broken.failed, "unreadable definitions: the failure was not flagged");
    expect(broken.region_map.empty() && broken.comm_map.empty(), "a failed unification must not hand out maps");
    if (g_rank == 0) {
        expect(broken.failure == "rank 2: malformed local definitions", "rank 0's reason: '" + broken.failure + "'");
    } else {
        expect(broken.failure.empty(), "only rank 0 knows the reason");
    }

    int ok = g_ok ? 1 : 0;
    int all_ok = 0;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Finalize();
    return all_ok ? 0 : 1;
}
