#include "collector/call_path_profile.hpp"

#include <algorithm>

namespace hindsight::collect {

CallPathId CallPathProfile::find_path(std::uint32_t region) {
    const CallPathId parent = open_.empty() ? kNoCallPath : open_.back().path;
    CallPathId path = tree_.find(parent, region);
    if (path == kNoCallPath) {
        path = tree_.child(parent, region);
        stats_.resize(tree_.size());
        last_child_.resize(tree_.size());
    }
    if (parent != kNoCallPath) last_child_[parent] = {region, path};
    return path;
}

void CallPathProfile::leave(std::uint64_t time) {
    if (open_.empty()) return;
    const Open open = open_.back();
    open_.pop_back();
    const std::uint64_t spent = time > open.entered ? time - open.entered : 0;
    PathStats& s = stats_[open.path];
    s.visits += 1;
    s.inclusive += spent;
    s.shortest = std::min(s.shortest, spent);
    s.longest = std::max(s.longest, spent);
    if (open.counted) open.counted->time += spent;
}

CommOperation& CallPathProfile::entry(std::uint32_t comm, std::uint32_t region) {
    const std::uint64_t key = (static_cast<std::uint64_t>(comm) << 32) | region;
    const auto found = operations_.find(key);
    if (found != operations_.end()) return found->second;
    CommOperation& op = operations_[key];
    op.comm = comm;
    op.region = region;
    return op;
}

void CallPathProfile::count_call(CommOperation& op, bool is_operation) {
    Open& call = open_.back();
    if (call.counted) return;
    call.counted = &op;
    op.calls += 1;
    if (is_operation) op.operations += 1;
}

void CallPathProfile::message(std::uint32_t comm, std::uint64_t bytes, bool sent) {
    if (open_.empty()) return;
    PathStats& path = stats_[open_.back().path];
    CommOperation& op = entry(comm, current_region());
    count_call(op, true);
    (sent ? path.bytes_sent : path.bytes_received) += bytes;
    path.events += 1;
    (sent ? op.bytes_sent : op.bytes_received) += bytes;
    op.messages += 1;
    op.smallest_message = std::min(op.smallest_message, bytes);
    op.largest_message = std::max(op.largest_message, bytes);
}

void CallPathProfile::collective(std::uint32_t comm, std::uint64_t sent, std::uint64_t received, bool counts) {
    if (open_.empty()) return;
    PathStats& path = stats_[open_.back().path];
    CommOperation& op = entry(comm, current_region());
    count_call(op, counts);
    path.events += 1;
    path.bytes_sent += sent;
    path.bytes_received += received;
    op.bytes_sent += sent;
    op.bytes_received += received;
}

void CallPathProfile::collective_completed(std::uint32_t comm, std::uint32_t started_by, std::uint64_t sent,
                                           std::uint64_t received) {
    if (open_.empty()) return;
    PathStats& path = stats_[open_.back().path];
    CommOperation& op = entry(comm, started_by);
    // The completing call's time counts once, with the first operation it
    // completed, as the trace analysis counts it.
    Open& call = open_.back();
    if (!call.counted) call.counted = &op;
    path.events += 1;
    path.bytes_sent += sent;
    path.bytes_received += received;
    op.bytes_sent += sent;
    op.bytes_received += received;
}

std::vector<CommOperation> CallPathProfile::comm_operations() const {
    std::vector<CommOperation> out;
    out.reserve(operations_.size());
    for (const auto& [key, op] : operations_) out.push_back(op);
    return out;
}

std::size_t CallPathProfile::memory_bytes() const {
    // The tree's node, its index entry and the statistics per call path; an
    // entry and its hash node per communicator operation.
    return tree_.size() * (sizeof(CallTree::Node) + 2 * sizeof(std::uint64_t) + 2 * sizeof(void*) + sizeof(PathStats) +
                            sizeof(LastChild)) +
           operations_.size() * (sizeof(CommOperation) + sizeof(std::uint64_t) + 2 * sizeof(void*)) +
           open_.capacity() * sizeof(Open);
}

}  // namespace hindsight::collect
