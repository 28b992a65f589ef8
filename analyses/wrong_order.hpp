// Messages received in the wrong order behind a Late Sender, as Scalasca
// finds them: a receive's Late Sender turns out to be in the wrong order
// when a message the same location received later was sent before it
// (receiving in the order of sending would have avoided part of the wait).
// The last 100 Late Sender messages are kept as candidates. The replay's
// receives (wait_states/point_to_point_wait_states.hpp) and those of
// worker threads (thread_message_waits.hpp) both keep them so.
#pragma once

#include <algorithm>
#include <cstddef>
#include <deque>
#include <limits>

#include "common/clock.hpp"

namespace hindsight::analyses {

// `Late`: what the caller keeps of a Late Sender message, with the
// moment it was sent (`send`).
template <typename Late>
class WrongOrderCandidates {
public:
    static constexpr std::size_t kCapacity = 100;

    void clear() {
        candidates_.clear();
        latest_send_ = kNone;
    }

    void add(const Late& late) {
        if (candidates_.size() == kCapacity) candidates_.pop_front();
        candidates_.push_back(late);
        latest_send_ = std::max(latest_send_, late.send);
    }

    // A message sent at `send` was received now: calls `overtaken(late)`
    // for each candidate sent after it, which was so received in the wrong
    // order, and drops it.
    template <typename Overtaken>
    void received(Ticks send, Overtaken&& overtaken) {
        // Mostly messages arrive in order: then no candidate was sent
        // later, and the scan below is spared.
        if (send >= latest_send_) return;
        latest_send_ = kNone;
        for (auto it = candidates_.begin(); it != candidates_.end();) {
            if (it->send <= send) {
                latest_send_ = std::max(latest_send_, it->send);
                ++it;
                continue;
            }
            overtaken(*it);
            it = candidates_.erase(it);
        }
    }

private:
    static constexpr Ticks kNone = std::numeric_limits<Ticks>::min();
    std::deque<Late> candidates_;  // oldest first
    Ticks latest_send_ = kNone;    // no earlier than the latest send among them
};

}  // namespace hindsight::analyses
