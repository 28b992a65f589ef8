// One analysis rank's share of a trace: the global definitions, the global
// (unified) call tree, and this rank's own events in the event store.
#pragma once

#include <algorithm>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/call_tree.hpp"
#include "common/definitions.hpp"
#include "trace/event.hpp"
#include "trace/rma_records.hpp"
#include "trace/thread_streams.hpp"

namespace hindsight::trace {

// The events of one rank in stream order, and its messages.
using EventStore = std::vector<Event>;
using MessageTable = std::vector<Message>;

class LocalTrace {
public:
    Definitions definitions;
    CallTree call_tree;          // global: the same ids on every rank
    int rank = 0;                // this rank in MPI_COMM_WORLD
    std::string anchor_path;     // the archive's traces.otf2, for messages

    EventStore events;
    // Referred to by the Send/Recv and CollectiveEnd events (Event::ref), in
    // the order of those events.
    MessageTable messages;
    // A non-blocking collective operation has its event where it completes
    // (OTF2's NON_BLOCKING_COLLECTIVE_COMPLETE, in MPI_Wait & co.).
    std::vector<Collective> collectives;
    // The reads and writes of files with the bytes they moved, in the
    // order of their completions.
    std::vector<FileTransfer> file_transfers;
    // One-sided communication besides its collective window operations
    // (which are in `collectives`).
    RmaRecords rma;
    // The calls that posted the non-blocking receives, for those whose
    // request the trace showed being posted (MPI_IRECV_REQUEST), ordered by
    // message index. Read it through posting_call().
    std::vector<ReceiveCall> posted_receives;
    // The blocking probes (MPI_Probe, MPI_Mprobe) that waited for the
    // message a receive then took: the first receive after each, ordered by
    // message index. Read it through probing_call().
    std::vector<ReceiveCall> probed_receives;
    // The receives a polling loop tested for before a later call completed
    // them: the first of their polling calls (an unsuccessful MPI_Test* of
    // the receive's request, or an MPI_Iprobe/MPI_Improbe since the
    // previous receive), ordered by message index. Read it through
    // polling_call(); the polling calls are those of the polling functions
    // from there up to the completing call (analyses/polling_calls.hpp).
    std::vector<ReceiveCall> polled_receives;
    // Lists of communicator ranks, each sorted and listed once, that
    // collective operations received data from (Collective::sources).
    std::vector<std::vector<int>> source_lists;
    // How the stream began: without PROGRAM_BEGIN, or with one whose name
    // found no region, or with one naming the program's region (the call
    // tree's root then). Ranks of one run agree on it unless a name is damaged.
    enum class ProgramStart : std::uint8_t { None, NoRegion, Region };
    ProgramStart program_start = ProgramStart::None;
    // The program and its arguments as this rank's PROGRAM_BEGIN names
    // them, for the report's run information; empty without one.
    std::string program;
    std::vector<std::string> program_arguments;
    // The rank's OpenMP threads, master first; empty for a rank of one
    // thread (thread_streams.hpp).
    ThreadStreams threads;

    const Message& message(const Event& e) const { return messages[e.ref]; }
    // Enter of the MPI call that posted the receive of Recv event `e`: the
    // receive call itself when it was blocking (MPI_Recv, MPI_Sendrecv), the
    // MPI_Irecv (or MPI_Start) for a non-blocking one, whose receive
    // completes in a later call; kNoEvent when the trace does not show it.
    EventIndex posting_call(const Event& e) const;
    // Enter of the blocking probe that waited for the message of Recv event
    // `e` before the receive call took it; kNoEvent when none did.
    EventIndex probing_call(const Event& e) const;
    // Enter of the first polling call that tested for the message of Recv
    // event `e` before its receive completed; kNoEvent when none did.
    EventIndex polling_call(const Event& e) const;
    const Collective& collective(const Event& e) const { return collectives[e.ref]; }
    // The members `c` received data from, in communicator ranks, ascending;
    // only for a collective with recorded sources (c.sources != kNoSources).
    std::span<const int> sources(const Collective& c) const { return source_lists[c.sources]; }
    // The region a call path ends in.
    const Region& region_of(CallPathId cnode) const {
        return definitions.regions[call_tree.node(cnode).region];
    }
    double seconds(Ticks span) const { return definitions.clock.seconds(span); }
};

// A read-only view of one event during a replay pass, with the context the
// analyses need most: the MPI call (or region) that encloses it.
class EventView {
public:
    EventView(const LocalTrace& trace, EventIndex index) : trace_(&trace), index_(index) {}

    EventIndex index() const { return index_; }
    const Event& event() const { return trace_->events[index_]; }
    EventKind kind() const { return event().kind; }
    Ticks time() const { return event().time; }
    CallPathId cnode() const { return event().cnode; }
    const LocalTrace& trace() const { return *trace_; }

    const Message& message() const { return trace_->message(event()); }
    const Collective& collective() const { return trace_->collective(event()); }
    // For a collective event: when this rank's part began, which the other
    // members wait for (Collective::begin, else the call's entry) ...
    Ticks collective_arrival() const;
    // ... and from when this rank can wait for them: inside the call that
    // completes the operation, once its part began. The two differ for a
    // non-blocking operation, started in one call and awaited in another.
    Ticks collective_wait_start() const;
    // For a communication event: from when this rank could wait there. The
    // entry into its call, for a collective collective_wait_start(), for a
    // receive whose message a blocking probe waited for the probe's entry,
    // for one polled for the entry into its first polling call.
    Ticks wait_start() const;

    // Enter and Leave of the region instance this event belongs to: for
    // Enter/Leave events their own pair, for communication events the
    // enclosing MPI call.
    EventIndex enter_index() const;
    EventIndex leave_index() const;
    const Event& enter() const { return trace_->events[enter_index()]; }
    const Event& leave() const { return trace_->events[leave_index()]; }

private:
    const LocalTrace* trace_;
    EventIndex index_;
};

// Region names from the root down to call path `cnode`, joined by
// `separator`: "main/work" (as what-ifs and warnings name call paths) or
// "main > work" (as the summary does).
std::string call_path_text(const LocalTrace& trace, CallPathId cnode, std::string_view separator = "/");

namespace detail {
// The call a side table of receives (ordered by message) gives `message`.
inline EventIndex call_of(const std::vector<ReceiveCall>& table, std::uint32_t message) {
    const auto it = std::lower_bound(table.begin(), table.end(), message,
                                     [](const ReceiveCall& p, std::uint32_t m) { return p.message < m; });
    return it != table.end() && it->message == message ? it->call_enter : kNoEvent;
}
}  // namespace detail

inline EventIndex LocalTrace::posting_call(const Event& e) const {
    const Message& m = message(e);
    return m.nonblocking ? detail::call_of(posted_receives, e.ref) : m.call_enter;
}

inline EventIndex LocalTrace::probing_call(const Event& e) const {
    return probed_receives.empty() ? kNoEvent : detail::call_of(probed_receives, e.ref);
}

inline EventIndex LocalTrace::polling_call(const Event& e) const {
    return polled_receives.empty() ? kNoEvent : detail::call_of(polled_receives, e.ref);
}

inline EventIndex EventView::enter_index() const {
    const Event& e = event();
    switch (e.kind) {
    case EventKind::Enter: return index_;
    case EventKind::Leave: return e.ref;
    case EventKind::Send:
    case EventKind::Recv: return message().call_enter;
    case EventKind::CollectiveEnd: return collective().call_enter;
    }
    return kNoEvent;
}

inline Ticks EventView::collective_arrival() const {
    const Ticks begin = collective().begin;
    return begin == Collective::kNoBegin ? enter().time : begin;
}

inline Ticks EventView::collective_wait_start() const { return std::max(collective_arrival(), enter().time); }

inline Ticks EventView::wait_start() const {
    if (kind() == EventKind::CollectiveEnd) return collective_wait_start();
    if (kind() == EventKind::Recv) {
        const EventIndex probe = trace_->probing_call(event());
        if (probe != kNoEvent) return trace_->events[probe].time;
        const EventIndex poll = trace_->polling_call(event());
        if (poll != kNoEvent) return trace_->events[poll].time;
    }
    return enter().time;
}

inline EventIndex EventView::leave_index() const {
    const EventIndex enter = enter_index();
    return enter == kNoEvent ? kNoEvent : trace_->events[enter].ref;
}

}  // namespace hindsight::trace
