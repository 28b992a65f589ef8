// The notes of a pass (ReplayObserver::write_note): written for the
// unpacking events after the last event, shipped in one block all-to-all of entry blocks
// (slot_blocks.hpp), read at the packing events they belong to. Only the
// messages with a note travel, so a pass in which few receivers have
// anything to tell costs one small all-to-all instead of a pass of its own.
#pragma once

#include <vector>

#include "replay/block_all_to_all.hpp"
#include "trace/message_slots.hpp"
#include "replay/payload_frame.hpp"
#include "replay/slot_blocks.hpp"

namespace hindsight::replay {

class NoteDelivery {
public:
    // All three must outlive the delivery.
    NoteDelivery(const trace::LocalTrace& trace, const trace::MessageSlots& slots, BlockAllToAll& all_to_all)
        : trace_(trace), slots_(slots), all_to_all_(all_to_all) {}

    // Before a pass with `frame` (which must outlive it); the calls below do
    // nothing unless its observers write notes.
    void begin(const PayloadFrame& frame);
    // At every packing event (Send) of the pass: where its slot's note belongs.
    void packed(trace::EventIndex event) {
        if (frame_) packing_events_[peer_of(event)][slots_.slot(trace_.events[event].ref)] = event;
    }
    // At every unpacking event, after the frame's unpack(): where a note
    // may be written.
    void unpacked(const trace::EventView& view);
    // After the last event: writes the notes, ships them (collective
    // over all ranks) and hands each to its packing event, in pass order.
    void deliver();

private:
    std::size_t peer_of(trace::EventIndex event) const {
        return static_cast<std::size_t>(slots_.peer(trace_.events[event].ref));
    }

    const trace::LocalTrace& trace_;
    const trace::MessageSlots& slots_;
    BlockAllToAll& all_to_all_;
    const PayloadFrame* frame_ = nullptr;
    std::vector<std::vector<trace::EventIndex>> packing_events_;  // by peer and slot
    std::vector<trace::EventIndex> unpacking_events_;  // in pass order
    EntryBlocks outgoing_;
    PayloadWriter writer_;
};

}  // namespace hindsight::replay
