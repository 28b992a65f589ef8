#include "replay/note_delivery.hpp"

#include <algorithm>
#include <utility>

namespace hindsight::replay {

void NoteDelivery::begin(const PayloadFrame& frame) {
    frame_ = frame.writes_notes() ? &frame : nullptr;
    if (!frame_) return;
    const auto& packing = slots_.sends();
    packing_events_.resize(packing.size());
    for (std::size_t p = 0; p < packing.size(); ++p) packing_events_[p].assign(packing[p], trace::kNoEvent);
    outgoing_ = EntryBlocks(packing.size());
    unpacking_events_.clear();
}

void NoteDelivery::unpacked(const trace::EventView& view) {
    if (frame_) unpacking_events_.push_back(view.index());
}

void NoteDelivery::deliver() {
    if (!frame_) return;
    for (const trace::EventIndex event : unpacking_events_) {
        const trace::EventView view(trace_, event);
        if (!frame_->write_note(view, writer_)) continue;
        const std::uint32_t message = view.event().ref;
        outgoing_.add(trace_, slots_.peer(message), slots_.slot(message), writer_.bytes());
    }
    unpacking_events_.clear();
    all_to_all_.run(outgoing_.blocks());
    outgoing_ = EntryBlocks();
    std::vector<std::pair<trace::EventIndex, std::span<const std::byte>>> notes;
    for (std::size_t peer = 0; peer < packing_events_.size(); ++peer) {
        const auto& events = packing_events_[peer];
        for_each_entry(trace_, all_to_all_.block(static_cast<int>(peer)), [&](std::uint32_t slot, auto note) {
            if (slot >= events.size() || events[slot] == trace::kNoEvent)
                throw Error(trace_.anchor_path, "a replay note names a message this rank does not have");
            notes.emplace_back(events[slot], note);
        });
    }
    // In pass order, as the observers were promised.
    std::sort(notes.begin(), notes.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [event, note] : notes) frame_->read_note(trace::EventView(trace_, event), note);
    frame_ = nullptr;
}

}  // namespace hindsight::replay
