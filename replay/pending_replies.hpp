// The replies a packing side asked for and has yet to take
// (ReplayObserver::needs_reply), in the order asked: an engine takes each when
// its pass reaches the reply's boundary (reply_boundary()), or at the end of
// the pass. Replies from one peer on one communicator and tag come in the
// order asked, as the peer's pass meets the messages in the same order.
#pragma once

#include <cstddef>
#include <vector>

#include "replay/pass_observers.hpp"

namespace hindsight::replay {

class PendingReplies {
public:
    void clear() { pending_.clear(); }
    void add(trace::EventIndex event, trace::EventIndex boundary, ObserverMask asked) {
        pending_.push_back({event, boundary, asked});
    }
    // Calls take(packing event, asked) for every reply due at `boundary`
    // (every reply at kNoEvent), in the order asked, and forgets them.
    template <typename Take>
    void take_due(trace::EventIndex boundary, Take take) {
        for (std::size_t k = 0; k < pending_.size();) {
            if (boundary != trace::kNoEvent && pending_[k].boundary != boundary) {
                ++k;
                continue;
            }
            const Pending due = pending_[k];
            pending_.erase(pending_.begin() + static_cast<std::ptrdiff_t>(k));
            take(due.event, due.asked);
        }
    }

private:
    struct Pending {
        trace::EventIndex event = trace::kNoEvent;     // the packing event
        trace::EventIndex boundary = trace::kNoEvent;  // where it is due
        ObserverMask asked = 0;
    };
    std::vector<Pending> pending_;
};

}  // namespace hindsight::replay
