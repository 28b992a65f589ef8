// How analyses take part in a replay pass. An analysis is a ReplayObserver:
// the engine walks the rank's events (forward or backward in time) and calls
// the observer for each; communication between ranks happens only through
// the engine — point-to-point data in payloads, collective data through the
// CollectiveChannel of the current collective event. Analyses never call MPI.
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <span>
#include <vector>

#include "replay/collective_channel.hpp"
#include "replay/collective_task.hpp"
#include "trace/local_trace.hpp"
#include "replay/payload.hpp"

namespace hindsight::replay {

enum class Direction : std::uint8_t { Forward, Backward };

// The region events an observer watches.
enum class RegionEvents : std::uint8_t { None, Leaves, EntersAndLeaves };

class ReplayObserver {
public:
    virtual ~ReplayObserver() = default;

    // Called once before the first event of a pass and once after the last.
    virtual void begin_pass(const trace::LocalTrace&, Direction) {}
    virtual void end_pass(const trace::LocalTrace&, Direction) {}

    virtual void on_enter(const trace::EventView&) {}
    virtual void on_leave(const trace::EventView&) {}
    // Which of on_enter() and on_leave() do anything, asked after
    // begin_pass(); the engines call only those. Most events are Enters and
    // Leaves, so observers that ignore them should say so.
    virtual RegionEvents region_events() const { return RegionEvents::EntersAndLeaves; }

    // Point-to-point. In a forward pass data flows from sender to receiver:
    // the engine calls pack() at a Send and unpack() at the matching Recv.
    // In a backward pass it flows the other way: pack() at a Recv, unpack()
    // at the matching Send. unpack() must read exactly what pack() wrote; an
    // observer whose pack() wrote nothing gets an empty reader (so "nothing"
    // costs no byte: test PayloadReader::empty()).
    virtual void pack(const trace::EventView&, PayloadWriter&) {}
    virtual void unpack(const trace::EventView&, PayloadReader&) {}

    // What lets the engine batch or skip messages; both are asked after
    // begin_pass() and must depend only on the trace and on what the
    // observer knew when the pass began, never on what it receives during it.
    //
    // packs_trace_data_only(): pack() depends on nothing but the trace (and
    // data fixed before the pass), and expects_reply() is false throughout
    // the pass. When every observer of a pass says so, the engine may call
    // pack() for all packing events of the pass before the first event, in
    // pass order, and exchange the payloads in bulk; unpack() still comes at
    // each unpacking event in pass order, with the payload MPI's matching
    // (per communicator, peer and tag, first in first out) would deliver.
    virtual bool packs_trace_data_only() const { return false; }
    // carries_data(): whether pack() at this packing event (Send forward,
    // Recv backward) may write anything or ask for a reply. Where every
    // observer says no, the message does not travel: pack() is still called
    // and must write nothing, and the peer's unpack() gets an empty reader.
    virtual bool carries_data(const trace::EventView&) const { return true; }

    // Replies. The packing side may ask for data back: the observers whose
    // expects_reply() is true there (and only they) get pack_reply() on the
    // unpacking side, right after unpack(), and unpack_reply() on the packing
    // side. unpack_reply() comes lazily: after the pack() that asked, and
    // possibly after later events, but before the event at which the calls
    // that synchronized end in pass order (replay::reply_boundary(): in a
    // backward pass the Enter of the call that posted the receive, which for
    // a receive completed in an MPI_Wait is the earlier MPI_Irecv) and
    // before end_pass(); several replies may be outstanding at once. Ask
    // only where the two calls were synchronized in the original run (the
    // send call had begun and was still running when the receive was
    // posted, or began while the receive was waiting), because only then
    // can the engine wait for the reply without deadlocking the replay
    // (mpi_engine.cpp argues why).
    // Example: in the backward pass the receiver of a late-receiver message
    // needs the sender's cost data, which flows against the pass direction.
    virtual bool expects_reply(const trace::EventView&) const { return false; }
    // defers_reply(): asked where expects_reply() is true; whether nothing
    // this observer does before end_pass() depends on that reply. Where
    // every observer that asks says so, the engine may hand over the reply
    // only after the last event of the pass (unpack_reply() then comes
    // before end_pass(), in the pass order of the packing events), so that
    // the packing side need not wait for its peer, and the replies of the
    // pass can travel together.
    virtual bool defers_reply(const trace::EventView&) const { return false; }
    virtual void pack_reply(const trace::EventView&, PayloadWriter&) {}
    virtual void unpack_reply(const trace::EventView&, PayloadReader&) {}

    // Notes: what the unpacking side learns from a message and the packing
    // side needs only after the pass, without asking for it. The observers
    // whose writes_notes() is true (asked after begin_pass()) get
    // write_note() for every message after the last event of the pass, with
    // the unpacking event, in pass order (so a note may say what only later
    // events showed); what they write reaches read_note() on the packing
    // side, with the packing event, before end_pass(), in pass order of the
    // packing events. A message
    // whose note is empty costs nothing and gets no read_note(), so the
    // packing side must take "no note" as the default.
    // Example: the receiver sees in the forward pass that its sender waited
    // for it (Late Receiver) and tells the sender, whose wait it is.
    virtual bool writes_notes() const { return false; }
    virtual void write_note(const trace::EventView&, PayloadWriter&) {}
    virtual void read_note(const trace::EventView&, PayloadReader&) {}

    // A collective event (including the implicit ones of MPI_Init and
    // MPI_Finalize); an observer that exchanges data there is a coroutine
    // (collective_task.hpp). In a pass where every observer packs trace
    // data only, the engine may run the task's exchange operations after
    // later events (batched with those of other collectives), so there the
    // task must not depend on other events' callbacks having run or not.
    virtual CollectiveTask on_collective(const trace::EventView&, CollectiveChannel&) { return {}; }
    // exchanges_at(): whether this rank may contribute anything to the
    // exchange at this collective event, asked after begin_pass() under the
    // same rules as carries_data(). Where no member of the communicator says
    // yes, the engine may hand on_collective() an inactive channel (see
    // CollectiveChannel::active()) and spare the communication; the
    // observer must then behave as if every member had contributed nothing.
    virtual bool exchanges_at(const trace::EventView&) const { return true; }
};

// The observers of a pass whose on_enter() and whose on_leave() the engine
// calls.
struct RegionWatchers {
    std::vector<ReplayObserver*> enters, leaves;

    explicit RegionWatchers(std::span<ReplayObserver* const> observers = {}) {
        std::copy_if(observers.begin(), observers.end(), std::back_inserter(enters),
                     [](const ReplayObserver* o) { return o->region_events() == RegionEvents::EntersAndLeaves; });
        std::copy_if(observers.begin(), observers.end(), std::back_inserter(leaves),
                     [](const ReplayObserver* o) { return o->region_events() != RegionEvents::None; });
    }
    void enter(const trace::EventView& view) const {
        for (ReplayObserver* o : enters) o->on_enter(view);
    }
    void leave(const trace::EventView& view) const {
        for (ReplayObserver* o : leaves) o->on_leave(view);
    }
};

}  // namespace hindsight::replay
