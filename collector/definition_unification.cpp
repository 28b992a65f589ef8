#include "collector/definition_unification.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace hindsight::collect {

namespace {

struct GroupTable {
    std::vector<GlobalGroup>& groups;
    std::map<std::vector<std::uint64_t>, std::uint32_t> index{};

    std::uint32_t of(const std::vector<int>& world_ranks) {
        std::vector<std::uint64_t> members(world_ranks.begin(), world_ranks.end());
        const auto it = index.find(members);
        if (it != index.end()) return it->second;
        const auto id = static_cast<std::uint32_t>(groups.size());
        groups.push_back({OTF2_GROUP_TYPE_COMM_GROUP, members, OTF2_PARADIGM_MPI, ""});
        index.emplace(std::move(members), id);
        return id;
    }
};

std::string region_key(const RegionDef& r) {
    return std::to_string(static_cast<int>(r.paradigm)) + ':' + r.canonical_name + ':' + r.name;
}

// The OpenMP locations group and one group and communicator per rank's
// thread team; a team of n threads holds the rank's threads 0 .. n - 1.
void unify_thread_teams(const std::vector<LocalDefinitions>& ranks, UnifiedDefinitions& out) {
    for (const LocalDefinitions& rank : ranks) {
        out.thread_events_of_rank.push_back(rank.thread_events);
        out.openmp = out.openmp || !rank.thread_events.empty() || !rank.team_sizes.empty();
    }
    if (!out.openmp) return;
    GlobalGroup locations{OTF2_GROUP_TYPE_COMM_LOCATIONS, {}, OTF2_PARADIGM_OPENMP, "OpenMP"};
    std::vector<std::uint64_t> first_index;  // of each rank's master in that group
    for (std::uint64_t r = 0; r < ranks.size(); ++r) {
        first_index.push_back(locations.members.size());
        const std::uint64_t threads = 1 + ranks[r].thread_events.size();
        for (std::uint64_t t = 0; t < threads; ++t) locations.members.push_back(thread_location(r, t));
    }
    out.groups.push_back(std::move(locations));
    std::uint64_t team_number = 0;
    for (std::size_t r = 0; r < ranks.size(); ++r) {
        const std::uint64_t threads = 1 + ranks[r].thread_events.size();
        for (const std::uint32_t size : ranks[r].team_sizes) {
            // A thread that never recorded an event has no location: the
            // team holds those that have one.
            GlobalGroup team{OTF2_GROUP_TYPE_COMM_GROUP, {}, OTF2_PARADIGM_OPENMP, ""};
            for (std::uint64_t t = 0; t < std::min<std::uint64_t>(size, threads); ++t)
                team.members.push_back(first_index[r] + t);
            out.comm_maps[r].push_back(out.comms.size());
            out.comms.push_back({"Thread team " + std::to_string(team_number++),
                                 static_cast<std::uint32_t>(out.groups.size()), OTF2_UNDEFINED_COMM, {}, {}});
            out.groups.push_back(std::move(team));
        }
    }
}

// A window is (global communicator, number among its windows) on every
// member alike (rma_registry.hpp): that pair is its identity.
void unify_rma_windows(const std::vector<LocalDefinitions>& ranks, UnifiedDefinitions& out) {
    std::map<std::pair<std::uint64_t, std::uint32_t>, std::uint64_t> ids;
    for (std::size_t r = 0; r < ranks.size(); ++r)
        for (const RmaWinRecord& w : ranks[r].rma_windows) ids.emplace(std::pair{out.comm_maps[r].at(w.comm), w.number}, 0);
    for (auto& [key, id] : ids) {
        id = out.rma_windows.size();
        out.rma_windows.push_back(static_cast<OTF2_CommRef>(key.first));
    }
    for (std::size_t r = 0; r < ranks.size(); ++r) {
        auto& map = out.rma_win_maps.emplace_back();
        for (const RmaWinRecord& w : ranks[r].rma_windows) map.push_back(ids.at({out.comm_maps[r].at(w.comm), w.number}));
    }
}

}  // namespace

UnifiedDefinitions unify(const std::vector<LocalDefinitions>& ranks) {
    UnifiedDefinitions out;
    const auto nranks = ranks.size();

    // Regions, in order of first appearance.
    std::unordered_map<std::string, std::uint64_t> region_ids;
    for (const LocalDefinitions& rank : ranks) {
        auto& map = out.region_maps.emplace_back();
        for (const RegionDef& r : rank.regions) {
            auto [it, added] = region_ids.emplace(region_key(r), out.regions.size());
            if (added) out.regions.push_back(r);
            map.push_back(it->second);
        }
    }

    // Nodes and locations.
    std::map<std::string, std::uint32_t> node_ids;
    for (const LocalDefinitions& rank : ranks) {
        auto [it, added] = node_ids.emplace(rank.hostname, static_cast<std::uint32_t>(out.nodes.size()));
        if (added) out.nodes.push_back(rank.hostname);
        out.node_of_rank.push_back(it->second);
        out.events_of_rank.push_back(rank.event_count);
    }

    // Groups: the locations, MPI_COMM_SELF's, then one per member list.
    GlobalGroup locations{OTF2_GROUP_TYPE_COMM_LOCATIONS, {}, OTF2_PARADIGM_MPI, ""};
    for (std::uint64_t r = 0; r < nranks; ++r) locations.members.push_back(r);
    out.groups.push_back(std::move(locations));
    out.groups.push_back({OTF2_GROUP_TYPE_COMM_SELF, {}, OTF2_PARADIGM_MPI, ""});
    constexpr std::uint32_t kSelfGroup = 1;
    GroupTable groups{out.groups};

    // Communicators: one per key, the first description seen wins (every
    // member describes the same members and parent).
    std::map<CommKey, const CommRecord*> by_key;
    for (const LocalDefinitions& rank : ranks) {
        for (const CommRecord& c : rank.comms) by_key.emplace(c.key, &c);
    }
    std::map<CommKey, std::uint32_t> comm_ids;
    for (const auto& [key, record] : by_key) comm_ids.emplace(key, static_cast<std::uint32_t>(comm_ids.size()));
    for (const auto& [key, record] : by_key) {
        GlobalComm comm;
        if (key == kWorldKey) {
            comm.name = "MPI_COMM_WORLD";
            comm.group = groups.of(record->members);
        } else if (key == kSelfKey) {
            comm.name = "MPI_COMM_SELF";
            comm.group = kSelfGroup;
        } else {
            comm.name = record->creator;
            comm.cart_dims = record->cart_dims;
            comm.cart_periods = record->cart_periods;
            // An inter-communicator becomes one COMM over both groups in
            // the order its events' ranks refer to (local_group_first):
            // OTF2 readers, the Python bindings among them, do not all
            // read INTER_COMM definitions.
            const bool local_first = local_group_first(*record);
            const std::vector<int>& first = local_first ? record->members : record->remote_members;
            const std::vector<int>& second = local_first ? record->remote_members : record->members;
            std::vector<int> all = first;
            all.insert(all.end(), second.begin(), second.end());
            comm.group = groups.of(all);
            const auto parent = comm_ids.find(record->parent);
            if (parent != comm_ids.end()) comm.parent = parent->second;
        }
        out.comms.push_back(std::move(comm));
    }
    for (const LocalDefinitions& rank : ranks) {
        auto& map = out.comm_maps.emplace_back();
        for (const CommRecord& c : rank.comms) map.push_back(comm_ids.at(c.key));
    }
    // After the communicators', so that their groups keep their ids.
    for (const LocalDefinitions& rank : ranks) {
        auto& map = out.group_maps.emplace_back();
        for (const std::vector<int>& sources : rank.source_groups) map.push_back(groups.of(sources));
        out.receive_sources = out.receive_sources || !rank.source_groups.empty();
    }
    // MPI-IO files by name; handles rank by rank, each its own (a file
    // opened by all members of a communicator has a handle on each).
    std::map<std::string, std::uint64_t> file_ids;
    for (std::size_t r = 0; r < nranks; ++r) {
        const LocalDefinitions& rank = ranks[r];
        auto& files = out.io_file_maps.emplace_back();
        for (const std::string& f : rank.io_files) {
            const auto [it, added] = file_ids.emplace(f, out.io_files.size());
            if (added) out.io_files.push_back(f);
            files.push_back(it->second);
        }
        auto& handles = out.io_handle_maps.emplace_back();
        for (const IoHandleRecord& h : rank.io_handles) {
            handles.push_back(out.io_handles.size());
            const auto comm = h.comm == OTF2_UNDEFINED_COMM
                                  ? OTF2_CommRef{OTF2_UNDEFINED_COMM}
                                  : static_cast<OTF2_CommRef>(out.comm_maps[r].at(h.comm));
            out.io_handles.push_back({static_cast<std::uint32_t>(files.at(h.file)), comm});
        }
    }
    unify_rma_windows(ranks, out);
    unify_thread_teams(ranks, out);
    return out;
}

}  // namespace hindsight::collect
