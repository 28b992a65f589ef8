#include "trace/message_slots.hpp"

#include "trace/checksum.hpp"
#include "trace/comm_layout.hpp"

namespace hindsight::trace {
MessageSlots::MessageSlots(const LocalTrace& trace) {
    MessageSlotsBuilder builder(static_cast<std::size_t>(trace.definitions.mpi_rank_count()));
    // Members of each communicator in world ranks; empty until first used.
    std::vector<CommLayout> layouts(trace.definitions.communicators.size());
    std::vector<bool> known(layouts.size(), false);
    for (EventIndex i = 0; i < trace.events.size(); ++i) {
        const Event& e = trace.events[i];
        if (e.kind != EventKind::Send && e.kind != EventKind::Recv) continue;
        const Message& m = trace.messages[e.ref];
        if (!known[m.comm]) {
            layouts[m.comm] = comm_layout(trace.definitions, m.comm);
            known[m.comm] = true;
        }
        builder.add(m, i, e.kind == EventKind::Send, layouts[m.comm].world_rank_of(m.partner, trace.rank));
    }
    *this = std::move(builder).finish();
}

MessageSlotsBuilder::MessageSlotsBuilder(std::size_t ranks) {
    slots_.sends_.assign(ranks, 0);
    slots_.receives_.assign(ranks, 0);
}

void MessageSlotsBuilder::reserve(std::size_t messages) {
    slots_.messages_.reserve(messages);
}

void MessageSlotsBuilder::add(const Message& message, EventIndex event, bool send, int peer) {
    const Stream stream{send, peer, message.comm, message.tag};
    if (last_[send] != stream) {
        const auto [it, added] = stream_ids_.try_emplace(stream, static_cast<std::uint32_t>(stream_sizes_.size()));
        if (added) {
            stream_sizes_.push_back(0);
            stream_checksums_.push_back(0);
        }
        last_[send] = stream;
        last_id_[send] = it->second;
    }
    const std::uint32_t id = last_id_[send];
    slots_.messages_.push_back({static_cast<std::uint32_t>(peer), send, stream_sizes_[id]++, event, id});
    // Folded along the stream: its peer's stream holds the same sizes in
    // the same order.
    stream_checksums_[id] = mix(stream_checksums_[id] ^ message.bytes);
}

MessageSlots MessageSlotsBuilder::finish() && {
    // In sorted order, each stream starts where the previous ones of the
    // same direction and peer end.
    std::vector<std::uint32_t> stream_start(stream_sizes_.size(), 0);
    // By stream id: its place among the streams in sorted order.
    std::vector<std::uint32_t> sorted(stream_sizes_.size(), 0);
    for (const auto& [stream, id] : stream_ids_) {
        const auto& [send, peer, comm, tag] = stream;
        auto& count = (send ? slots_.sends_ : slots_.receives_).at(static_cast<std::size_t>(peer));
        stream_start[id] = count;
        sorted[id] = static_cast<std::uint32_t>(slots_.streams_.size());
        slots_.streams_.push_back({stream_checksums_[id], comm, tag, peer, send, count, stream_sizes_[id]});
        count += stream_sizes_[id];
    }
    for (MessageSlots::Numbered& m : slots_.messages_) {
        m.slot += stream_start[m.stream];
        m.stream = sorted[m.stream];
    }
    return std::move(slots_);
}

}  // namespace hindsight::trace
