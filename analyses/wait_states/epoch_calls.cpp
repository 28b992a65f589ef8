#include "analyses/wait_states/epoch_calls.hpp"

#include <algorithm>

#include "analyses/metric_claims.hpp"

namespace hindsight::analyses {

std::optional<CallSpan> book_epoch_wait(LocalCube& cube, const trace::LocalTrace& trace, const CallSpan& open,
                                        const CallSpan& close, std::uint64_t window, Ticks until,
                                        const EpochWaitMetrics& metrics) {
    for (const CallSpan* call : {&close, &open})
        if (inside(until, *call)) {
            claim(cube, metrics.sync_parent, metrics.sync, call->cnode, trace.seconds(until - call->begin));
            return *call;
        }
    const auto& transfers = trace.rma.transfers;
    auto t = std::lower_bound(transfers.begin(), transfers.end(), open.enter,
                              [](const trace::RmaTransfer& x, trace::EventIndex c) { return x.call_enter < c; });
    for (; t != transfers.end() && t->call_enter < close.enter; ++t) {
        if (t->window != window) continue;
        const CallSpan call = call_span(trace, t->call_enter);
        if (!inside(until, call)) continue;
        claim(cube, metrics.transfer_parent, metrics.transfer, call.cnode, trace.seconds(until - call.begin));
        return call;
    }
    return std::nullopt;
}

}  // namespace hindsight::analyses
