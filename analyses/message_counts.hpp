// How an MPI operation counts in the profile: a message as a
// synchronization (no bytes) or a communication with its bytes, a
// collective operation by what it moved for the rank or thread (both ways:
// exchange, only out: source, only in: destination, nothing:
// synchronization). Shared by the master's message statistics in the
// forward pass (profile/message_statistics.hpp) and the worker threads'
// profiles (thread_profile.hpp).
#pragma once

#include <cstdint>

#include "analyses/local_cube.hpp"
#include "common/call_tree.hpp"

namespace hindsight::analyses {

// A message of `bytes`, sent (else received) in the call at `cnode`.
inline void count_message(LocalCube& cube, CallPathId cnode, std::uint64_t bytes, bool sent) {
    if (bytes == 0) {
        cube.add(sent ? Metric::SyncsSend : Metric::SyncsRecv, cnode, 1.0);
    } else {
        cube.add(sent ? Metric::CommsSend : Metric::CommsRecv, cnode, 1.0);
        cube.add(sent ? Metric::BytesSent : Metric::BytesRcvd, cnode, static_cast<double>(bytes));
    }
}

// A collective operation of the program that moved `sent` and `received`
// bytes for the caller, in the call at `cnode`.
inline void count_collective(LocalCube& cube, CallPathId cnode, std::uint64_t sent, std::uint64_t received) {
    if (sent == 0 && received == 0)
        cube.add(Metric::SyncsColl, cnode, 1.0);
    else if (sent > 0 && received > 0)
        cube.add(Metric::CommsCxch, cnode, 1.0);
    else if (sent > 0)
        cube.add(Metric::CommsCsrc, cnode, 1.0);
    else
        cube.add(Metric::CommsCdst, cnode, 1.0);
    cube.add(Metric::BytesCout, cnode, static_cast<double>(sent));
    cube.add(Metric::BytesCin, cnode, static_cast<double>(received));
}

}  // namespace hindsight::analyses
