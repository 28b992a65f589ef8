#include "analyses/wait_states/lock_epochs.hpp"

#include <map>
#include <utility>

namespace hindsight::analyses {
namespace {

using trace::RmaLock;

std::vector<int> targets_of(const trace::LocalTrace& trace, const RmaLock& request) {
    const std::vector<int> members = trace.definitions.world_ranks(request.comm);
    if (request.remote == RmaLock::kEveryTarget) return members;
    if (request.remote < members.size()) return {members[request.remote]};
    return {};
}

}  // namespace

std::vector<LockEpoch> find_lock_epochs(const trace::LocalTrace& trace) {
    std::vector<LockEpoch> epochs;
    std::map<std::pair<std::uint64_t, std::uint32_t>, const RmaLock*> open;
    for (const RmaLock& record : trace.rma.locks) {
        if (record.call_enter == trace::kNoEvent || record.comm == kNoId) continue;
        const std::pair key{record.window, record.remote};
        if (record.action == trace::RmaLockAction::Request) {
            open[key] = &record;
        } else if (record.action == trace::RmaLockAction::Release) {
            const auto request = open.find(key);
            if (request == open.end()) continue;
            epochs.push_back({record.window, targets_of(trace, *request->second), request->second->exclusive,
                              call_span(trace, request->second->call_enter), call_span(trace, record.call_enter)});
            open.erase(request);
        }
    }
    return epochs;
}

}  // namespace hindsight::analyses
