// The place of every point-to-point event in the stream of messages between
// this rank and one peer, so that both sides can name a message by a number
// without sending anything: per peer, the sends (and separately the
// receives) ordered by communicator, tag and order of occurrence. MPI
// matches a receive with the oldest unmatched send of the same sender,
// communicator and tag, so the n-th send of rank s to rank r on (comm, tag)
// is the n-th receive of r from s on (comm, tag): both get the same slot.
#pragma once

#include <cstdint>
#include <vector>

#include "replay/local_trace.hpp"

namespace hindsight::replay {

class MessageSlots {
public:
    explicit MessageSlots(const LocalTrace& trace);

    // By message index (LocalTrace::messages): the peer's world rank, and
    // the slot among this rank's sends to it (for a send) or receives from
    // it (for a receive).
    int peer(std::uint32_t message) const { return peer_[message]; }
    std::uint32_t slot(std::uint32_t message) const { return slot_[message]; }
    // The message's Send or Recv event: a pass over the messages need not
    // scan every event for them.
    EventIndex event(std::uint32_t message) const { return event_[message]; }
    // Number of sends to / receives from each world rank.
    const std::vector<std::uint32_t>& sends() const { return sends_; }
    const std::vector<std::uint32_t>& receives() const { return receives_; }

private:
    std::vector<int> peer_;
    std::vector<std::uint32_t> slot_;
    std::vector<EventIndex> event_;
    std::vector<std::uint32_t> sends_, receives_;
};

}  // namespace hindsight::replay
