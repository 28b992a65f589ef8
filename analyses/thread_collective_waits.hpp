// The wait states of the collective operations OpenMP worker threads made,
// which pairing left out of the replay on every member and measured in
// bulk (replay/thread_collective_pairing.hpp): each member's part
// (trace::ThreadStreams::collective_parts) knows the latest arrival and the
// earliest end of all members, the root's arrival and the latest arrivals
// of the members that sent data. As in the replay's analysis
// (wait_states/collective_wait_states.hpp):
//  - where every member was inside a barrier, a collective file operation,
//    a window's creation, fence or release, or an n-to-n operation that
//    moved data at one moment (the earliest end after the latest arrival),
//    each waited until the last one arrived (Wait at Barrier, at collective
//    I/O, at Create, at Fence, at Free, at N x N) and took the rest of its
//    call to complete; a file operation arrived where it began
//    (in a split or non-blocking one's begin call), and waited from then
//    or from the entry of the call that completed it, whichever is later;
//  - a member receiving from a root that sent and came later waited for it
//    (Late Broadcast), a root receiving for the last member that sent
//    (Early Reduce), a member of a scan for the last lower member that sent
//    (Early Scan).
//  - where some member of an n-to-n operation left before the last one
//    came, only the last member that sent and the receivers that began
//    before it synchronized: those receivers waited for it.
// Their delay costs and the critical path's hand-offs follow from whom each
// member waited for (delay/collective_part_points.hpp,
// critical_path/critical_path_hand_offs.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyses/collective_timing.hpp"
#include "analyses/patterns.hpp"
#include "trace/local_trace.hpp"

namespace hindsight::analyses {

struct CollectivePartWait {
    WaitPattern pattern = WaitPattern::None;  // None: not measured
    CollectiveTiming timing;
    std::int32_t awaited = -1;  // the member it waited for (a rank of the communicator)
};

// The shapes whose operations synchronize their members where all were
// inside at one moment: barriers, a file's or a window's collective
// operations and n-to-n operations (of those, the members that moved data).
constexpr bool synchronizes_where_all_met(CollectiveShape shape) {
    switch (shape) {
    case CollectiveShape::Barrier:
    case CollectiveShape::FileIo:
    case CollectiveShape::RmaCreate:
    case CollectiveShape::RmaFree:
    case CollectiveShape::RmaFence:
    case CollectiveShape::NToN: return true;
    default: return false;
    }
}

// Whether every member told the operation and root of `part`: members
// whose records disagree (a damaged trace) met at different operations,
// which neither wait for each other nor synchronize.
bool members_agree(const trace::ThreadCollectivePart& part);

// The line the summary's warnings give the rank's parts whose members
// disagree, which no wait state or synchronization comes from; none where
// all agree.
std::optional<std::string> disagreement_warning(const trace::LocalTrace& trace);

// By trace.threads.collective_parts.
std::vector<CollectivePartWait> thread_collective_waits(const trace::LocalTrace& trace);

}  // namespace hindsight::analyses
