// How the observers of a pass share one payload (observer.hpp), the same
// for every engine. A payload starts with two observer masks: which
// observers ask for a reply, and which wrote a part; the parts follow in
// observer order. An observer that wrote nothing gets an empty reader on the
// unpacking side, so that it can tell "no data" from data without spending
// a byte on it. A reply holds a mask of the observers that wrote a part,
// then the parts of the observers that asked for it; only those take part
// in it. A note (ReplayObserver::write_note) is laid out like a reply: a
// mask of the note writers that wrote a part, then their parts. Masks hold a
// bit for every observer of the pass (by its position), but only the
// members of the part concerned are called.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "replay/pass_observers.hpp"

namespace hindsight::replay {

// Where the packing side (a Send) of a pass takes a reply it asked for at
// packing event `view`: the first event outside the MPI calls that
// synchronized, the Leave of the send call (mpi_engine.cpp argues why
// waiting there cannot deadlock).
inline trace::EventIndex reply_boundary(const trace::LocalTrace& trace, const trace::EventView& view) {
    const trace::Message& m = view.message();
    return m.call_enter == trace::kNoEvent ? trace::kNoEvent : trace.events[m.call_enter].ref;
}

class PayloadFrame {
public:
    // `trace` names the file in error messages; both must outlive the frame.
    PayloadFrame(const trace::LocalTrace& trace, const PassObservers& pass);

    // Packing side: the observers' parts into `out` (cleared first); returns
    // the observers that ask for a reply.
    ObserverMask pack(const trace::EventView& view, PayloadWriter& out) const;
    // The same for a pass whose observers pack trace data only, where nobody
    // asks for replies: the payload holds only the mask of written parts.
    void pack_trace_data(const trace::EventView& view, PayloadWriter& out) const;
    void unpack_trace_data(const trace::EventView& view, std::span<const std::byte> payload) const;
    // Unpacking side: hands each observer its part; returns the observers
    // that ask for a reply.
    ObserverMask unpack(const trace::EventView& view, std::span<const std::byte> payload) const;

    void pack_reply(const trace::EventView& view, ObserverMask asked, PayloadWriter& out) const;
    void unpack_reply(const trace::EventView& view, ObserverMask asked, std::span<const std::byte> reply) const;

    // Notes: whether some observer of the pass writes them; the unpacking
    // side's note into `out` (cleared first), false and `out` empty where
    // no observer wrote one; the packing side's reading of it.
    bool writes_notes() const { return note_writers_ != 0; }
    bool write_note(const trace::EventView& view, PayloadWriter& out) const;
    void read_note(const trace::EventView& view, std::span<const std::byte> note) const;

private:
    // The replies the observers of the replies part ask for at this packing event.
    ObserverMask reply_request(const trace::EventView& view) const;
    template <typename Write>
    void write_parts(std::span<const PassMember> members, ObserverMask who, PayloadWriter& out, Write write) const;
    template <typename Read>
    void read_parts(std::span<const PassMember> members, ObserverMask who, PayloadReader& in, Read read,
                    const char* what) const;
    void expect_end(const PayloadReader& in, const char* what) const;
    void put_mask(PayloadWriter& out, ObserverMask mask) const;
    ObserverMask get_mask(PayloadReader& in) const;
    [[noreturn]] void fail(const std::string& problem) const;

    const trace::LocalTrace& trace_;
    const PassObservers& pass_;
    std::size_t mask_bytes_;
    ObserverMask payload_writers_ = 0;
    ObserverMask reply_writers_ = 0;
    ObserverMask note_writers_ = 0;
};

}  // namespace hindsight::replay
