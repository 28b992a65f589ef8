// The MPI RMA windows this process saw, as Score-P defines them for OTF2
// (RmaWin, on the window's communicator), and the transfers issued on each
// that no synchronization has completed at their target yet.
//
// Global identity without a word exchanged: creating a window is
// collective over its communicator, so every member creates the windows
// of that communicator in the same order; the pair (communicator, how many
// windows of it came before) names a window alike on all members. Local
// ids here; MPI_Finalize unifies them (definition_unification.hpp).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include <mpi.h>
#include <otf2/otf2.h>

namespace hindsight::collect {

struct RmaWinRecord {
    OTF2_CommRef comm = OTF2_UNDEFINED_COMM;  // local communicator id
    std::uint32_t number = 0;                 // windows of that communicator created before it
};

// A transfer issued and not completed at its target: its matching id and
// target, and whether it completed at the origin already (its request, a
// local flush), so that only its completion at the target is left.
struct RmaPending {
    std::uint64_t matching_id = 0;
    int target = 0;
    bool completed_locally = false;
};

// The two epochs of general active target synchronization a window can
// have open at once: as origin (MPI_Win_start ... _complete) and as target
// (MPI_Win_post ... _wait or a successful _test).
enum class RmaEpoch : std::uint8_t { Access, Exposure };

class RmaRegistry {
public:
    // `win`, just created over the communicator of local id `comm`
    // (`allocated`: with its memory); returns its local id. A handle value
    // MPI reuses after a free is a new window.
    std::uint32_t created(MPI_Win win, OTF2_CommRef comm, bool allocated) {
        const auto id = static_cast<std::uint32_t>(windows_.size());
        windows_.push_back({comm, created_on_[comm]++});
        open_[win] = Open{id, allocated, 0, {}, {}};
        return id;
    }
    // Whether MPI allocated the memory of `win` (MPI_Win_allocate & co.).
    bool allocated(MPI_Win win) const {
        const auto it = open_.find(win);
        return it != open_.end() && it->second.allocated;
    }
    // The local id of `win`, if this process saw it created.
    std::optional<std::uint32_t> window(MPI_Win win) const {
        const auto it = open_.find(win);
        return it == open_.end() ? std::nullopt : std::optional<std::uint32_t>(it->second.id);
    }
    void freed(MPI_Win win) { open_.erase(win); }
    // A transfer issued on `win` to `target`: its matching id (unique per
    // window), or nullopt for an unknown window.
    std::optional<std::uint64_t> issued(MPI_Win win, int target) {
        const auto it = open_.find(win);
        if (it == open_.end()) return std::nullopt;
        const std::uint64_t id = it->second.next_matching_id++;
        it->second.pending.push_back({id, target});
        return id;
    }
    // Takes the pending transfers of `win` that a synchronization
    // completes: all of them, or those to `target` (a rank of the window).
    std::vector<RmaPending> complete(MPI_Win win, std::optional<int> target = std::nullopt) {
        std::vector<RmaPending> done;
        const auto it = open_.find(win);
        if (it == open_.end()) return done;
        std::vector<RmaPending>& pending = it->second.pending;
        if (!target) {
            done.swap(pending);
            return done;
        }
        const auto kept = std::stable_partition(pending.begin(), pending.end(),
                                                [&](const RmaPending& p) { return p.target != *target; });
        done.assign(kept, pending.end());
        pending.erase(kept, pending.end());
        return done;
    }

    // Marks the pending transfers of `win` (to `target` only, if given) as
    // completed at the origin (MPI_Win_flush_local & co.) and returns those
    // not marked before. They stay pending: only a synchronization completes
    // them at their target.
    std::vector<RmaPending> complete_locally(MPI_Win win, std::optional<int> target = std::nullopt) {
        std::vector<RmaPending> done;
        const auto it = open_.find(win);
        if (it == open_.end()) return done;
        for (RmaPending& p : it->second.pending) {
            if (p.completed_locally || (target && p.target != *target)) continue;
            p.completed_locally = true;
            done.push_back(p);
        }
        return done;
    }
    // Marks the pending transfer `matching_id` of `win`, whose own request
    // completed, as completed at the origin; false if it was before (or a
    // synchronization completed it at its target).
    bool complete_one_locally(MPI_Win win, std::uint64_t matching_id) {
        const auto it = open_.find(win);
        if (it == open_.end()) return false;
        // In order of their matching ids, which issued() hands out rising
        // and complete() keeps in order: an epoch of many request-based
        // transfers stays cheap.
        std::vector<RmaPending>& pending = it->second.pending;
        const auto found = std::lower_bound(pending.begin(), pending.end(), matching_id,
                                            [](const RmaPending& p, std::uint64_t id) { return p.matching_id < id; });
        if (found == pending.end() || found->matching_id != matching_id || found->completed_locally) return false;
        found->completed_locally = true;
        return true;
    }

    // The partners' group (a local group id) of the epoch of `win` that
    // MPI_Win_start or _post opened, for the call that closes it.
    void opened(MPI_Win win, RmaEpoch epoch, std::uint32_t group) {
        const auto it = open_.find(win);
        if (it != open_.end()) it->second.epoch_group[static_cast<std::size_t>(epoch)] = group;
    }
    std::optional<std::uint32_t> epoch_group(MPI_Win win, RmaEpoch epoch) const {
        const auto it = open_.find(win);
        if (it == open_.end()) return std::nullopt;
        return it->second.epoch_group[static_cast<std::size_t>(epoch)];
    }

    const std::vector<RmaWinRecord>& windows() const { return windows_; }

private:
    struct Open {
        std::uint32_t id = 0;
        bool allocated = false;
        std::uint64_t next_matching_id = 0;
        std::vector<RmaPending> pending;
        std::array<std::optional<std::uint32_t>, 2> epoch_group;  // by RmaEpoch
    };
    std::vector<RmaWinRecord> windows_;
    std::unordered_map<OTF2_CommRef, std::uint32_t> created_on_;
    std::unordered_map<MPI_Win, Open> open_;
};

}  // namespace hindsight::collect
