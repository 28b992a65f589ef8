#include "analyses/profile/collective_statistics.hpp"

#include <algorithm>
#include <array>

namespace hindsight::analyses {

CollectiveCallParts collective_call_parts(Ticks begin, Ticks end, Ticks last_begin, Ticks first_end) {
    CollectiveCallParts parts;
    // Clamped to the call: with skewed clocks the last begin may seem to come
    // after this rank's end.
    parts.wait_before = std::max<Ticks>(0, std::min(last_begin, end) - begin);
    // A non-blocking operation's members may all have begun before this
    // rank entered the call that completes it: its execution here starts
    // with that call.
    parts.execution = std::max<Ticks>(0, first_end - std::max(last_begin, begin));
    parts.wait_after = std::max<Ticks>(0, end - std::max(first_end, std::max(last_begin, begin)));
    return parts;
}

replay::CollectiveTask CollectiveStatistics::on_collective(const trace::EventView& view,
                                                           replay::CollectiveChannel& exchange) {
    if (exchange.size() <= 1) co_return;
    // This rank's part from where it can wait (for a non-blocking operation
    // in the call that completes it); the members' begins are their starts.
    const Ticks begin = view.collective_wait_start();
    const Ticks end = view.time();
    // One reduction finds the last begin and the first end: the end travels
    // negated. Timestamps are exact as doubles below 2^53 ticks.
    std::array<double, 2> extremes{static_cast<double>(view.collective_arrival()), -static_cast<double>(end)};
    co_await exchange.allreduce(extremes, replay::ReduceOp::Max);
    const CollectiveCallParts parts =
        collective_call_parts(begin, end, static_cast<Ticks>(extremes[0]), static_cast<Ticks>(-extremes[1]));
    const trace::LocalTrace& trace = view.trace();
    const CallPathId cnode = view.enter().cnode;
    cube_->add(Metric::CollWaitBefore, cnode, trace.seconds(parts.wait_before));
    cube_->add(Metric::CollExecution, cnode, trace.seconds(parts.execution));
    cube_->add(Metric::CollWaitAfter, cnode, trace.seconds(parts.wait_after));
}

}  // namespace hindsight::analyses
