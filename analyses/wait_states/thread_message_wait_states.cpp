#include "analyses/wait_states/thread_message_wait_states.hpp"

#include <algorithm>

#include "analyses/message_counts.hpp"
#include "analyses/metric_claims.hpp"
#include "analyses/wait_states/message_calls.hpp"

namespace hindsight::analyses {

MessageWait message_wait(const trace::LocalTrace& trace, const trace::ThreadPairedMessage& m) {
    const Region& call = trace.region_of(m.cnode);
    if (!m.send) {
        if (receive_completion(call.name) != ReceiveCompletion::Single) return {};
        return {WaitPattern::LateSender, std::max<Ticks>(0, std::min(m.send_call_enter, m.time) - m.call_enter)};
    }
    const Ticks posted = m.receive_posted;
    if (posted == trace::ThreadTransfer::kUnknownPosting || !may_wait_for_receiver(call) || posted <= m.call_enter ||
        posted >= m.call_leave)
        return {};
    return {WaitPattern::LateReceiver, posted - m.call_enter};
}

void book_thread_messages(const trace::LocalTrace& trace, LocalCube& master, std::span<LocalCube> workers) {
    for (const trace::ThreadPairedMessage& m : trace.threads.paired) {
        LocalCube& cube = m.thread == 0 ? master : workers[m.thread - 1];
        if (m.thread == 0) count_message(cube, m.cnode, m.bytes, m.send);
        const MessageWait wait = message_wait(trace, m);
        if (wait.ticks == 0) continue;
        claim_time(cube, trace, *pattern_info(wait.pattern).wait, m.cnode, wait.ticks);
        claim_message_count(cube, wait.pattern, m.cnode, m.bytes == 0);
    }
}

}  // namespace hindsight::analyses
