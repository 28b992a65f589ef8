#include "analyses/thread_collective_waits.hpp"

#include <algorithm>

namespace hindsight::analyses {

std::vector<CollectivePartWait> thread_collective_waits(const trace::LocalTrace& trace) {
    std::vector<CollectivePartWait> waits;
    waits.reserve(trace.threads.collective_parts.size());
    for (const trace::ThreadCollectivePart& part : trace.threads.collective_parts) {
        CollectivePartWait& w = waits.emplace_back();
        const CollectiveShape shape = collective_shape(part.op);
        const bool all_met = part.first_end > part.last_arrival;
        const bool synchronizes = shape == CollectiveShape::Barrier ||
                                  (shape == CollectiveShape::NToN && (part.sent > 0 || part.received > 0));
        if (!all_met || !synchronizes) continue;
        w.pattern = shape_info(shape).pattern;
        w.timing = collective_timing(std::max(part.arrival, part.call_enter), part.end, part.last_arrival,
                                     part.first_end);
    }
    return waits;
}

}  // namespace hindsight::analyses
