#include "replay/payload_frame.hpp"

#include <string>

#include "common/error.hpp"

namespace hindsight::replay {
namespace {

// Writes `mask` little-endian into the `bytes` bytes at `out`.
void store_mask(std::byte* out, std::size_t bytes, ObserverMask mask) {
    for (std::size_t b = 0; b < bytes; ++b) out[b] = static_cast<std::byte>((mask >> (8 * b)) & 0xff);
}

ObserverMask mask_of(std::span<const PassMember> members) {
    ObserverMask mask = 0;
    for (const PassMember& m : members) mask |= m.bit;
    return mask;
}

}  // namespace

PayloadFrame::PayloadFrame(const trace::LocalTrace& trace, const PassObservers& pass)
    : trace_(trace),
      pass_(pass),
      mask_bytes_((pass.size() + 7) / 8),
      payload_writers_(mask_of(pass.payloads())),
      reply_writers_(mask_of(pass.replies())),
      note_writers_(mask_of(pass.notes())) {}

void PayloadFrame::fail(const std::string& problem) const {
    throw Error(trace_.anchor_path, "rank " + std::to_string(trace_.rank) + ": " + problem);
}

void PayloadFrame::put_mask(PayloadWriter& out, ObserverMask mask) const {
    store_mask(out.extend(mask_bytes_), mask_bytes_, mask);
}

ObserverMask PayloadFrame::get_mask(PayloadReader& in) const {
    ObserverMask mask = 0;
    for (std::size_t b = 0; b < mask_bytes_; ++b)
        mask |= static_cast<ObserverMask>(in.get<std::uint8_t>()) << (8 * b);
    if (pass_.size() < 64 && (mask >> pass_.size()) != 0) fail("a replayed payload names unknown observers");
    return mask;
}

// Parts: a mask of the members among `who` that wrote something, then what
// they wrote, in observer order; `write(observer, out)` writes one part.
template <typename Write>
void PayloadFrame::write_parts(std::span<const PassMember> members, ObserverMask who, PayloadWriter& out,
                               Write write) const {
    const std::size_t at = out.size();
    put_mask(out, 0);  // patched below
    ObserverMask written = 0;
    for (const PassMember& m : members) {
        if (!(who & m.bit)) continue;
        const std::size_t before = out.size();
        write(*m.observer, out);
        if (out.size() != before) written |= m.bit;
    }
    store_mask(out.bytes().data() + at, mask_bytes_, written);
}

// Hands every member among `who` its part, or an empty reader where it
// wrote none; `read(observer, in)` reads one part.
template <typename Read>
void PayloadFrame::read_parts(std::span<const PassMember> members, ObserverMask who, PayloadReader& in, Read read,
                              const char* what) const {
    const ObserverMask written = get_mask(in);
    if (written & ~who) fail(std::string(what) + " holds parts no observer may write there");
    PayloadReader nothing({});
    for (const PassMember& m : members)
        if (who & m.bit) read(*m.observer, (written & m.bit) ? in : nothing);
}

void PayloadFrame::expect_end(const PayloadReader& in, const char* what) const {
    if (!in.empty()) fail(std::string("an analysis reads less of ") + what + " than its peer wrote");
}

ObserverMask PayloadFrame::reply_request(const trace::EventView& view) const {
    ObserverMask asked = 0;
    for (const PassMember& m : pass_.replies())
        if (m.observer->needs_reply(view)) asked |= m.bit;
    return asked;
}

ObserverMask PayloadFrame::pack(const trace::EventView& view, PayloadWriter& out) const {
    out.clear();
    const ObserverMask asked = reply_request(view);
    put_mask(out, asked);
    write_parts(pass_.payloads(), payload_writers_, out, [&](ReplayObserver& o, PayloadWriter& w) { o.pack(view, w); });
    return asked;
}

ObserverMask PayloadFrame::unpack(const trace::EventView& view, std::span<const std::byte> payload) const {
    PayloadReader in(payload);
    const ObserverMask asked = get_mask(in);
    if (asked & ~reply_writers_) fail("a replayed payload asks for replies no observer gives");
    read_parts(pass_.payloads(), payload_writers_, in,
               [&](ReplayObserver& o, PayloadReader& r) { o.unpack(view, r); }, "a message");
    expect_end(in, "a message");
    return asked;
}

void PayloadFrame::pack_trace_data(const trace::EventView& view, PayloadWriter& out) const {
    out.clear();
    write_parts(pass_.payloads(), payload_writers_, out, [&](ReplayObserver& o, PayloadWriter& w) { o.pack(view, w); });
}

void PayloadFrame::unpack_trace_data(const trace::EventView& view, std::span<const std::byte> payload) const {
    PayloadReader in(payload);
    read_parts(pass_.payloads(), payload_writers_, in,
               [&](ReplayObserver& o, PayloadReader& r) { o.unpack(view, r); }, "a message");
    expect_end(in, "a message");
}

void PayloadFrame::pack_reply(const trace::EventView& view, ObserverMask asked, PayloadWriter& out) const {
    out.clear();
    write_parts(pass_.replies(), asked, out, [&](ReplayObserver& o, PayloadWriter& w) { o.pack_reply(view, w); });
}

void PayloadFrame::unpack_reply(const trace::EventView& view, ObserverMask asked,
                                std::span<const std::byte> reply) const {
    PayloadReader in(reply);
    read_parts(pass_.replies(), asked, in, [&](ReplayObserver& o, PayloadReader& r) { o.unpack_reply(view, r); },
               "a reply");
    expect_end(in, "a reply");
}

bool PayloadFrame::write_note(const trace::EventView& view, PayloadWriter& out) const {
    out.clear();
    if (note_writers_ == 0) return false;
    write_parts(pass_.notes(), note_writers_, out, [&](ReplayObserver& o, PayloadWriter& w) { o.write_note(view, w); });
    if (out.size() > mask_bytes_) return true;
    out.clear();  // nobody wrote a note
    return false;
}

void PayloadFrame::read_note(const trace::EventView& view, std::span<const std::byte> note) const {
    PayloadReader in(note);
    // Only the observers that wrote a part get read_note(): a written part is
    // never empty, and "no note" is the default.
    read_parts(pass_.notes(), note_writers_, in,
               [&](ReplayObserver& o, PayloadReader& r) {
                   if (!r.empty()) o.read_note(view, r);
               },
               "a note");
    expect_end(in, "a note");
}

}  // namespace hindsight::replay
