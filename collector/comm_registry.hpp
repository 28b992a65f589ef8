// The communicators this process knows, with what the analysis needs of
// each: its members as MPI_COMM_WORLD ranks, its parent and the call that
// created it.
//
// Global identity: the members of a new communicator agree on a key when it
// is created. Its rank 0 draws the next number of its own counter and
// broadcasts (world rank of that process, number); no two communicators can
// get the same pair, and every member holds the same key, so MPI_Finalize
// unifies the ranks' local tables by key alone.
//
// MPI_Comm_idup cannot agree that way: the new communicator may not be used
// before the request completes, and a collective on the parent at that point
// could wait for a rank that is not ready to take part. Every member of the
// parent starts the same idups of that parent in the same order, so the pair
// (parent's key, how many idups of the parent came before) names the new
// communicator alike on all members without a word exchanged; its key is
// that pair mixed into 62 bits, marked by kDerivedKeyBit. Two such keys
// coincide with a probability of 2^-62 per pair of communicators.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include <mpi.h>
#include <otf2/otf2.h>

namespace hindsight::collect {

using CommKey = std::uint64_t;
inline constexpr CommKey kWorldKey = 0;
inline constexpr CommKey kSelfKey = 1;
inline constexpr CommKey kNoCommKey = ~CommKey{0};
// Keys of communicators whose creation was not observed (made by a call the
// collector does not wrap): unique, but known to this rank only.
inline constexpr CommKey kRankLocalKeyBit = CommKey{1} << 63;
// Keys of communicators made by MPI_Comm_idup (see above).
inline constexpr CommKey kDerivedKeyBit = CommKey{1} << 62;

struct CommRecord {
    CommKey key = kNoCommKey;
    CommKey parent = kNoCommKey;
    // The communicator's name: the creating call, the reorder flag of a
    // topology constructor and the call path of the creation
    // (common/communicator_origin.hpp), e.g. "MPI_Comm_split @ main > setup";
    // empty for WORLD and SELF.
    std::string creator;
    bool inter = false;
    std::vector<int> members;       // world ranks in communicator rank order (local group)
    std::vector<int> remote_members;  // inter-communicators: the remote group
    // A Cartesian topology: the extent of each dimension and whether it is
    // periodic (0 or 1); empty for other communicators.
    std::vector<int> cart_dims;
    std::vector<int> cart_periods;
};

// An inter-communicator is written as one communicator over both groups,
// the group holding the lower MPI_COMM_WORLD rank first: an order both
// groups derive alike. Events on it name ranks of that joint order.
inline bool local_group_first(const CommRecord& record) {
    if (record.members.empty() || record.remote_members.empty()) return true;
    return *std::min_element(record.members.begin(), record.members.end()) <
           *std::min_element(record.remote_members.begin(), record.remote_members.end());
}

// Key of the communicator agreed by rank `root_world_rank` with its
// `number`-th communicator.
constexpr CommKey make_comm_key(int root_world_rank, std::uint32_t number) {
    return (static_cast<CommKey>(root_world_rank + 1) << 32) | number;
}

// Key of the `number`-th MPI_Comm_idup of the communicator keyed `parent`.
constexpr CommKey derived_comm_key(CommKey parent, std::uint64_t number) {
    // splitmix64's finaliser over both halves: neighbouring inputs spread
    // over the whole range.
    auto mix = [](std::uint64_t z) {
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    };
    return kDerivedKeyBit | (mix(mix(parent) + number) & (kDerivedKeyBit - 1));
}

// The ranks of MPI_COMM_WORLD of the members of `group`, in group order.
std::vector<int> world_ranks_of(MPI_Group group);

class CommRegistry {
public:
    CommRegistry(int world_rank, int world_size);

    // Local id of `comm` for events. Programs mostly talk on one
    // communicator at a time: the last one answers without a lookup.
    OTF2_CommRef id(MPI_Comm comm) {
        if (comm == MPI_COMM_WORLD) return 0;
        if (comm == MPI_COMM_SELF) return 1;
        if (comm == last_handle_) return last_id_;
        const auto it = handles_.find(comm);
        last_id_ = it != handles_.end() ? it->second : adopt(comm);
        last_handle_ = comm;
        return last_id_;
    }

    // Records `comm`, just created from `parent`, under `name` (see
    // CommRecord::creator). Collective over `comm` (it agrees on the key);
    // nothing happens for MPI_COMM_NULL.
    void created(MPI_Comm comm, MPI_Comm parent, std::string name);
    // The same in three steps, so that a caller that locks the registry
    // (MPI_THREAD_MULTIPLE) does not hold its lock in the collective step:
    // a description of `comm` (local; a parent never seen is adopted), the
    // agreement on its key
    // (collective, touches nothing of the registry but a counter), and
    // the record's addition.
    CommRecord describe(MPI_Comm comm, MPI_Comm parent, std::string name);
    void agree(MPI_Comm comm, CommRecord& record) { record.key = agree_on_key(comm, record.inter); }
    void add_created(MPI_Comm comm, CommRecord record) { add(comm, std::move(record)); }
    // MPI_Comm_idup of `parent` returned `comm` with the request whose
    // OTF2 id is `request`; finish_dup(request) records `comm` once that
    // request completed. Local: no communication.
    void begin_dup(MPI_Comm comm, MPI_Comm parent, std::string name, std::uint64_t request);
    void finish_dup(std::uint64_t request);
    // `comm` is about to be freed; its handle may be reused afterwards.
    void freed(MPI_Comm comm) {
        handles_.erase(comm);
        if (comm == last_handle_) last_handle_ = MPI_COMM_NULL;
    }

    const std::vector<CommRecord>& records() const { return records_; }

    // Rank `rank` of `comm` (local id) as events name it: on an
    // inter-communicator MPI names the remote group's ranks, the trace
    // ranks of both groups in their joint order (local_group_first).
    std::uint32_t peer(OTF2_CommRef comm, int rank) const {
        return static_cast<std::uint32_t>(rank) + remote_offsets_[comm];
    }
    bool inter(OTF2_CommRef comm) const { return records_[comm].inter; }

private:
    OTF2_CommRef adopt(MPI_Comm comm);
    OTF2_CommRef add(MPI_Comm comm, CommRecord record);
    void fill_members(MPI_Comm comm, CommRecord& record) const;
    CommKey agree_on_key(MPI_Comm comm, bool inter);

    int world_rank_;
    std::atomic<std::uint32_t> created_here_{0};
    std::uint32_t adopted_here_ = 0;
    std::unordered_map<MPI_Comm, OTF2_CommRef> handles_;
    struct PendingDup {
        MPI_Comm comm;
        CommRecord record;  // without members: those are read at completion
    };
    std::unordered_map<std::uint64_t, PendingDup> pending_dups_;
    std::unordered_map<CommKey, std::uint64_t> dups_of_;  // idups begun per parent key
    MPI_Comm last_handle_ = MPI_COMM_NULL;
    OTF2_CommRef last_id_ = 0;
    std::vector<CommRecord> records_;
    std::vector<std::uint32_t> remote_offsets_;  // per record: where the remote group starts
};

}  // namespace hindsight::collect
