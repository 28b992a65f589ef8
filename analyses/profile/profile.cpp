#include "analyses/profile/profile.hpp"

#include "analyses/message_counts.hpp"
#include "common/file_calls.hpp"
#include "common/rma_calls.hpp"
#include "common/time_category.hpp"
#include "common/error.hpp"

namespace hindsight::analyses {

void ProfileAnalysis::begin_pass(const trace::LocalTrace& trace) {
    const std::size_t paths = trace.call_tree.size();
    exclusive_.assign(paths, 0);
    visits_.assign(paths, 0);
}

// A visit's exclusive time is its duration minus that of the visits it
// made; the enclosing visit is always one of the parent call path. So each
// Leave adds its duration to its own call path and takes it from the
// parent's, and the sums come out exclusive without a stack of open visits.
void ProfileAnalysis::on_leave(const trace::EventView& view) {
    const Ticks duration = view.time() - view.enter().time;
    const CallPathId cnode = view.cnode();
    exclusive_[cnode] += duration;
    ++visits_[cnode];
    if (const CallPathId parent = view.trace().call_tree.node(cnode).parent; parent != kNoCallPath)
        exclusive_[parent] -= duration;
}

void ProfileAnalysis::end_pass(const trace::LocalTrace& trace) {
    for (CallPathId c = 0; c < exclusive_.size(); ++c) {
        if (visits_[c] == 0) continue;
        cube_->add(Metric::Visits, c, static_cast<double>(visits_[c]));
        const Region& region = trace.region_of(c);
        cube_->add(time_category(region), c, trace.seconds(exclusive_[c]));
        const std::string_view name = region.canonical_name.empty() ? region.name : region.canonical_name;
        if (const auto count = file_count_metric(file_call(name))) cube_->add(*count, c, static_cast<double>(visits_[c]));
        if (const auto count = rma_sync_count_metric(rma_call(name)))
            cube_->add(*count, c, static_cast<double>(visits_[c]));
    }
    // Bytes read and written, at the call that completed each operation.
    for (const trace::FileTransfer& transfer : trace.file_transfers)
        count_file_transfer(*cube_, trace.events[transfer.call_enter].cnode, transfer.read, transfer.bytes);
    // One-sided transfers and their bytes, at the call that issued each.
    for (const trace::RmaTransfer& transfer : trace.rma.transfers)
        count_rma_transfer(*cube_, trace.events[transfer.call_enter].cnode, transfer.kind, transfer.bytes_sent,
                           transfer.bytes_received);
}

}  // namespace hindsight::analyses
