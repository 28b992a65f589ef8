// The observers of one pass, sorted once when the pass begins by the parts
// they take part in (Participation, observer.hpp): the engines' loops over
// the events call only the observers a part concerns, and never ask an
// observer per event what it takes part in.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "replay/observer.hpp"

namespace hindsight::replay {

// One bit per observer, by its position in the pass.
using ObserverMask = std::uint64_t;

inline ObserverMask observer_bit(std::size_t position) { return ObserverMask{1} << position; }

// An observer of a part, with its bit.
struct PassMember {
    ReplayObserver* observer = nullptr;
    ObserverMask bit = 0;
};

class PassObservers {
public:
    // Calls every observer's begin_pass() and asks its participation(); at
    // most 64 observers. `trace` and the observers must outlive this object.
    PassObservers(const trace::LocalTrace& trace, std::span<ReplayObserver* const> observers);
    // Calls every observer's end_pass().
    void end_pass() const;

    // All observers of the pass, those that take part in nothing included.
    std::size_t size() const { return observers_.size(); }

    void enter(const trace::EventView& view) const {
        for (ReplayObserver* o : enters_) o->on_enter(view);
    }
    void leave(const trace::EventView& view) const {
        for (ReplayObserver* o : leaves_) o->on_leave(view);
    }

    // The members of each part, in pass order.
    std::span<const PassMember> payloads() const { return payloads_; }
    std::span<const PassMember> replies() const { return replies_; }
    std::span<const PassMember> notes() const { return notes_; }
    std::span<const PassMember> collectives() const { return collectives_; }

    // Whether no observer packs its payloads from what the pass brings
    // (Payloads::FromPass): then the engine may pack them all before the
    // first event and complete the collectives' operations later.
    bool payloads_from_trace_only() const { return !from_pass_; }

private:
    const trace::LocalTrace& trace_;
    std::span<ReplayObserver* const> observers_;
    std::vector<ReplayObserver*> enters_, leaves_;
    std::vector<PassMember> payloads_, replies_, notes_, collectives_;
    bool from_pass_ = false;
};

}  // namespace hindsight::replay
