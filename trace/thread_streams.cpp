#include "trace/thread_streams.hpp"

namespace hindsight::trace {

void ThreadStreams::renumber_call_paths(std::span<const CallPathId> mapping) {
    for (ThreadStream& stream : threads) {
        for (ThreadEvent& e : stream.events)
            if (e.cnode != kNoCallPath) e.cnode = mapping[e.cnode];
        const auto renumber = [&](CallPathId& cnode) {
            if (cnode != kNoCallPath) cnode = mapping[cnode];
        };
        for (ThreadTransfer& t : stream.transfers) renumber(t.cnode);
        for (ThreadRmaTransfer& t : stream.rma_transfers) renumber(t.cnode);
        for (ThreadFileTransfer& t : stream.file_transfers) renumber(t.cnode);
    }
}

}  // namespace hindsight::trace
