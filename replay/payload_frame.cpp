#include "replay/payload_frame.hpp"

#include <string>

#include "common/error.hpp"

namespace hindsight::replay {
namespace {

ObserverMask bit(std::size_t k) { return ObserverMask{1} << k; }

// Writes `mask` little-endian into `bytes` bytes at `at`.
void store_mask(std::vector<std::byte>& out, std::size_t at, std::size_t bytes, ObserverMask mask) {
    for (std::size_t b = 0; b < bytes; ++b) out[at + b] = static_cast<std::byte>((mask >> (8 * b)) & 0xff);
}

}  // namespace

PayloadFrame::PayloadFrame(const LocalTrace& trace, std::span<ReplayObserver* const> observers)
    : trace_(trace), observers_(observers) {
    if (observers_.size() > 64) fail("a pass has more than 64 observers");
    for (std::size_t k = 0; k < observers_.size(); ++k)
        if (observers_[k]->writes_notes()) note_writers_ |= bit(k);
}

void PayloadFrame::fail(const char* problem) const {
    throw Error(trace_.anchor_path, "rank " + std::to_string(trace_.rank) + ": " + problem);
}

void PayloadFrame::put_mask(PayloadWriter& out, ObserverMask mask) const {
    const std::size_t at = out.bytes().size();
    out.bytes().resize(at + mask_bytes());
    store_mask(out.bytes(), at, mask_bytes(), mask);
}

ObserverMask PayloadFrame::get_mask(PayloadReader& in) const {
    ObserverMask mask = 0;
    for (std::size_t b = 0; b < mask_bytes(); ++b)
        mask |= static_cast<ObserverMask>(in.get<std::uint8_t>()) << (8 * b);
    if (observers_.size() < 64 && (mask >> observers_.size()) != 0) fail("a replayed payload names unknown observers");
    return mask;
}

bool PayloadFrame::carries_data(const EventView& view) const {
    for (ReplayObserver* o : observers_)
        if (o->carries_data(view)) return true;
    return false;
}

ObserverMask PayloadFrame::exchanges_at(const EventView& view) const {
    ObserverMask mask = 0;
    for (std::size_t k = 0; k < observers_.size(); ++k)
        if (observers_[k]->exchanges_at(view)) mask |= bit(k);
    return mask;
}

ReplyRequest PayloadFrame::pack(const EventView& view, PayloadWriter& out) const {
    out.clear();
    put_mask(out, 0);  // reply mask, patched below
    put_mask(out, 0);  // written parts, patched below
    ReplyRequest request{0, true};
    ObserverMask written = 0;
    for (std::size_t k = 0; k < observers_.size(); ++k) {
        const std::size_t before = out.bytes().size();
        observers_[k]->pack(view, out);
        if (out.bytes().size() != before) written |= bit(k);
        if (observers_[k]->expects_reply(view)) {
            request.asked |= bit(k);
            request.deferred = request.deferred && observers_[k]->defers_reply(view);
        }
    }
    store_mask(out.bytes(), 0, mask_bytes(), request.asked);
    store_mask(out.bytes(), mask_bytes(), mask_bytes(), written);
    if (request.asked == 0) return {};
    out.put<std::uint8_t>(request.deferred ? 1 : 0);
    return request;
}

void PayloadFrame::pack_trace_data(const EventView& view, PayloadWriter& out) const {
    out.clear();
    put_mask(out, 0);  // written parts, patched below
    ObserverMask written = 0;
    for (std::size_t k = 0; k < observers_.size(); ++k) {
        const std::size_t before = out.bytes().size();
        observers_[k]->pack(view, out);
        if (out.bytes().size() != before) written |= bit(k);
    }
    store_mask(out.bytes(), 0, mask_bytes(), written);
}

void PayloadFrame::unpack_trace_data(const EventView& view, std::span<const std::byte> payload) const {
    PayloadReader in(payload);
    const ObserverMask written = get_mask(in);
    PayloadReader nothing({});
    for (std::size_t k = 0; k < observers_.size(); ++k)
        observers_[k]->unpack(view, (written & bit(k)) ? in : nothing);
    if (!in.empty()) fail("an analysis reads less of a message than its peer wrote");
}

void PayloadFrame::pack_nothing(const EventView& view, PayloadWriter& scratch) const {
    scratch.clear();
    for (ReplayObserver* o : observers_) {
        o->pack(view, scratch);
        if (!scratch.bytes().empty() || o->expects_reply(view))
            fail("an analysis packs data or asks for a reply where it declared it carries none");
    }
}

ReplyRequest PayloadFrame::unpack(const EventView& view, std::span<const std::byte> payload) const {
    PayloadReader in(payload);
    ReplyRequest request;
    request.asked = get_mask(in);
    const ObserverMask written = get_mask(in);
    PayloadReader nothing({});
    for (std::size_t k = 0; k < observers_.size(); ++k)
        observers_[k]->unpack(view, (written & bit(k)) ? in : nothing);
    if (request.asked != 0) request.deferred = in.get<std::uint8_t>() != 0;
    if (!in.empty()) fail("an analysis reads less of a message than its peer wrote");
    return request;
}

void PayloadFrame::unpack_nothing(const EventView& view) const {
    PayloadReader nothing({});
    for (ReplayObserver* o : observers_) o->unpack(view, nothing);
}

void PayloadFrame::pack_reply(const EventView& view, ObserverMask asked, PayloadWriter& out) const {
    out.clear();
    put_mask(out, 0);
    ObserverMask written = 0;
    for (std::size_t k = 0; k < observers_.size(); ++k) {
        if (!(asked & bit(k))) continue;
        const std::size_t before = out.bytes().size();
        observers_[k]->pack_reply(view, out);
        if (out.bytes().size() != before) written |= bit(k);
    }
    store_mask(out.bytes(), 0, mask_bytes(), written);
}

void PayloadFrame::unpack_reply(const EventView& view, ObserverMask asked,
                                std::span<const std::byte> reply) const {
    PayloadReader in(reply);
    const ObserverMask written = get_mask(in);
    if (written & ~asked) fail("a reply holds parts nobody asked for");
    PayloadReader nothing({});
    for (std::size_t k = 0; k < observers_.size(); ++k)
        if (asked & bit(k)) observers_[k]->unpack_reply(view, (written & bit(k)) ? in : nothing);
    if (!in.empty()) fail("an analysis reads less of a reply than its peer wrote");
}

bool PayloadFrame::write_note(const EventView& view, PayloadWriter& out) const {
    out.clear();
    if (note_writers_ == 0) return false;
    put_mask(out, 0);
    ObserverMask written = 0;
    for (std::size_t k = 0; k < observers_.size(); ++k) {
        if (!(note_writers_ & bit(k))) continue;
        const std::size_t before = out.bytes().size();
        observers_[k]->write_note(view, out);
        if (out.bytes().size() != before) written |= bit(k);
    }
    if (written == 0) {
        out.clear();
        return false;
    }
    store_mask(out.bytes(), 0, mask_bytes(), written);
    return true;
}

void PayloadFrame::read_note(const EventView& view, std::span<const std::byte> note) const {
    PayloadReader in(note);
    const ObserverMask written = get_mask(in);
    if (written & ~note_writers_) fail("a note holds parts of observers that write none");
    for (std::size_t k = 0; k < observers_.size(); ++k)
        if (written & bit(k)) observers_[k]->read_note(view, in);
    if (!in.empty()) fail("an analysis reads less of a note than its peer wrote");
}

}  // namespace hindsight::replay
