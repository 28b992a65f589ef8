#include "trace/thread_streams.hpp"

namespace hindsight::trace {

void ThreadStreams::renumber_call_paths(std::span<const CallPathId> mapping) {
    for (ThreadStream& stream : threads) {
        for (ThreadEvent& e : stream.events)
            if (e.cnode != kNoCallPath) e.cnode = mapping[e.cnode];
        for (ThreadTransfer& t : stream.transfers)
            if (t.cnode != kNoCallPath) t.cnode = mapping[t.cnode];
    }
}

}  // namespace hindsight::trace
