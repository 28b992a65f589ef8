#include "analyses/wait_states/thread_message_wait_states.hpp"

#include <algorithm>

#include "analyses/message_counts.hpp"
#include "analyses/metric_claims.hpp"
#include "analyses/wait_states/receive_completion.hpp"

namespace hindsight::analyses {

Ticks late_sender_wait(const trace::LocalTrace& trace, const trace::ThreadPairedMessage& m) {
    if (m.send || receive_completion(trace.region_of(m.cnode).name) != ReceiveCompletion::Single) return 0;
    return std::max<Ticks>(0, std::min(m.send_call_enter, m.time) - m.call_enter);
}

void book_thread_messages(const trace::LocalTrace& trace, LocalCube& master, std::span<LocalCube> workers) {
    for (const trace::ThreadPairedMessage& m : trace.threads.paired) {
        LocalCube& cube = m.thread == 0 ? master : workers[m.thread - 1];
        if (m.thread == 0) count_message(cube, m.cnode, m.bytes, m.send);
        const Ticks waiting = late_sender_wait(trace, m);
        if (waiting == 0) continue;
        claim_time(cube, trace, Metric::MpiLateSender, m.cnode, waiting);
        claim_message_count(cube, WaitPattern::LateSender, m.cnode, m.bytes == 0);
    }
}

}  // namespace hindsight::analyses
