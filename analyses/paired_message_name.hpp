// How both ranks of a message paired outside the replay
// (trace::ThreadStreams::paired) name one side of it, its sender's or its
// receiver's: by the ranks and threads of both sides, the communicator, the
// tag, the message's number in its stream and the side. The two sides may
// be threads of one rank, which a name must tell apart. Records of the
// delay analysis and the critical path name messages so.
#pragma once

#include <cstdint>

#include "analyses/operation_hash.hpp"
#include "trace/local_trace.hpp"

namespace hindsight::analyses {

inline std::uint64_t paired_message_name(const trace::LocalTrace& trace, const trace::ThreadPairedMessage& m,
                                         bool sender_side) {
    const std::uint64_t self_rank = static_cast<std::uint64_t>(trace.rank), self_thread = m.thread;
    const std::uint64_t peer_rank = static_cast<std::uint64_t>(m.peer), peer_thread = m.peer_thread;
    return OperationHash()
        .add(5)
        .add(m.send ? self_rank : peer_rank)
        .add(m.send ? self_thread : peer_thread)
        .add(m.send ? peer_rank : self_rank)
        .add(m.send ? peer_thread : self_thread)
        .add(m.comm)
        .add(m.tag)
        .add(m.number)
        .add(sender_side ? 1 : 0)
        .value();
}

}  // namespace hindsight::analyses
