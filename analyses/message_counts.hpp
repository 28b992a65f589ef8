// How an MPI operation counts in the profile: a message as a
// synchronization (no bytes) or a communication with its bytes, a
// collective operation by what it moved for the rank or thread (both ways:
// exchange, only out: source, only in: destination, nothing:
// synchronization), a one-sided transfer by its kind and bytes, a file read
// or write by its bytes. Shared by the master's profile and message
// statistics (profile/profile.hpp, profile/message_statistics.hpp) and the
// worker threads' profiles (thread_profile.hpp).
#pragma once

#include <cstdint>

#include "analyses/local_cube.hpp"
#include "common/call_tree.hpp"
#include "trace/rma_records.hpp"

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

// A one-sided transfer issued by the call at `cnode`: an atomic
// operation's operand counts as put, its result as got.
inline void count_rma_transfer(LocalCube& cube, CallPathId cnode, trace::RmaTransferKind kind, std::uint64_t sent,
                               std::uint64_t received) {
    cube.add(kind == trace::RmaTransferKind::Put   ? Metric::CommsRmaPuts
             : kind == trace::RmaTransferKind::Get ? Metric::CommsRmaGets
                                                   : Metric::CommsRmaAtomics,
             cnode, 1.0);
    if (sent > 0) cube.add(Metric::BytesPut, cnode, static_cast<double>(sent));
    if (received > 0) cube.add(Metric::BytesGet, cnode, static_cast<double>(received));
}

// A file read (else write) of `bytes`, completed by the call at `cnode`.
inline void count_file_transfer(LocalCube& cube, CallPathId cnode, bool read, std::uint64_t bytes) {
    cube.add(read ? Metric::IoBytesRead : Metric::IoBytesWritten, cnode, static_cast<double>(bytes));
}

}  // namespace hindsight::analyses
