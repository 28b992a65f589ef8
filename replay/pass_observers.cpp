#include "replay/pass_observers.hpp"

#include <string>

#include "common/error.hpp"

namespace hindsight::replay {

PassObservers::PassObservers(const trace::LocalTrace& trace, std::span<ReplayObserver* const> observers)
    : trace_(trace), observers_(observers) {
    const auto fail = [&](const std::string& problem) {
        throw Error(trace.anchor_path, "rank " + std::to_string(trace.rank) + ": " + problem);
    };
    if (observers.size() > 64) fail("a pass has more than 64 observers");
    for (std::size_t k = 0; k < observers.size(); ++k) {
        ReplayObserver* o = observers[k];
        o->begin_pass(trace);
        const Participation part = o->participation();
        const PassMember member{o, observer_bit(k)};
        if (part.enters) enters_.push_back(o);
        if (part.leaves) leaves_.push_back(o);
        if (part.payloads != Payloads::None) payloads_.push_back(member);
        if (part.payloads == Payloads::FromPass) from_pass_ = true;
        if (part.replies) {
            // A reply answers a payload that may depend on the pass.
            if (part.payloads != Payloads::FromPass) fail("an analysis asks for replies to payloads of trace data");
            replies_.push_back(member);
        }
        if (part.notes) notes_.push_back(member);
        if (part.collectives) collectives_.push_back(member);
    }
}

void PassObservers::end_pass() const {
    for (ReplayObserver* o : observers_) o->end_pass(trace_);
}

}  // namespace hindsight::replay
