#include "analyses/communicator_profile.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace hindsight::analyses {
namespace {

using trace::EventKind;
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

bool is_program_operation(const trace::Collective& c) {
    return c.op != trace::CollectiveOp::Init && c.op != trace::CollectiveOp::Finalize;
}

}  // namespace

CommunicatorProfile communicator_profile(const trace::LocalTrace& trace, const WaitStateMap& waits) {
    std::map<Key, CommOperationStats> table;
    FirstMembers first(trace);
    // Programs call the same operation on the same communicator many times
    // in a row: the last entry answers without a lookup (map entries stay
    // where they are).
    Key last{kNoId, kNoId};
    CommOperationStats* last_entry = nullptr;
    const auto entry = [&](CommId comm, trace::EventIndex call_enter) -> CommOperationStats& {
        const Key key{comm, trace.call_tree.node(trace.events[call_enter].cnode).region};
        if (last_entry && key == last) return *last_entry;
        CommOperationStats& s = table[key];
        s.comm = key.first;
        s.region = key.second;
        last = key;
        last_entry = &s;
        return s;
    };

    trace::EventIndex counted_call = trace::kNoEvent;
    for (trace::EventIndex i = 0; i < trace.events.size(); ++i) {
        const trace::Event& e = trace.events[i];
        if (e.kind != EventKind::Send && e.kind != EventKind::Recv && e.kind != EventKind::CollectiveEnd) continue;
        const bool collective = e.kind == EventKind::CollectiveEnd;
        if (collective && !is_program_operation(trace.collective(e))) continue;
        const CommId comm = collective ? trace.collective(e).comm : trace.message(e).comm;
        const trace::EventIndex call = collective ? trace.collective(e).call_enter : trace.message(e).call_enter;
        if (call == trace::kNoEvent) continue;
        CommOperationStats& s = entry(comm, call);
        if (call != counted_call) {
            counted_call = call;
            const trace::Event& enter = trace.events[call];
            s.calls += 1;
            s.time += trace.events[enter.ref].time - enter.time;
            if (!collective || first.is_first(comm)) s.operations += 1;
        }
        if (collective) {
            s.bytes_sent += trace.collective(e).bytes_sent;
            s.bytes_received += trace.collective(e).bytes_received;
        } else if (e.kind == EventKind::Send) {
            s.bytes_sent += trace.message(e).bytes;
        } else {
            s.bytes_received += trace.message(e).bytes;
        }
        if (const WaitState* wait = waits.find(i)) s.waiting += wait->waiting;
    }
    for (const trace::Collective& c : trace.nonblocking_collectives) {
        if (c.call_enter == trace::kNoEvent) continue;
        CommOperationStats& s = entry(c.comm, c.call_enter);
        s.calls += 1;
        if (first.is_first(c.comm)) s.operations += 1;
        s.bytes_sent += c.bytes_sent;
        s.bytes_received += c.bytes_received;
    }

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
