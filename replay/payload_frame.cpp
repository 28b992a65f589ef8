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

PayloadFrame::PayloadFrame(const trace::LocalTrace& trace, std::span<ReplayObserver* const> observers)
    : trace_(trace), observers_(observers) {
    if (observers_.size() > 64) fail("a pass has more than 64 observers");
    for (std::size_t k = 0; k < observers_.size(); ++k)
        if (observers_[k]->writes_notes()) note_writers_ |= bit(k);
}

void PayloadFrame::fail(const std::string& problem) const {
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

bool PayloadFrame::carries_data(const trace::EventView& view) const {
    for (ReplayObserver* o : observers_)
        if (o->carries_data(view)) return true;
    return false;
}

ObserverMask PayloadFrame::exchanges_at(const trace::EventView& view) const {
    ObserverMask mask = 0;
    for (std::size_t k = 0; k < observers_.size(); ++k)
        if (observers_[k]->exchanges_at(view)) mask |= bit(k);
    return mask;
}

// Parts: a mask of the observers among `who` that wrote something, then
// what they wrote, in observer order; `write(observer, out)` writes one part.
template <typename Write>
void PayloadFrame::write_parts(ObserverMask who, PayloadWriter& out, Write write) const {
    const std::size_t at = out.bytes().size();
    put_mask(out, 0);  // patched below
    ObserverMask written = 0;
    for (std::size_t k = 0; k < observers_.size(); ++k) {
        if (!(who & bit(k))) continue;
        const std::size_t before = out.bytes().size();
        write(*observers_[k], out);
        if (out.bytes().size() != before) written |= bit(k);
    }
    store_mask(out.bytes(), at, mask_bytes(), written);
}

// Hands every observer among `who` its part, or an empty reader where it
// wrote none; `read(observer, in)` reads one part.
template <typename Read>
void PayloadFrame::read_parts(ObserverMask who, PayloadReader& in, Read read, const char* what) const {
    const ObserverMask written = get_mask(in);
    if (written & ~who) fail(std::string(what) + " holds parts no observer may write there");
    PayloadReader nothing({});
    for (std::size_t k = 0; k < observers_.size(); ++k)
        if (who & bit(k)) read(*observers_[k], (written & bit(k)) ? in : nothing);
}

void PayloadFrame::expect_end(const PayloadReader& in, const char* what) const {
    if (!in.empty()) fail(std::string("an analysis reads less of ") + what + " than its peer wrote");
}

ObserverMask PayloadFrame::all() const {
    return observers_.size() == 64 ? ~ObserverMask{0} : bit(observers_.size()) - 1;
}

ReplyRequest PayloadFrame::pack(const trace::EventView& view, PayloadWriter& out) const {
    out.clear();
    put_mask(out, 0);  // reply mask, patched below
    ReplyRequest request{0, true};
    for (std::size_t k = 0; k < observers_.size(); ++k) {
        if (!observers_[k]->expects_reply(view)) continue;
        request.asked |= bit(k);
        request.deferred = request.deferred && observers_[k]->defers_reply(view);
    }
    store_mask(out.bytes(), 0, mask_bytes(), request.asked);
    write_parts(all(), out, [&](ReplayObserver& o, PayloadWriter& w) { o.pack(view, w); });
    if (request.asked == 0) return {};
    out.put<std::uint8_t>(request.deferred ? 1 : 0);
    return request;
}

ReplyRequest PayloadFrame::unpack(const trace::EventView& view, std::span<const std::byte> payload) const {
    PayloadReader in(payload);
    ReplyRequest request;
    request.asked = get_mask(in);
    read_parts(all(), in, [&](ReplayObserver& o, PayloadReader& r) { o.unpack(view, r); }, "a message");
    if (request.asked != 0) request.deferred = in.get<std::uint8_t>() != 0;
    expect_end(in, "a message");
    return request;
}

void PayloadFrame::pack_trace_data(const trace::EventView& view, PayloadWriter& out) const {
    out.clear();
    write_parts(all(), out, [&](ReplayObserver& o, PayloadWriter& w) { o.pack(view, w); });
}

void PayloadFrame::unpack_trace_data(const trace::EventView& view, std::span<const std::byte> payload) const {
    PayloadReader in(payload);
    read_parts(all(), in, [&](ReplayObserver& o, PayloadReader& r) { o.unpack(view, r); }, "a message");
    expect_end(in, "a message");
}

void PayloadFrame::pack_nothing(const trace::EventView& view, PayloadWriter& scratch) const {
    scratch.clear();
    for (ReplayObserver* o : observers_) {
        o->pack(view, scratch);
        if (!scratch.bytes().empty() || o->expects_reply(view))
            fail("an analysis packs data or asks for a reply where it declared it carries none");
    }
}

void PayloadFrame::unpack_nothing(const trace::EventView& view) const {
    PayloadReader nothing({});
    for (ReplayObserver* o : observers_) o->unpack(view, nothing);
}

void PayloadFrame::pack_reply(const trace::EventView& view, ObserverMask asked, PayloadWriter& out) const {
    out.clear();
    write_parts(asked, out, [&](ReplayObserver& o, PayloadWriter& w) { o.pack_reply(view, w); });
}

void PayloadFrame::unpack_reply(const trace::EventView& view, ObserverMask asked,
                                std::span<const std::byte> reply) const {
    PayloadReader in(reply);
    read_parts(asked, in, [&](ReplayObserver& o, PayloadReader& r) { o.unpack_reply(view, r); }, "a reply");
    expect_end(in, "a reply");
}

bool PayloadFrame::write_note(const trace::EventView& view, PayloadWriter& out) const {
    out.clear();
    if (note_writers_ == 0) return false;
    write_parts(note_writers_, out, [&](ReplayObserver& o, PayloadWriter& w) { o.write_note(view, w); });
    if (out.bytes().size() > mask_bytes()) return true;
    out.clear();  // nobody wrote a note
    return false;
}

void PayloadFrame::read_note(const trace::EventView& view, std::span<const std::byte> note) const {
    PayloadReader in(note);
    // Only the observers that wrote a part get read_note(): a written part is
    // never empty, and "no note" is the default.
    read_parts(note_writers_, in,
               [&](ReplayObserver& o, PayloadReader& r) {
                   if (!r.empty()) o.read_note(view, r);
               },
               "a note");
    expect_end(in, "a note");
}

}  // namespace hindsight::replay
