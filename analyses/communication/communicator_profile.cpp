#include "analyses/communication/communicator_profile.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <utility>

#include "analyses/thread_collective_waits.hpp"
#include "analyses/thread_message_waits.hpp"

namespace hindsight::analyses {
namespace {

using Key = std::pair<CommId, RegionId>;

// Whether this rank is rank 0 of a communicator, the one that counts its
// collectives; looked up once per communicator.
class FirstMembers {
public:
    FirstMembers(const trace::LocalTrace& trace) : trace_(&trace), known_(trace.definitions.communicators.size(), kUnknown) {}

    bool is_first(CommId comm) {
        if (comm >= known_.size()) return false;
        if (known_[comm] == kUnknown) {
            const std::vector<int> members = trace_->definitions.world_ranks(comm);
            // MPI_COMM_SELF-like communicators list no members: every rank is
            // its own communicator's rank 0.
            known_[comm] = members.empty() || members.front() == trace_->rank ? kYes : kNo;
        }
        return known_[comm] == kYes;
    }

private:
    static constexpr char kUnknown = 0, kYes = 1, kNo = 2;
    const trace::LocalTrace* trace_;
    std::vector<char> known_;
};

// The MPI operations of a hybrid rank's worker threads (each call once,
// at its first transfer), and the master's messages and collective parts
// that pairing matched with a worker's (trace::ThreadStreams::paired and
// collective_parts), which left the store: their calls count where no
// message of the store counted them; the waits of all of these.
template <typename Entry>
void add_thread_operations(const trace::LocalTrace& trace, FirstMembers& first, Entry&& entry) {
    const auto& threads = trace.threads.threads;
    for (std::size_t t = 1; t < threads.size(); ++t) {
        const trace::ThreadTransfer* counted = nullptr;
        for (const trace::ThreadTransfer& x : threads[t].transfers) {
            const bool collective = x.kind == trace::ThreadTransfer::Kind::Collective;
            if (collective && !trace::is_program_collective(x.op)) continue;
            CommOperationStats& s = entry(x.comm, x.cnode);
            if (!counted || counted->cnode != x.cnode || counted->call_enter != x.call_enter) {
                counted = &x;
                s.calls += 1;
                s.time += x.call_leave - x.call_enter;
                if (!collective || first.is_first(x.comm)) s.operations += 1;
            }
            s.bytes_sent += x.sent;
            s.bytes_received += x.received;
        }
    }
    // The collective operations a worker of some member made: the master's
    // parts left the store, and every part has its wait.
    const std::vector<CollectivePartWait> part_waits = thread_collective_waits(trace);
    for (std::size_t i = 0; i < part_waits.size(); ++i) {
        const trace::ThreadCollectivePart& part = trace.threads.collective_parts[i];
        if (!trace::is_program_collective(part.op)) continue;
        CommOperationStats& s = entry(part.comm, part.cnode);
        if (part.thread == 0) {
            s.calls += 1;
            s.time += part.end - part.call_enter;
            if (first.is_first(part.comm)) s.operations += 1;
            s.bytes_sent += part.sent;
            s.bytes_received += part.received;
        }
        s.waiting += part_waits[i].timing.wait;
    }
    if (trace.threads.paired.empty()) return;
    // The master's calls the store's messages counted, by entry and path.
    std::set<std::pair<Ticks, CallPathId>> in_store;
    for (const trace::Message& m : trace.messages)
        if (m.call_enter != trace::kNoEvent)
            in_store.insert({trace.events[m.call_enter].time, trace.events[m.call_enter].cnode});
    const std::vector<MessageWait> waits = thread_message_waits(trace);
    for (std::size_t i = 0; i < waits.size(); ++i) {
        const trace::ThreadPairedMessage& m = trace.threads.paired[i];
        CommOperationStats& s = entry(m.comm, m.cnode);
        if (m.thread == 0 && in_store.insert({m.call_enter, m.cnode}).second) {
            s.calls += 1;
            s.time += m.call_leave - m.call_enter;
            s.operations += 1;
        }
        if (m.thread == 0) (m.send ? s.bytes_sent : s.bytes_received) += m.bytes;
        s.waiting += waits[i].ticks;
    }
}

}  // namespace

CommunicatorProfile communicator_profile(const trace::LocalTrace& trace, const trace::MessageSlots& slots,
                                         const WaitStateMap& waits) {
    std::map<Key, CommOperationStats> table;
    FirstMembers first(trace);
    // Programs alternate between a few operations on a few communicators:
    // a small direct-mapped cache answers nearly every lookup (map entries
    // stay where they are).
    struct Cached {
        Key key{kNoId, kNoId};
        CommOperationStats* stats = nullptr;
    };
    std::array<Cached, 16> cache{};
    const auto entry_of = [&](CommId comm, CallPathId call) -> CommOperationStats& {
        const Key key{comm, trace.call_tree.node(call).region};
        Cached& cached = cache[(key.first * 31u + key.second) % cache.size()];
        if (cached.stats && cached.key == key) return *cached.stats;
        CommOperationStats& s = table[key];
        s.comm = key.first;
        s.region = key.second;
        cached = {key, &s};
        return s;
    };
    const auto entry = [&](CommId comm, trace::EventIndex call_enter) -> CommOperationStats& {
        return entry_of(comm, trace.events[call_enter].cnode);
    };
    // A call counts once, at its first communication event; the events of
    // one call follow each other in the message and collective tables
    // alike, and no call holds both messages and a collective.
    trace::EventIndex counted_call = trace::kNoEvent, counted_completion = trace::kNoEvent;
    const auto count_call = [&](CommOperationStats& s, trace::EventIndex call, bool is_operation) {
        if (call == counted_call) return;
        counted_call = call;
        const trace::Event& enter = trace.events[call];
        s.calls += 1;
        s.time += trace.events[enter.ref].time - enter.time;
        if (is_operation) s.operations += 1;
    };

    for (std::uint32_t m = 0; m < trace.messages.size(); ++m) {
        const trace::Message& message = trace.messages[m];
        if (message.call_enter == trace::kNoEvent) continue;
        CommOperationStats& s = entry(message.comm, message.call_enter);
        count_call(s, message.call_enter, true);
        (slots.is_send(m) ? s.bytes_sent : s.bytes_received) += message.bytes;
        if (const WaitState* wait = waits.find_message(m)) s.waiting += wait->waiting;
    }
    for (std::uint32_t c = 0; c < trace.collectives.size(); ++c) {
        const trace::Collective& collective = trace.collectives[c];
        if (!trace::is_program_collective(collective.op) || collective.call_enter == trace::kNoEvent) continue;
        // A non-blocking operation counts with the call that started it
        // (MPI_Iallreduce, ...), and so do its waiting and the time of the
        // call that completed it (once per call: MPI_Waitall may complete
        // several).
        const bool started_apart = collective.starting_call != trace::kNoEvent;
        const trace::EventIndex call = started_apart ? collective.starting_call : collective.call_enter;
        CommOperationStats& s = entry(collective.comm, call);
        count_call(s, call, first.is_first(collective.comm));
        if (started_apart && collective.call_enter != counted_completion) {
            counted_completion = collective.call_enter;
            const trace::Event& enter = trace.events[collective.call_enter];
            s.time += trace.events[enter.ref].time - enter.time;
        }
        s.bytes_sent += collective.bytes_sent;
        s.bytes_received += collective.bytes_received;
        if (const WaitState* wait = waits.find_collective(c)) s.waiting += wait->waiting;
    }

    add_thread_operations(trace, first, entry_of);

    CommunicatorProfile profile;
    profile.reserve(table.size());
    for (const auto& [key, stats] : table) profile.push_back(stats);
    return profile;
}

void merge_into(CommunicatorProfile& total, const CommunicatorProfile& part) {
    const auto key = [](const CommOperationStats& s) { return Key{s.comm, s.region}; };
    CommunicatorProfile merged;
    merged.reserve(total.size() + part.size());
    auto a = total.begin();
    auto b = part.begin();
    while (a != total.end() || b != part.end()) {
        if (b == part.end() || (a != total.end() && key(*a) < key(*b))) {
            merged.push_back(*a++);
        } else if (a == total.end() || key(*b) < key(*a)) {
            merged.push_back(*b++);
        } else {
            CommOperationStats s = *a++;
            const CommOperationStats& o = *b++;
            s.operations += o.operations;
            s.calls += o.calls;
            s.time += o.time;
            s.waiting += o.waiting;
            s.bytes_sent += o.bytes_sent;
            s.bytes_received += o.bytes_received;
            merged.push_back(s);
        }
    }
    total = std::move(merged);
}

}  // namespace hindsight::analyses
