// The place of every point-to-point event in the stream of messages between
// this rank and one peer, so that both sides can name a message by a number
// without sending anything: per peer, the sends (and separately the
// receives) ordered by communicator, tag and order of occurrence. MPI
// matches a receive with the oldest unmatched send of the same sender,
// communicator and tag, so the n-th send of rank s to rank r on (comm, tag)
// is the n-th receive of r from s on (comm, tag): both get the same slot.
//
// The loader numbers the messages while their records pass (the table and
// the events are then still in cache; a later pass over millions of events
// costs more than the numbering itself); MessageSlots(trace) does the same
// for a trace built otherwise.
#pragma once

#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

#include "trace/local_trace.hpp"

namespace hindsight::trace {

class MessageSlots {
public:
    MessageSlots() = default;
    explicit MessageSlots(const LocalTrace& trace);

    // By message index (LocalTrace::messages): the peer's world rank, and
    // the slot among this rank's sends to it (for a send) or receives from
    // it (for a receive).
    int peer(std::uint32_t message) const { return static_cast<int>(messages_[message].peer); }
    std::uint32_t slot(std::uint32_t message) const { return messages_[message].slot; }
    // Whether the message is a send (else a receive), without a look at the
    // events.
    bool is_send(std::uint32_t message) const { return messages_[message].send; }
    // The message's Send or Recv event: a pass over the messages need not
    // scan every event for them.
    EventIndex event(std::uint32_t message) const { return messages_[message].event; }
    // Number of sends to / receives from each world rank.
    const std::vector<std::uint32_t>& sends() const { return sends_; }
    const std::vector<std::uint32_t>& receives() const { return receives_; }

    // The messages of one direction, peer, communicator and tag, which MPI
    // matches in order: the peer's stream of the opposite direction must be
    // as long, and hold the same sizes in the same order.
    struct Stream {
        std::uint64_t sizes = 0;  // order-dependent checksum of the messages' sizes
        CommId comm = kNoId;
        std::uint32_t tag = 0;
        std::int32_t peer = -1;   // a world rank
        bool send = false;
        std::uint32_t first_slot = 0;  // its messages hold slots first_slot, first_slot + 1, ...
        std::uint32_t length = 0;
    };
    // Ordered by direction (receives first), peer, communicator and tag.
    const std::vector<Stream>& streams() const { return streams_; }
    // The index in streams() of a message's stream.
    std::uint32_t stream(std::uint32_t message) const { return messages_[message].stream; }

private:
    friend class MessageSlotsBuilder;

    struct Numbered {
        std::uint32_t peer : 31 = 0;  // a world rank
        std::uint32_t send : 1 = 0;
        std::uint32_t slot = 0;
        EventIndex event = kNoEvent;
        std::uint32_t stream = 0;
    };
    std::vector<Numbered> messages_;  // one per message
    std::vector<std::uint32_t> sends_, receives_;
    std::vector<Stream> streams_;
};

// Numbers messages one by one in trace order.
class MessageSlotsBuilder {
public:
    // `ranks`: the number of world ranks.
    explicit MessageSlotsBuilder(std::size_t ranks);

    // Room for `messages` messages; only what add() fills is touched.
    void reserve(std::size_t messages);
    // The next message of the trace: its event, whether it is a send, and
    // its peer's world rank.
    void add(const Message& message, EventIndex event, bool send, int peer);
    MessageSlots finish() &&;

private:
    // Direction (send?), peer, communicator, tag.
    using Stream = std::tuple<bool, int, CommId, std::uint32_t>;

    MessageSlots slots_;
    // The slots follow from a sort of the messages by stream, stable within
    // each. A trace has few streams and millions of messages, so rather
    // than sort the messages the builder numbers them within their stream,
    // and finish() sorts the streams and shifts each stream's numbers by the
    // size of the streams before it.
    std::map<Stream, std::uint32_t> stream_ids_;
    std::vector<std::uint32_t> stream_sizes_;
    std::vector<std::uint64_t> stream_checksums_;  // of the message sizes, by stream id
    // The last stream of each direction: a rank's sends mostly share one
    // stream, and so do its receives, while the two alternate. (No stream
    // has peer -1, so the initial ones match none.)
    Stream last_[2] = {{false, -1, kNoId, 0}, {true, -1, kNoId, 0}};
    std::uint32_t last_id_[2] = {0, 0};
};

}  // namespace hindsight::trace
