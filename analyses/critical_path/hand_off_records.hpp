// The records the search for the critical path's hand-offs exchanges
// (critical_path_hand_offs.hpp). They travel as fixed-size records
// (replay/exchange_records.hpp), copied byte for byte: a record's layout is
// its write and its read at once, so every byte of it must be a field
// (no padding, whose bytes would travel undefined), which the checks
// below keep true when a field is added. A block that is not a whole
// number of records is an error of the exchange.
//
// The successors of the nodes travel as replay::ChainLink, and the marking
// of the path's nodes is replay/chain_marking.hpp's.
#pragma once

#include <cstdint>
#include <type_traits>

#include "common/clock.hpp"

namespace hindsight::analyses::hand_off_records {

enum class Kind : std::uint32_t { LateSender, LateReceiver, Collective, RmaEnding, ThreadMessage, ThreadCollective };

// What a hand-off node asks of its causing rank, both for the node that
// follows the arrival there (the successor) and, for the nodes on the path,
// to tell it where the path arrives: at `until`. (comm, ordinal) names a
// collective in `key` and `ordinal` (ThreadCollective: a collective an
// OpenMP worker thread made, by its position among its communicator's);
// `key` names the Enter of the call that ended a one-sided epoch's wait
// (RmaEnding); the low and high half of a paired message's name
// (paired_message_name.hpp, the sender's side) are `key` and `ordinal` for
// a message with a worker thread on either side (ThreadMessage); otherwise
// `key` is the message slot between the two ranks (trace/message_slots.hpp).
struct Request {
    Kind kind = Kind::LateSender;
    std::uint32_t key = 0;
    std::uint32_t ordinal = 0;
    std::uint32_t unused = 0;  // fills the room before `until`
    Ticks until = 0;

    bool operator==(const Request&) const = default;
};

// A receiver that caused a Late Receiver wait asks the sender for the path
// back: the slot of the sender's message to it.
struct PathBack {
    std::uint32_t slot = 0;

    bool operator==(const PathBack&) const = default;
};

static_assert(std::is_trivially_copyable_v<Request> && std::has_unique_object_representations_v<Request>,
              "a hand-off request travels byte for byte and has no padding");
static_assert(std::is_trivially_copyable_v<PathBack> && std::has_unique_object_representations_v<PathBack>,
              "a request for the path back travels byte for byte and has no padding");

}  // namespace hindsight::analyses::hand_off_records
