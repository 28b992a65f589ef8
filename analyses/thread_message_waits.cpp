#include "analyses/thread_message_waits.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "analyses/message_calls.hpp"

namespace hindsight::analyses {

namespace {

// The wait of one message, before the rule for calls that complete several.
MessageWait own_wait(const trace::LocalTrace& trace, const trace::ThreadPairedMessage& m) {
    const Region& call = trace.region_of(m.cnode);
    if (!m.send) {
        if (receive_completion(call.name) == ReceiveCompletion::Test) return {};
        return {WaitPattern::LateSender, std::max<Ticks>(0, std::min(m.send_call_enter, m.time) - m.call_enter)};
    }
    const Ticks posted = m.receive_posted;
    if (posted == trace::ThreadTransfer::kUnknownPosting || !may_wait_for_receiver(call) || posted <= m.call_enter ||
        posted >= m.call_leave)
        return {};
    return {WaitPattern::LateReceiver, posted - m.call_enter};
}

}  // namespace

std::vector<MessageWait> thread_message_waits(const trace::LocalTrace& trace) {
    const auto& paired = trace.threads.paired;
    std::vector<MessageWait> waits(paired.size());
    // A call that completes several receives: its longest wait, by thread
    // and call (entry and path).
    std::map<std::tuple<std::uint32_t, Ticks, CallPathId>, std::size_t> longest;
    for (std::size_t i = 0; i < paired.size(); ++i) {
        const trace::ThreadPairedMessage& m = paired[i];
        waits[i] = own_wait(trace, m);
        if (m.send || receive_completion(trace.region_of(m.cnode).name) != ReceiveCompletion::Multiple) continue;
        const auto [at, first] = longest.try_emplace({m.thread, m.call_enter, m.cnode}, i);
        if (first) continue;
        std::size_t& kept = at->second;
        if (waits[i].ticks > waits[kept].ticks) {
            waits[kept] = {};
            kept = i;
        } else {
            waits[i] = {};
        }
    }
    // The master's calls of several receives that the replay saw too keep
    // the replay's longest wait.
    const bool master_calls =
        std::any_of(longest.begin(), longest.end(), [](const auto& call) { return std::get<0>(call.first) == 0; });
    if (master_calls)
        for (const trace::Message& msg : trace.messages) {
            if (msg.call_enter == trace::kNoEvent) continue;
            const trace::Event& enter = trace.events[msg.call_enter];
            const auto call = longest.find({0, enter.time, enter.cnode});
            if (call != longest.end()) waits[call->second] = {};
        }
    return waits;
}

}  // namespace hindsight::analyses
