// What one rank keeps instead of a trace in profile mode (hindsight-collect
// --profile): per call path of the same call tree the tracer records, the
// visits, the time inside (inclusive), its shortest and longest visit and
// the bytes its MPI calls sent and received; and per communicator and MPI
// operation (the communicator-centric profile after mpisee) the calls, the
// operations, their time, bytes and message sizes.
//
// Its size grows with the number of distinct call paths and (communicator,
// operation) pairs, never with the number of calls: once a run has met its
// call paths, an event costs a few additions and at most two hash lookups
// (none for a loop's callee, which its caller remembers), and allocates
// nothing.
#pragma once

#include <cstdint>
#include <limits>
#include <unordered_map>
#include <vector>

#include "common/call_tree.hpp"

namespace hindsight::collect {

struct PathStats {
    std::uint64_t visits = 0;
    std::uint64_t inclusive = 0;  // ticks inside the call path, callees included
    std::uint64_t shortest = std::numeric_limits<std::uint64_t>::max();  // of one visit, inclusive
    std::uint64_t longest = 0;
    std::uint64_t bytes_sent = 0;
    std::uint64_t bytes_received = 0;
    // The events other than ENTER and LEAVE a trace would hold for the
    // visits (messages, collectives, requests): a trace's size, foretold.
    std::uint64_t events = 0;
};

// One MPI operation (the region of the call) on one communicator, counted
// as the trace analysis counts it (analyses/communication/
// communicator_profile.hpp): a call once, at its first communication
// event, on that event's communicator; each message's bytes on its own
// communicator; an operation by the caller of a point-to-point call and by
// rank 0 of a collective's communicator.
struct CommOperation {
    std::uint32_t comm = 0;    // local communicator id (later the global one)
    std::uint32_t region = 0;  // local region id (later the global one)
    std::uint64_t operations = 0;
    std::uint64_t calls = 0;
    std::uint64_t time = 0;  // ticks inside the counted calls
    std::uint64_t bytes_sent = 0;
    std::uint64_t bytes_received = 0;
    // Point-to-point messages sent or received, and their sizes.
    std::uint64_t messages = 0;
    std::uint64_t smallest_message = std::numeric_limits<std::uint64_t>::max();
    std::uint64_t largest_message = 0;
};

class CallPathProfile {
public:
    CallPathProfile() { open_.reserve(64); }

    // `region` (local id) entered at `time` below the innermost open call path.
    void enter(std::uint32_t region, std::uint64_t time) {
        CallPathId path = kNoCallPath;
        if (!open_.empty()) {
            // A loop enters the same callee again and again: each call path
            // remembers its last one, which spares the hash lookup.
            const LastChild& last = last_child_[open_.back().path];
            if (last.region == region) path = last.path;
        }
        if (path == kNoCallPath) path = find_path(region);
        open_.push_back({path, time, nullptr});
    }
    // The innermost open call path left at `time`; nothing is open: ignored.
    void leave(std::uint64_t time);

    // A point-to-point message of the innermost open call (an MPI call) on
    // communicator `comm`: `sent` or received, of `bytes`.
    void message(std::uint32_t comm, std::uint64_t bytes, bool sent);
    // A collective operation of the innermost open call on `comm`; `counts`:
    // this rank is the communicator's rank 0, which counts the operation.
    void collective(std::uint32_t comm, std::uint64_t sent, std::uint64_t received, bool counts);
    // Another event a trace would record in the innermost open call (a
    // request's start, test or completion without a message, a collective's
    // begin), for the trace's size.
    void note_event() {
        if (!open_.empty()) stats_[open_.back().path].events += 1;
    }
    // The region of the innermost open call (kNoId when none is open): a
    // non-blocking collective counts with the call that started it.
    std::uint32_t current_region() const {
        return open_.empty() ? kNoId : tree_.node(open_.back().path).region;
    }
    // The completion of a non-blocking collective that the call of region
    // `started_by` started on `comm`: its bytes, and the time of the
    // completing call (the innermost open one) once.
    void collective_completed(std::uint32_t comm, std::uint32_t started_by, std::uint64_t sent,
                              std::uint64_t received);

    std::size_t open_paths() const { return open_.size(); }
    const CallTree& tree() const { return tree_; }
    const std::vector<PathStats>& paths() const { return stats_; }
    // In no particular order.
    std::vector<CommOperation> comm_operations() const;
    // Bytes this profile holds (the call tree, its statistics and the
    // communicator table), for the verbose report of its size.
    std::size_t memory_bytes() const;

private:
    struct Open {
        CallPathId path;
        std::uint64_t entered;
        CommOperation* counted;  // the entry the call counts with, once known
    };
    // The callee `region` of the innermost open call path (a root when none
    // is open), created on first use; remembered as its last callee.
    CallPathId find_path(std::uint32_t region);
    CommOperation& entry(std::uint32_t comm, std::uint32_t region);
    // Counts the innermost open call with `op`, once per call.
    void count_call(CommOperation& op, bool is_operation);

    CallTree tree_;
    std::vector<PathStats> stats_;  // by call path id
    struct LastChild {
        std::uint32_t region = kNoId;
        CallPathId path = kNoCallPath;
    };
    std::vector<LastChild> last_child_;  // by call path id
    std::vector<Open> open_;
    // By (communicator << 32 | region); entries never move (node-based map),
    // so the open calls may point at them.
    std::unordered_map<std::uint64_t, CommOperation> operations_;
};

}  // namespace hindsight::collect
