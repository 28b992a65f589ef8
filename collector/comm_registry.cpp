#include "collector/comm_registry.hpp"

#include <numeric>

namespace hindsight::collect {

std::vector<int> world_ranks_of(MPI_Group group) {
    int n = 0;
    PMPI_Group_size(group, &n);
    std::vector<int> ranks(static_cast<std::size_t>(n));
    std::iota(ranks.begin(), ranks.end(), 0);
    std::vector<int> world(ranks.size());
    MPI_Group world_group = MPI_GROUP_NULL;
    PMPI_Comm_group(MPI_COMM_WORLD, &world_group);
    PMPI_Group_translate_ranks(group, n, ranks.data(), world_group, world.data());
    PMPI_Group_free(&world_group);
    return world;
}

CommRegistry::CommRegistry(int world_rank, int world_size) : world_rank_(world_rank) {
    CommRecord world{kWorldKey, kNoCommKey, "", false, {}, {}, {}, {}};
    world.members.resize(static_cast<std::size_t>(world_size));
    std::iota(world.members.begin(), world.members.end(), 0);
    records_.push_back(std::move(world));
    records_.push_back(CommRecord{kSelfKey, kNoCommKey, "", false, {}, {}, {}, {}});
    remote_offsets_.assign(2, 0);
}

void CommRegistry::fill_members(MPI_Comm comm, CommRecord& record) const {
    int inter = 0;
    PMPI_Comm_test_inter(comm, &inter);
    record.inter = inter != 0;
    MPI_Group group = MPI_GROUP_NULL;
    PMPI_Comm_group(comm, &group);
    record.members = world_ranks_of(group);
    PMPI_Group_free(&group);
    if (record.inter) {
        PMPI_Comm_remote_group(comm, &group);
        record.remote_members = world_ranks_of(group);
        PMPI_Group_free(&group);
        return;  // inter-communicators carry no topology
    }
    int topology = MPI_UNDEFINED;
    PMPI_Topo_test(comm, &topology);
    if (topology != MPI_CART) return;
    int ndims = 0;
    PMPI_Cartdim_get(comm, &ndims);
    const auto n = static_cast<std::size_t>(ndims);
    record.cart_dims.resize(n);
    record.cart_periods.resize(n);
    std::vector<int> coords(n);
    PMPI_Cart_get(comm, ndims, record.cart_dims.data(), record.cart_periods.data(), coords.data());
}

CommKey CommRegistry::agree_on_key(MPI_Comm comm, bool inter) {
    // An inter-communicator's broadcast goes from one group to the other;
    // the merged intra-communicator lets both groups hear the same root.
    MPI_Comm agree = comm;
    if (inter) PMPI_Intercomm_merge(comm, 0, &agree);
    int rank = 0;
    PMPI_Comm_rank(agree, &rank);
    CommKey key = rank == 0 ? make_comm_key(world_rank_, ++created_here_) : kNoCommKey;  // atomic: see agree()
    PMPI_Bcast(&key, 1, MPI_UINT64_T, 0, agree);
    if (inter) PMPI_Comm_free(&agree);
    return key;
}

void CommRegistry::created(MPI_Comm comm, MPI_Comm parent, std::string name) {
    if (comm == MPI_COMM_NULL) return;
    CommRecord record = describe(comm, parent, std::move(name));
    agree(comm, record);
    add(comm, std::move(record));
}

CommRecord CommRegistry::describe(MPI_Comm comm, MPI_Comm parent, std::string name) {
    CommRecord record;
    record.creator = std::move(name);
    record.parent = records_[id(parent)].key;
    fill_members(comm, record);
    return record;
}

void CommRegistry::begin_dup(MPI_Comm comm, MPI_Comm parent, std::string name, std::uint64_t request) {
    if (comm == MPI_COMM_NULL) return;
    CommRecord record;
    record.creator = std::move(name);
    record.parent = records_[id(parent)].key;
    record.key = derived_comm_key(record.parent, dups_of_[record.parent]++);
    pending_dups_.emplace(request, PendingDup{comm, std::move(record)});
}

void CommRegistry::finish_dup(std::uint64_t request) {
    const auto it = pending_dups_.find(request);
    if (it == pending_dups_.end()) return;
    PendingDup dup = std::move(it->second);
    pending_dups_.erase(it);
    fill_members(dup.comm, dup.record);
    add(dup.comm, std::move(dup.record));
}

OTF2_CommRef CommRegistry::adopt(MPI_Comm comm) {
    CommRecord record;
    record.key = kRankLocalKeyBit | (static_cast<CommKey>(world_rank_) << 32) | ++adopted_here_;
    record.creator = "unknown";
    fill_members(comm, record);
    return add(comm, std::move(record));
}

OTF2_CommRef CommRegistry::add(MPI_Comm comm, CommRecord record) {
    const bool remote_after = record.inter && local_group_first(record);
    remote_offsets_.push_back(remote_after ? static_cast<std::uint32_t>(record.members.size()) : 0);
    records_.push_back(std::move(record));
    const auto id = static_cast<OTF2_CommRef>(records_.size() - 1);
    handles_[comm] = id;
    if (comm == last_handle_) last_id_ = id;
    return id;
}

}  // namespace hindsight::collect
