#include "analyses/delay/collective_part_points.hpp"

#include <algorithm>
#include <cstdint>

#include "analyses/call_entry.hpp"
#include "analyses/operation_hash.hpp"

namespace hindsight::analyses {

namespace {

// The members (ranks of the communicator) the operation tied this rank's
// part to; none where it did not synchronize the part.
std::vector<std::int32_t> tied_members(const trace::ThreadCollectivePart& part) {
    const std::vector<trace::CollectiveMemberPart>& members = part.members;
    const auto size = static_cast<std::int32_t>(members.size());
    const std::int32_t self = part.member;
    std::vector<std::int32_t> tied;
    if (self < 0 || self >= size || !members_agree(part)) return tied;
    const auto of = [&](std::int32_t k) -> const trace::CollectiveMemberPart& {
        return members[static_cast<std::size_t>(k)];
    };
    const auto others_that = [&](auto&& synchronized) {
        for (std::int32_t k = 0; k < size; ++k)
            if (k != self && synchronized(k)) tied.push_back(k);
    };
    const CollectiveShape shape = collective_shape(part.op);
    if (synchronizes_where_all_met(shape)) {
        const bool moves_data = shape != CollectiveShape::NToN || of(self).sent || of(self).received;
        if (part.first_end > part.last_arrival) {
            // The last to come is whom the others waited for, whatever it moved.
            if (moves_data || self == part.last_member) others_that([](std::int32_t) { return true; });
        } else if (shape == CollectiveShape::NToN && part.last_sender >= 0) {
            const auto synchronized = [&](std::int32_t k) {
                return (of(k).received && of(k).wait_start < part.last_sender_arrival) ||
                       (of(k).sent && k == part.last_sender);
            };
            if (synchronized(self)) others_that(synchronized);
        }
        return tied;
    }
    switch (shape) {
    case CollectiveShape::OneToN: {
        if (!part.root_known || !part.root_sent || part.root < 0 || part.root >= size) break;
        const auto waits_for_root = [&](std::int32_t k) {
            return k != part.root && of(k).received && of(k).wait_start < part.root_arrival;
        };
        if (waits_for_root(self))
            tied.push_back(part.root);
        else if (self == part.root)
            others_that(waits_for_root);
        break;
    }
    case CollectiveShape::NToOne: {
        const std::int32_t root = part.root, sender = part.last_sender;
        if (root < 0 || root >= size || sender < 0 || sender >= size || sender == root) break;
        if (!of(root).received || of(root).wait_start >= part.last_sender_arrival) break;
        if (self == root) tied.push_back(sender);
        if (self == sender) tied.push_back(root);
        break;
    }
    default:
        break;
    }
    return tied;
}

}  // namespace

std::vector<CollectivePartPoint> collective_part_points(const trace::LocalTrace& trace,
                                                        std::span<const CollectivePartWait> waits) {
    std::vector<CollectivePartPoint> points;
    const auto& parts = trace.threads.collective_parts;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const trace::ThreadCollectivePart& part = parts[i];
        if (part.thread >= trace.threads.size()) continue;
        const std::vector<std::int32_t> tied = tied_members(part);
        if (tied.empty()) continue;
        const std::vector<int> world = trace.definitions.world_ranks(part.comm);
        if (world.size() != part.members.size()) continue;
        CollectivePartPoint p;
        for (const std::int32_t k : tied)
            p.tied.push_back({world[static_cast<std::size_t>(k)], part.members[static_cast<std::size_t>(k)].thread});
        std::sort(p.tied.begin(), p.tied.end(),
                  [](const Location& a, const Location& b) { return a.rank < b.rank; });
        SyncPoint& point = p.point;
        point.thread = part.thread;
        point.collective = static_cast<int>(i);
        if (part.thread == 0) {
            if (trace.events.empty()) continue;
            point.enter = call_entry(trace.events, trace::EventKind::Enter, part.cnode, part.call_enter);
        } else {
            const auto& events = trace.threads.threads[part.thread].events;
            if (events.empty()) continue;
            point.enter = call_entry(events, trace::ThreadEventKind::Enter, part.cnode, part.call_enter);
        }
        point.cnode = part.cnode;
        const CollectivePartWait& wait = waits[i];
        if (wait.pattern != WaitPattern::None) point.wait = wait.timing.wait;
        // Of the call only the completion is the thread's own.
        point.prune = std::max<Ticks>(0, part.end - part.call_enter - wait.timing.completion);
        point.operation = OperationHash().add(8).add(part.comm).add(part.position).value();
        points.push_back(std::move(p));
    }
    return points;
}

}  // namespace hindsight::analyses
