// The synchronization points of one rank, in trace order, as the delay
// analysis (Böhme et al., TOPC 2016, §5) delimits its synchronization
// intervals with them: a synchronization interval ends at a wait state and
// begins at the previous synchronization point that involved the same ranks.
//
// Which events are synchronization points follows Scalasca's trace analyzer,
// whose reports we reproduce, and the forward pass marks them
// (WaitState::synchronizes):
//  - a receive that waited for its sender (Late Sender), and that send;
//  - a send that waited for its receiver (Late Receiver), and that receive;
//  - a collective, for the ranks it synchronized: every member of a
//    barrier, of MPI_Init and MPI_Finalize and of an n-to-n operation that
//    all members overlapped; otherwise the members that waited and the rank
//    they waited for (collective_wait_states.hpp). Scans are none.
// Messages nobody waited for do not synchronize anybody: a rank may send
// and receive them at any time.
//
// A wait in a one-sided epoch that a partner's call ended (rma_waits.hpp)
// is a point of the waiting rank and of that call's rank, tying the two
// like a Late Sender's receive and send.
//
// On a hybrid rank the master's OpenMP barrier waits are points, too
// (LocalWait): they tie the rank to no other rank, so no interval begins
// there, but an interval that holds one counts its waiting as the rank's
// waiting, not its work, and the costs it explains pass through it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "analyses/forward_facts.hpp"
#include "analyses/patterns.hpp"
#include "analyses/rma_waits.hpp"
#include "common/call_tree.hpp"
#include "trace/local_trace.hpp"

namespace hindsight::analyses {

// Names one operation the same way on every rank that took part in it, so
// that ranks can tell each other where their intervals begin: a hash of the
// communicator and the operation's number on it (collectives), or of the
// sender, receiver, communicator, tag and the message's number among the
// synchronizing messages of that channel (point-to-point).
using OperationId = std::uint64_t;

struct SyncPoint {
    trace::EventIndex event = trace::kNoEvent;
    trace::EventIndex enter = trace::kNoEvent;  // the Enter of its MPI call
    CallPathId cnode = kNoCallPath;               // the MPI call's call path
    Ticks wait = 0;                               // this rank's waiting there
    // The call's time minus its completion time: the part of the call that
    // an interval beginning here leaves out (only the completion counts as
    // the rank's activity).
    Ticks prune = 0;
    OperationId operation = 0;
    // A one-sided epoch's wait: its index in RmaWaits::waits; else -1.
    int rma_wait = -1;
};

// A wait of this rank that synchronized it with none of the others: the
// Enter and Leave of the region it waited in, and its waiting.
struct LocalWait {
    trace::EventIndex enter = trace::kNoEvent;
    trace::EventIndex leave = trace::kNoEvent;
    Ticks wait = 0;
};

class SyncPointList {
public:
    static constexpr std::size_t kNone = static_cast<std::size_t>(-1);

    SyncPointList() = default;
    SyncPointList(const trace::LocalTrace& trace, const ForwardFacts& facts,
                  std::span<const LocalWait> local_waits = {}, const RmaWaits& rma = {});

    std::size_t size() const { return points_.size(); }
    const SyncPoint& operator[](std::size_t position) const { return points_[position]; }
    // The position of the synchronization point at `event`, or kNone.
    std::size_t position(trace::EventIndex event) const;
    // The last synchronization point before `position` that involved world
    // rank `peer`, or kNone.
    std::size_t previous(std::size_t position, int peer) const;

private:
    // Whom a synchronization point tied this rank to.
    enum class Scope : std::uint8_t { Peer, Communicator, Listed, Nobody };
    struct Group {
        Scope scope = Scope::Peer;
        std::uint32_t who = 0;  // world rank, communicator id or index into listed_
    };
    bool involves(const Group& group, int world_rank) const;
    Group collective_group(SyncGroup rule, const trace::Collective& coll, int cause);
    const std::vector<int>& sorted_members(CommId comm) const;
    // In communicator rank order; empty for MPI_COMM_SELF-like ones.
    const std::vector<int>& ordered_members(CommId comm);

    std::vector<SyncPoint> points_;                // in the order they happened
    std::vector<Group> groups_;                    // by position
    std::vector<std::pair<trace::EventIndex, std::size_t>> by_event_;  // position by event, sorted
    std::vector<std::vector<int>> listed_;         // sorted world ranks
    mutable std::vector<std::vector<int>> members_;  // sorted, by communicator, filled when asked
    std::vector<std::vector<int>> ordered_;          // by communicator, filled when asked
    const trace::LocalTrace* trace_ = nullptr;
};

}  // namespace hindsight::analyses
