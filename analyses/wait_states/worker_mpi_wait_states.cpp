#include "analyses/wait_states/worker_mpi_wait_states.hpp"

#include <algorithm>
#include <vector>

#include "analyses/message_counts.hpp"
#include "analyses/metric_claims.hpp"
#include "analyses/thread_collective_waits.hpp"
#include "analyses/thread_message_waits.hpp"

namespace hindsight::analyses {

namespace {

// A Late Sender received in the wrong order: its wait and its count, each
// below the Late Sender's.
void book_wrong_order(LocalCube& cube, const trace::LocalTrace& trace, const trace::ThreadPairedMessage& m,
                      const MessageWait& wait) {
    constexpr const PatternInfo& late_sender = pattern_info(WaitPattern::LateSender);
    constexpr const PointToPointMetrics& counts = *late_sender.point_to_point;
    constexpr const metrics::WrongOrderMetrics& wrong = *counts.wrong_order;
    const Metric part =
        wait.order == MessageWait::Order::BehindSameSource ? wrong.same_source : wrong.different_sources;
    wait.for_each_part(m.cnode,
                       [&](CallPathId cnode, Ticks ticks) { claim(cube, *late_sender.wait, part, cnode, trace.seconds(ticks)); });
    if (m.bytes == 0)
        claim(cube, counts.synchronizations, wrong.synchronizations, m.cnode, 1.0);
    else
        claim(cube, counts.communications, wrong.communications, m.cnode, 1.0);
}

// Where a receive's wait began: in the first call that polled for it, or
// else in the call that completed it.
Ticks wait_start(const trace::LocalTrace& trace, const trace::ThreadPairedMessage& m) {
    if (m.first_poll == trace::ThreadTransfer::kNoPoll) return m.call_enter;
    if (m.thread == 0) return m.first_poll < trace.events.size() ? trace.events[m.first_poll].time : m.call_enter;
    const auto& events = trace.threads.threads[m.thread].events;
    return m.first_poll < events.size() ? events[m.first_poll].time : m.call_enter;
}

}  // namespace

std::vector<WaitInstance> book_worker_mpi(const trace::LocalTrace& trace, LocalCube& master,
                                          std::span<LocalCube> workers) {
    const auto cube_of = [&](std::uint32_t thread) -> LocalCube& { return thread == 0 ? master : workers[thread - 1]; };
    LongestWaits longest;
    const auto waited = [&](WaitPattern pattern, CallPathId cnode, Ticks start, Ticks ticks, std::uint32_t thread) {
        longest.offer({pattern, cnode, start, ticks, thread});
    };
    const std::vector<MessageWait> waits = thread_message_waits(trace);
    for (std::size_t i = 0; i < waits.size(); ++i) {
        const trace::ThreadPairedMessage& m = trace.threads.paired[i];
        LocalCube& cube = cube_of(m.thread);
        if (m.thread == 0) count_message(cube, m.cnode, m.bytes, m.send);
        if (waits[i].ticks == 0) continue;
        const Metric wait = *pattern_info(waits[i].pattern).wait;
        waits[i].for_each_part(m.cnode, [&](CallPathId cnode, Ticks ticks) { claim_time(cube, trace, wait, cnode, ticks); });
        waited(waits[i].pattern, m.cnode, wait_start(trace, m), waits[i].ticks, m.thread);
        claim_message_count(cube, waits[i].pattern, m.cnode, m.bytes == 0);
        if (waits[i].order != MessageWait::Order::InOrder) book_wrong_order(cube, trace, m, waits[i]);
    }
    const std::vector<CollectivePartWait> parts = thread_collective_waits(trace);
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const trace::ThreadCollectivePart& part = trace.threads.collective_parts[i];
        LocalCube& cube = cube_of(part.thread);
        if (part.thread == 0 && trace::is_program_collective(part.op))
            count_collective(cube, part.cnode, part.sent, part.received);
        if (parts[i].pattern == WaitPattern::None) continue;
        const PatternInfo& pattern = pattern_info(parts[i].pattern);
        if (pattern.wait && parts[i].timing.wait > 0) {
            claim_time(cube, trace, *pattern.wait, part.cnode, parts[i].timing.wait);
            waited(parts[i].pattern, part.cnode, std::max(part.arrival, part.call_enter), parts[i].timing.wait,
                   part.thread);
        }
        if (pattern.completion && parts[i].timing.completion > 0)
            claim_time(cube, trace, *pattern.completion, part.cnode, parts[i].timing.completion);
    }
    return longest.kept();
}

}  // namespace hindsight::analyses
