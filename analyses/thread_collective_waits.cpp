#include "analyses/thread_collective_waits.hpp"

#include <algorithm>

namespace hindsight::analyses {

namespace {

// The part's wait for `member`, which began at `awaited`, as the replay
// settles it (collective_wait_states.cpp): from where it could wait.
CollectivePartWait waited_for(const trace::ThreadCollectivePart& part, CollectiveShape shape, std::int32_t member,
                              Ticks awaited, Ticks first_end) {
    return {shape_info(shape).pattern,
            collective_timing(std::max(part.arrival, part.call_enter), part.end, awaited, first_end), member};
}

}  // namespace

bool members_agree(const trace::ThreadCollectivePart& part) {
    return std::all_of(part.members.begin(), part.members.end(), [&](const trace::CollectiveMemberPart& m) {
        return m.op == part.op && m.root == part.root;
    });
}

std::optional<std::string> disagreement_warning(const trace::LocalTrace& trace) {
    const auto& parts = trace.threads.collective_parts;
    const auto disagreeing = std::count_if(parts.begin(), parts.end(), [](const auto& p) { return !members_agree(p); });
    if (disagreeing == 0) return std::nullopt;
    return "rank " + std::to_string(trace.rank) + ": " + std::to_string(disagreeing) +
           " MPI collective operations of OpenMP worker threads name different operations or roots on their members; "
           "they are left out of the wait states and the delay costs";
}

std::vector<CollectivePartWait> thread_collective_waits(const trace::LocalTrace& trace) {
    std::vector<CollectivePartWait> waits;
    waits.reserve(trace.threads.collective_parts.size());
    for (const trace::ThreadCollectivePart& part : trace.threads.collective_parts) {
        CollectivePartWait& w = waits.emplace_back();
        if (!members_agree(part)) continue;
        const CollectiveShape shape = collective_shape(part.op);
        const Ticks wait_start = std::max(part.arrival, part.call_enter);
        if (synchronizes_where_all_met(shape)) {
            // A barrier, a file's or a window's operation synchronize all
            // that met there; an n-to-n operation only where data moved.
            const bool all_met = part.first_end > part.last_arrival;
            const bool synchronizes = shape != CollectiveShape::NToN || part.sent > 0 || part.received > 0;
            if (all_met && synchronizes) {
                w = waited_for(part, shape, part.last_member, part.last_arrival, part.first_end);
            } else if (shape == CollectiveShape::NToN && part.last_sender >= 0) {
                // Some member left before the last one came: only the last
                // sender and the receivers that began before it synchronized.
                const bool synchronized = (part.received > 0 && wait_start < part.last_sender_arrival) ||
                                          (part.sent > 0 && part.member == part.last_sender);
                if (synchronized)
                    w = waited_for(part, shape, part.last_sender, part.last_sender_arrival,
                                   part.first_synchronized_end);
            }
            continue;
        }
        switch (shape) {
        case CollectiveShape::OneToN:
            // A member that receives waits for a root that sent and came later.
            if (part.root_known && part.root_sent && part.member != part.root && part.received > 0 &&
                wait_start < part.root_arrival)
                w = waited_for(part, shape, part.root, part.root_arrival, part.end);
            break;
        case CollectiveShape::NToOne:
            // The root, if it receives, waits for the last member that sent.
            if (part.member == part.root && part.received > 0 && part.last_sender >= 0 &&
                wait_start < part.last_sender_arrival)
                w = waited_for(part, shape, part.last_sender, part.last_sender_arrival, part.end);
            break;
        case CollectiveShape::Prefix:
            // A member waits for the last lower member that sent.
            if ((part.sent > 0 || part.received > 0) && part.last_lower_sender >= 0 &&
                wait_start < part.last_lower_sender_arrival)
                w = waited_for(part, shape, part.last_lower_sender, part.last_lower_sender_arrival, part.end);
            break;
        default:
            break;
        }
    }
    return waits;
}

}  // namespace hindsight::analyses
