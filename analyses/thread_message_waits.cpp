#include "analyses/thread_message_waits.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "analyses/message_calls.hpp"
#include "analyses/polling_calls.hpp"
#include "analyses/wrong_order.hpp"

namespace hindsight::analyses {

namespace {

// A receive polled for: its waits inside the polling calls from the first
// that tested it up to the completing call, each before the send's call was
// entered (PollingCalls::waiting on the master's store, the same on a
// worker's events).
std::vector<MessageWait::Part> polling_waits(const trace::LocalTrace& trace, const PollingCalls& polling,
                                             const trace::ThreadPairedMessage& m) {
    std::vector<MessageWait::Part> parts;
    if (m.first_poll == trace::ThreadTransfer::kNoPoll || m.thread >= trace.threads.threads.size()) return parts;
    if (m.thread == 0) {
        polling.waiting(m.first_poll, m.completing_call, m.send_call_enter,
                        [&](CallPathId cnode, Ticks ticks) { parts.push_back({cnode, ticks}); });
        return parts;
    }
    const auto& events = trace.threads.threads[m.thread].events;
    const std::size_t end = std::min<std::size_t>(m.completing_call, events.size());
    for (std::size_t k = m.first_poll; k + 1 < end && events[k].time < m.send_call_enter; ++k) {
        const trace::ThreadEvent& e = events[k];
        // A polling call holds no region of its own: its Leave comes next.
        if (e.kind != trace::ThreadEventKind::Enter || events[k + 1].kind != trace::ThreadEventKind::Leave ||
            !polling.polls(e.cnode))
            continue;
        const Ticks piece = std::min(m.send_call_enter, events[k + 1].time) - e.time;
        if (piece > 0) parts.push_back({e.cnode, piece});
    }
    return parts;
}

// The wait of one message, before the rule for calls that complete several.
MessageWait own_wait(const trace::LocalTrace& trace, const PollingCalls& polling,
                     const trace::ThreadPairedMessage& m) {
    const Region& call = trace.region_of(m.cnode);
    if (!m.send) {
        MessageWait wait;
        wait.pattern = WaitPattern::LateSender;
        wait.polls = polling_waits(trace, polling, m);
        for (const MessageWait::Part& p : wait.polls) wait.ticks += p.ticks;
        if (receive_completion(call.name) != ReceiveCompletion::Test)
            wait.ticks += std::max<Ticks>(0, std::min(m.send_call_enter, m.time) - m.call_enter);
        return wait.ticks > 0 ? wait : MessageWait{};
    }
    const Ticks posted = m.receive_posted;
    if (posted == trace::ThreadTransfer::kUnknownPosting || !may_wait_for_receiver(call) || posted <= m.call_enter ||
        posted >= m.call_leave)
        return {};
    MessageWait wait;
    wait.pattern = WaitPattern::LateReceiver;
    wait.ticks = posted - m.call_enter;
    return wait;
}

// Marks the Late Sender waits received in the wrong order, per receiving
// thread in the order of its receives.
void mark_wrong_order(const std::vector<trace::ThreadPairedMessage>& paired, std::vector<MessageWait>& waits) {
    std::map<std::uint32_t, std::vector<std::size_t>> receives;  // by thread
    for (std::size_t i = 0; i < paired.size(); ++i)
        if (!paired[i].send) receives[paired[i].thread].push_back(i);
    struct Late {
        Ticks send = 0;
        std::size_t message = 0;
    };
    for (auto& [thread, order] : receives) {
        std::stable_sort(order.begin(), order.end(),
                         [&](std::size_t a, std::size_t b) { return paired[a].time < paired[b].time; });
        WrongOrderCandidates<Late> candidates;
        for (const std::size_t i : order) {
            candidates.received(paired[i].send_call_enter, [&](const Late& late) {
                waits[late.message].order = paired[late.message].peer == paired[i].peer
                                                ? MessageWait::Order::BehindSameSource
                                                : MessageWait::Order::BehindOtherSource;
            });
            if (waits[i].pattern == WaitPattern::LateSender && waits[i].ticks > 0)
                candidates.add({paired[i].send_call_enter, i});
        }
    }
}

}  // namespace

std::vector<MessageWait> thread_message_waits(const trace::LocalTrace& trace) {
    const auto& paired = trace.threads.paired;
    std::vector<MessageWait> waits(paired.size());
    const PollingCalls polling(trace);
    // A call that completes several receives: its longest wait, by thread
    // and call (entry and path).
    std::map<std::tuple<std::uint32_t, Ticks, CallPathId>, std::size_t> longest;
    for (std::size_t i = 0; i < paired.size(); ++i) {
        const trace::ThreadPairedMessage& m = paired[i];
        waits[i] = own_wait(trace, polling, m);
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
    mark_wrong_order(paired, waits);
    return waits;
}

}  // namespace hindsight::analyses
