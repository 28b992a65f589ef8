#include "analyses/wait_states/thread_message_wait_states.hpp"

#include <vector>

#include "analyses/message_counts.hpp"
#include "analyses/metric_claims.hpp"
#include "analyses/thread_message_waits.hpp"

namespace hindsight::analyses {

void book_thread_messages(const trace::LocalTrace& trace, LocalCube& master, std::span<LocalCube> workers) {
    const std::vector<MessageWait> waits = thread_message_waits(trace);
    for (std::size_t i = 0; i < waits.size(); ++i) {
        const trace::ThreadPairedMessage& m = trace.threads.paired[i];
        LocalCube& cube = m.thread == 0 ? master : workers[m.thread - 1];
        if (m.thread == 0) count_message(cube, m.cnode, m.bytes, m.send);
        if (waits[i].ticks == 0) continue;
        claim_time(cube, trace, *pattern_info(waits[i].pattern).wait, m.cnode, waits[i].ticks);
        claim_message_count(cube, waits[i].pattern, m.cnode, m.bytes == 0);
    }
}

}  // namespace hindsight::analyses
