// The synchronization points of the collective operations that OpenMP
// worker threads made, which pairing measured outside the replay
// (trace::ThreadStreams::collective_parts, thread_collective_waits.hpp),
// for the delay analysis. A member's part is a point where the operation
// synchronized it, by the rules of the masters' collectives
// (wait_states/collective_wait_states.cpp):
//  - a barrier, a file's or a window's collective operation, or an n-to-n
//    operation that moved data, where all members were inside it at one
//    moment: every member (of an n-to-n one, every member that sent or
//    received, and the last to come), tied to every other;
//  - an n-to-n operation whose members did not all meet: the last member
//    that sent and the receivers that could wait before it came, each tied
//    to the others of them;
//  - a 1-to-n operation: each receiver that could wait before the root
//    came, tied to the root, and the root, tied to them;
//  - an n-to-1 operation whose root received and could wait before the
//    last sender came: the root and that sender, tied to each other.
// Scans synchronize nobody, as the masters'. Each tie names the thread that
// took the other member's part (CollectivePartPoint::tied).
//
// The point begins where the part's call began; of that call only its
// completion is the thread's activity (SyncPoint::prune), as for the
// masters' collectives.
#pragma once

#include <span>
#include <vector>

#include "analyses/delay/sync_point_list.hpp"
#include "analyses/thread_collective_waits.hpp"
#include "trace/local_trace.hpp"

namespace hindsight::analyses {

// `waits` by trace.threads.collective_parts; each point's
// SyncPoint::collective is its part's index there.
std::vector<CollectivePartPoint> collective_part_points(const trace::LocalTrace& trace,
                                                        std::span<const CollectivePartWait> waits);

}  // namespace hindsight::analyses
