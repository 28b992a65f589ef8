// How analyses take part in a replay pass. An analysis is a ReplayObserver:
// the engine walks the rank's events forward in time and calls the observer
// for each; communication between ranks happens only through the engine —
// point-to-point data in payloads, collective data through the
// CollectiveChannel of the current collective event. Analyses never call MPI.
// (What an analysis computes from the whole trace at once, in bulk
// exchanges, runs outside any pass: ReplayEngine::run_rounds.)
//
// An observer says once per pass what it takes part in (Participation); the
// engine calls only the hooks of those parts, and the timing rules of each
// part are written at its field.
#pragma once

#include <cstdint>

#include "replay/collective_channel.hpp"
#include "replay/collective_task.hpp"
#include "trace/local_trace.hpp"
#include "replay/payload.hpp"

namespace hindsight::replay {

// What an observer's payloads depend on, which decides how the engine may
// ship them. Point-to-point data flows with the pass, from sender to
// receiver: pack() at a Send, unpack() at the matching Recv.
enum class Payloads : std::uint8_t {
    // pack() and unpack() are not called.
    None,
    // pack() depends on nothing but the trace and what the observer knew
    // when the pass began. Where no observer of the pass packs FromPass, the
    // engine may call pack() for all packing events before the first event,
    // in pass order, and ship the payloads together; unpack() still comes at
    // each unpacking event in pass order, with the payload MPI's matching
    // (per communicator, peer and tag, first in first out) would deliver.
    // Such a pass may also complete the operations of on_collective() after
    // later events (batched with those of other collectives), so there a
    // task must not depend on other events' hooks having run or not.
    FromTrace,
    // pack() may depend on what the pass brought so far: every message
    // travels on its own, when the pass reaches it.
    FromPass,
};

// What an observer takes part in during one pass: asked once, right after
// begin_pass(), and fixed until end_pass(). The engine calls only the hooks
// of the parts declared here, and asks the per-event question of a part
// (needs_reply()) only of the observers that declared it. Every rank must
// declare the same for the same pass: the parts decide which communication
// the pass runs. Most events are Enters
// and Leaves, and most messages carry nothing for most analyses, so an
// observer should leave out what it ignores.
struct Participation {
    // on_enter() at every Enter, on_leave() at every Leave, in pass order.
    bool enters = false;
    bool leaves = false;
    // pack() at every packing event and unpack() at every unpacking event,
    // in pass order (see Payloads for what pack() may depend on). unpack()
    // must read exactly what pack() wrote; an observer whose pack() wrote
    // nothing gets an empty reader (so "nothing" costs no byte: test
    // PayloadReader::empty()).
    Payloads payloads = Payloads::None;
    // Data against the pass direction, asked for by the packing side: at
    // every packing event, before pack(), needs_reply() says whether this
    // observer needs a reply; where it does (and only there) pack_reply()
    // comes on the unpacking side, right after unpack(), and unpack_reply()
    // on the packing side, after the pack() that asked, before the event at
    // which the calls that synchronized end (reply_boundary(): the Leave of
    // the send call) and before end_pass(); possibly after later events, and
    // several replies may be outstanding at once. Ask only where the two
    // calls were synchronized in the original run (the send call had begun
    // and was still running when the receive was posted, or began while the
    // receive was waiting), because only then can the engine wait for the
    // reply without deadlocking the replay (mpi_engine.cpp argues why).
    // Needs Payloads::FromPass.
    // Example: the activity graph's sender that waited for its receiver
    // (Late Receiver) needs the receiver's path length at the posting of
    // the receive.
    bool replies = false;
    // What the unpacking side learns from a message and the packing side
    // needs only after the pass, without asking for it: write_note() for
    // every message after the last event, with the unpacking event, in pass
    // order (so a note may say what only later events showed); what it
    // writes reaches read_note() on the packing side, with the packing
    // event, before end_pass(), in pass order of the packing events. A
    // message whose note is empty costs nothing and gets no read_note(), so
    // the packing side must take "no note" as the default.
    // Example: the receiver sees in the forward pass that its sender waited
    // for it (Late Receiver) and tells the sender, whose wait it is.
    bool notes = false;
    // on_collective() at every collective event (including the implicit
    // ones of MPI_Init and MPI_Finalize).
    bool collectives = false;
};

class ReplayObserver {
public:
    virtual ~ReplayObserver() = default;

    // Called once before the first event of a pass and once after the last
    // (after every reply and note of the pass).
    virtual void begin_pass(const trace::LocalTrace&) {}
    virtual void end_pass(const trace::LocalTrace&) {}
    // What this observer takes part in until end_pass(); asked once, after
    // begin_pass().
    virtual Participation participation() const = 0;

    // Participation::enters, Participation::leaves.
    virtual void on_enter(const trace::EventView&) {}
    virtual void on_leave(const trace::EventView&) {}

    // Participation::payloads.
    virtual void pack(const trace::EventView&, PayloadWriter&) {}
    virtual void unpack(const trace::EventView&, PayloadReader&) {}

    // Participation::replies (needs_reply() at every packing event, before
    // pack()).
    virtual bool needs_reply(const trace::EventView&) const { return false; }
    virtual void pack_reply(const trace::EventView&, PayloadWriter&) {}
    virtual void unpack_reply(const trace::EventView&, PayloadReader&) {}

    // Participation::notes.
    virtual void write_note(const trace::EventView&, PayloadWriter&) {}
    virtual void read_note(const trace::EventView&, PayloadReader&) {}

    // Participation::collectives. An observer that communicates at a
    // collective is a coroutine (collective_task.hpp).
    virtual CollectiveTask on_collective(const trace::EventView&, CollectiveChannel&) { return {}; }
};

}  // namespace hindsight::replay
