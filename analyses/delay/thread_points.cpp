#include "analyses/delay/thread_points.hpp"

#include <algorithm>
#include <unordered_set>

#include "analyses/note_blocks.hpp"

namespace hindsight::analyses {

Ticks paired_wait(const trace::ThreadPairedMessage& m, const MessageWait& wait) {
    const WaitPattern own = m.send ? WaitPattern::LateReceiver : WaitPattern::LateSender;
    return wait.pattern == own ? wait.ticks : 0;
}

std::vector<bool> partners_waited(const trace::LocalTrace& trace, std::span<const MessageWait> waits,
                                  replay::Exchange& exchange) {
    const auto& paired = trace.threads.paired;
    std::vector<bool> waited(paired.size(), false);
    if (!exchange.any(!paired.empty())) return waited;
    std::vector<std::vector<OperationId>> told(static_cast<std::size_t>(exchange.size()));
    for (std::size_t i = 0; i < paired.size(); ++i)
        if (paired_wait(paired[i], waits[i]) > 0 && paired[i].peer >= 0 && paired[i].peer < exchange.size())
            told[static_cast<std::size_t>(paired[i].peer)].push_back(
                paired_message_name(trace, paired[i], !paired[i].send));
    std::unordered_set<OperationId> named;
    for (const std::vector<std::byte>& block : exchange.all_to_all(as_blocks(told)))
        for (const OperationId id : from_block<OperationId>(block)) named.insert(id);
    if (named.empty()) return waited;
    for (std::size_t i = 0; i < paired.size(); ++i)
        waited[i] = named.contains(paired_message_name(trace, paired[i], paired[i].send));
    return waited;
}

namespace {

// The thread's event where the message's side began to synchronize, and
// its call path: the call holding the message, or the first call that
// polled for it; where the trace names no such call (a record outside
// any), the first event of the thread since the call's entry.
struct Anchor {
    std::uint32_t event = 0;
    CallPathId cnode = kNoCallPath;
};

template <typename Events>
Anchor anchor_in(const Events& events, std::uint32_t call, Ticks since) {
    if (call >= events.size()) {
        const auto at = std::partition_point(events.begin(), events.end(),
                                             [&](const auto& e) { return e.time < since; });
        call = static_cast<std::uint32_t>(std::min<std::size_t>(at - events.begin(), events.size() - 1));
    }
    return {call, events[call].cnode};
}

Anchor anchor_of(const trace::LocalTrace& trace, const trace::ThreadPairedMessage& m, bool polled) {
    const std::uint32_t call = polled ? m.first_poll : m.call;
    if (m.thread == 0) return anchor_in(trace.events, call, m.call_enter);
    return anchor_in(trace.threads.threads[m.thread].events, call, m.call_enter);
}

}  // namespace

std::vector<PairedPoint> paired_points(const trace::LocalTrace& trace, std::span<const MessageWait> waits,
                                       const std::vector<bool>& partner_waited) {
    std::vector<PairedPoint> points;
    const auto& paired = trace.threads.paired;
    for (std::size_t i = 0; i < paired.size(); ++i) {
        const trace::ThreadPairedMessage& m = paired[i];
        const Ticks wait = paired_wait(m, waits[i]);
        if (wait <= 0 && !partner_waited[i]) continue;
        if (m.thread >= trace.threads.size()) continue;
        const bool polled = wait > 0 && !waits[i].polls.empty();
        const bool events = m.thread == 0 ? !trace.events.empty() : !trace.threads.threads[m.thread].events.empty();
        if (!events) continue;
        const Anchor anchor = anchor_of(trace, m, polled);
        SyncPoint point;
        point.thread = m.thread;
        point.paired = static_cast<int>(i);
        point.enter = anchor.event;
        point.cnode = anchor.cnode == kNoCallPath ? m.cnode : anchor.cnode;
        point.wait = wait;
        point.prune = wait;
        point.operation = paired_message_name(trace, m, m.send);
        points.push_back({point, {m.peer, m.peer_thread}});
    }
    return points;
}

std::vector<TeamStart> team_starts(const trace::LocalTrace& trace, const ThreadTeams& teams) {
    std::vector<TeamStart> starts;
    const auto on_worker = [](const auto& x) { return x.thread != 0; };
    const auto& paired = trace.threads.paired;
    const auto& collectives = trace.threads.collective_parts;
    if (std::none_of(paired.begin(), paired.end(), on_worker) &&
        std::none_of(collectives.begin(), collectives.end(), on_worker))
        return starts;
    for (std::uint32_t t = 1; t < trace.threads.size(); ++t) {
        const auto& events = trace.threads.threads[t].events;
        for (std::uint32_t k = 0; k < events.size(); ++k) {
            if (events[k].kind != trace::ThreadEventKind::TeamBegin) continue;
            const std::optional<std::size_t> region = team_region(teams, events[k].time);
            if (!region) continue;
            const Ticks fork = teams.regions[*region].fork;
            const auto at = std::partition_point(trace.events.begin(), trace.events.end(),
                                                 [&](const trace::Event& e) { return e.time < fork; });
            if (at == trace.events.end()) continue;
            starts.push_back({t, k, static_cast<trace::EventIndex>(at - trace.events.begin())});
        }
    }
    return starts;
}

}  // namespace hindsight::analyses
