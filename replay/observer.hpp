// How analyses take part in a replay pass. An analysis is a ReplayObserver:
// the engine walks the rank's events (forward or backward in time) and calls
// the observer for each; communication between ranks happens only through
// the engine — point-to-point data in payloads, collective data through the
// CollectiveChannel of the current collective event. Analyses never call MPI.
//
// An observer says once per pass what it takes part in (Participation); the
// engine calls only the hooks of those parts, and the timing rules of each
// part are written at its field.
#pragma once

#include <cstdint>

#include "replay/collective_channel.hpp"
#include "replay/collective_task.hpp"
#include "replay/exchange.hpp"
#include "trace/local_trace.hpp"
#include "replay/payload.hpp"

namespace hindsight::replay {

enum class Direction : std::uint8_t { Forward, Backward };

// What an observer's payloads depend on, which decides how the engine may
// ship them. Point-to-point data flows with the pass: forward from sender to
// receiver (pack() at a Send, unpack() at the matching Recv), backward the
// other way (pack() at a Recv, unpack() at the matching Send).
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
    // pack() may depend on what the pass brought so far. It may write only
    // at the packing events where carries_data() says so; the engine asks
    // that before the first event.
    FromPass,
};

// When the packing side needs the reply it asks for at a packing event.
enum class ReplyNeed : std::uint8_t {
    None,
    // Before the event at which the calls that synchronized end in pass
    // order (reply_boundary(): backward, the Enter of the call that posted
    // the receive, which for a receive completed in an MPI_Wait is the
    // earlier MPI_Irecv; forward, the Leave of the send call), and before
    // end_pass(); possibly after later events, and several replies may be
    // outstanding at once.
    AtBoundary,
    // Nothing this observer does before end_pass() depends on the reply:
    // where every observer that asks says so, the reply may come after the
    // last event (before end_pass(), in pass order of the packing events),
    // so that the packing side need not wait for its peer.
    AtPassEnd,
};

// What an observer takes part in during one pass: asked once, right after
// begin_pass(), and fixed until end_pass(). The engine calls only the hooks
// of the parts declared here, and asks the per-event questions of a part
// (carries_data(), reply_need(), exchanges_at()) only of the observers that
// declared it. Every rank must declare the same for the same pass: the
// parts decide which communication the pass runs. Most events are Enters
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
    // every packing event, before pack(), reply_need() says whether and
    // when this observer needs a reply; where it does (and only there)
    // pack_reply() comes on the unpacking side, right after unpack(), and
    // unpack_reply() on the packing side, after the pack() that asked, when
    // ReplyNeed says. Ask only where the two calls were synchronized in the
    // original run (the send call had begun and was still running when the
    // receive was posted, or began while the receive was waiting), because
    // only then can the engine wait for the reply without deadlocking the
    // replay (mpi_engine.cpp argues why). Needs Payloads::FromPass.
    // Example: in the backward pass the receiver of a late-receiver message
    // needs the sender's cost data, which flows against the pass direction.
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
    // ones of MPI_Init and MPI_Finalize). Before the first event the
    // engine may ask exchanges_at() at each collective event (the MPI engine
    // does in passes whose payloads travel one by one); where it asked and
    // no member of the communicator says yes, on_collective() gets an
    // inactive channel (see CollectiveChannel::active()) and the observer
    // must behave as if every member had contributed nothing.
    bool collectives = false;
    // run_rounds() once, after begin_pass() and before the first event, on
    // every rank in pass order: bulk exchanges (exchange.hpp) for what the
    // observer computes from the whole trace at once instead of event by
    // event, such as a chain through all ranks that per-event hand-overs
    // would follow one message at a time. An observer that takes part in
    // nothing else costs the pass no walk over the events.
    bool rounds = false;
};

class ReplayObserver {
public:
    virtual ~ReplayObserver() = default;

    // Called once before the first event of a pass and once after the last
    // (after every reply and note of the pass).
    virtual void begin_pass(const trace::LocalTrace&, Direction) {}
    virtual void end_pass(const trace::LocalTrace&, Direction) {}
    // What this observer takes part in until end_pass(); asked once, after
    // begin_pass().
    virtual Participation participation() const = 0;

    // Participation::enters, Participation::leaves.
    virtual void on_enter(const trace::EventView&) {}
    virtual void on_leave(const trace::EventView&) {}

    // Participation::payloads.
    virtual void pack(const trace::EventView&, PayloadWriter&) {}
    virtual void unpack(const trace::EventView&, PayloadReader&) {}
    // Payloads::FromPass: whether pack() at this packing event may write
    // anything or ask for a reply; asked before the first event, so it must
    // depend only on the trace and on what the observer knew when the pass
    // began. Where every observer says no, the message does not travel:
    // pack() is still called and must write nothing, and the peer's
    // unpack() gets an empty reader.
    virtual bool carries_data(const trace::EventView&) const { return true; }

    // Participation::replies (reply_need() at every packing event, before
    // pack()).
    virtual ReplyNeed reply_need(const trace::EventView&) const { return ReplyNeed::None; }
    virtual void pack_reply(const trace::EventView&, PayloadWriter&) {}
    virtual void unpack_reply(const trace::EventView&, PayloadReader&) {}

    // Participation::notes.
    virtual void write_note(const trace::EventView&, PayloadWriter&) {}
    virtual void read_note(const trace::EventView&, PayloadReader&) {}

    // Participation::collectives. An observer that communicates at a
    // collective is a coroutine (collective_task.hpp).
    virtual CollectiveTask on_collective(const trace::EventView&, CollectiveChannel&) { return {}; }
    // Whether this rank may contribute anything at this collective event;
    // asked before the first event, under the same rules as carries_data().
    virtual bool exchanges_at(const trace::EventView&) const { return true; }

    // Participation::rounds.
    virtual void run_rounds(Exchange&) {}
};

}  // namespace hindsight::replay
