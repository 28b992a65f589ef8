#include "replay/thread_collective_pairing.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <numeric>
#include <tuple>
#include <utility>
#include <vector>

#include "replay/list_exchange.hpp"

namespace hindsight::replay {
namespace {

// One of this rank's collectives on a communicator.
struct Operation {
    Ticks time = 0;            // when its call ended
    std::uint32_t thread = 0;  // 0: the master, `index` into trace.collectives; else into its transfers
    std::uint32_t index = 0;
    auto order() const { return std::tie(time, thread, index); }
};

// A position of a communicator's collective sequence that a worker holds.
struct WorkerPosition {
    CommId comm = kNoId;
    std::uint32_t position = 0;
};

// Every rank's positions, gathered (small: worker collectives are few).
std::vector<WorkerPosition> gather(const std::vector<WorkerPosition>& own, MPI_Comm world, ProgressWatch& watch) {
    int size = 0;
    MPI_Comm_size(world, &size);
    constexpr int kFields = 2;
    std::vector<int> counts(static_cast<std::size_t>(size)), offsets(static_cast<std::size_t>(size));
    int mine = static_cast<int>(own.size()) * kFields;
    watch.complete("the worker threads' collectives of all ranks", [&](auto& r) {
        MPI_Iallgather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, world, &r[0]);
    });
    std::exclusive_scan(counts.begin(), counts.end(), offsets.begin(), 0);
    std::vector<std::uint32_t> out;
    for (const WorkerPosition& p : own) out.insert(out.end(), {p.comm, p.position});
    // One element more: MPICH wants distinct buffers even when empty.
    std::vector<std::uint32_t> all(static_cast<std::size_t>(offsets.back() + counts.back()) + 1);
    out.push_back(0);
    watch.complete("the worker threads' collectives of all ranks", [&](auto& r) {
        MPI_Iallgatherv(out.data(), mine, MPI_UINT32_T, all.data(), counts.data(), offsets.data(), MPI_UINT32_T,
                        world, &r[0]);
    });
    std::vector<WorkerPosition> positions;
    for (std::size_t i = 0; i + kFields <= all.size() - 1; i += kFields) positions.push_back({all[i], all[i + 1]});
    return positions;
}

// This rank's collectives on each communicator `sequences` names (its
// keys), all threads' merged in time order.
using Sequences = std::map<CommId, std::vector<Operation>>;
void fill(const trace::LocalTrace& trace, Sequences& sequences) {
    const auto& threads = trace.threads.threads;
    for (std::uint32_t t = 1; t < threads.size(); ++t)
        for (std::uint32_t i = 0; i < threads[t].transfers.size(); ++i) {
            const trace::ThreadTransfer& x = threads[t].transfers[i];
            if (const auto found = sequences.find(x.comm);
                found != sequences.end() && x.kind == trace::ThreadTransfer::Kind::Collective)
                found->second.push_back({x.time, t, i});
        }
    for (std::uint32_t c = 0; c < trace.collectives.size(); ++c) {
        const trace::Collective& coll = trace.collectives[c];
        const auto found = sequences.find(coll.comm);
        if (found == sequences.end() || coll.call_enter == trace::kNoEvent) continue;
        found->second.push_back({trace.events[trace.events[coll.call_enter].ref].time, 0, c});
    }
    for (auto& [comm, operations] : sequences)
        std::sort(operations.begin(), operations.end(),
                  [](const Operation& a, const Operation& b) { return a.order() < b.order(); });
}

// This rank's part in the operation `o`.
trace::ThreadCollectivePart part_of(const trace::LocalTrace& trace, const Operation& o) {
    trace::ThreadCollectivePart part;
    part.thread = o.thread;
    if (o.thread == 0) {
        const trace::Collective& c = trace.collectives[o.index];
        const trace::Event& enter = trace.events[c.call_enter];
        part.cnode = enter.cnode;
        part.comm = c.comm;
        part.op = c.op;
        part.root = c.root;
        part.call_enter = enter.time;
        part.arrival = c.begin != trace::Collective::kNoBegin ? c.begin : enter.time;
        part.end = trace.events[enter.ref].time;
        part.sent = c.bytes_sent;
        part.received = c.bytes_received;
    } else {
        const trace::ThreadTransfer& x = trace.threads.threads[o.thread].transfers[o.index];
        part.cnode = x.cnode;
        part.comm = x.comm;
        part.op = x.op;
        part.root = x.root;
        part.call_enter = x.call_enter;
        part.arrival = x.begin != trace::Collective::kNoBegin ? x.begin : x.call_enter;
        part.end = x.call_leave;
        part.sent = x.sent;
        part.received = x.received;
    }
    return part;
}

// What a member tells the others of its part at one position.
struct PartNote {
    trace::CollectiveMemberPart part;
    Ticks end = 0;
    CommId comm = kNoId;
    std::uint32_t position = 0;
    std::int32_t member = -1;  // its rank in the communicator
};

// Keeps `arrival` of `member` in (latest, whose) if it is later, or as late
// and the lower member (as the replay's reductions pick them).
void keep_latest(Ticks arrival, std::int32_t member, Ticks& latest, std::int32_t& whose) {
    if (whose < 0 || arrival > latest || (arrival == latest && member < whose)) {
        latest = arrival;
        whose = member;
    }
}

// Every member of each part's communicator learns every other's arrival
// and end; each part keeps the latest arrival and the earliest end, and
// what the rooted and prefix shapes wait for (trace::ThreadCollectivePart).
using Parts = std::map<std::pair<CommId, std::uint32_t>, trace::ThreadCollectivePart>;
void tell_members(const trace::LocalTrace& trace, Parts& parts, MPI_Comm world, ProgressWatch& watch) {
    int size = 0;
    MPI_Comm_size(world, &size);
    std::vector<std::vector<PartNote>> outgoing(static_cast<std::size_t>(size));
    for (const auto& [key, part] : parts) {
        const std::vector<int> members = trace.definitions.world_ranks(key.first);
        const auto me = std::find(members.begin(), members.end(), trace.rank);
        if (me == members.end()) continue;
        const auto member = static_cast<std::int32_t>(me - members.begin());
        const trace::CollectiveMemberPart told{part.op,           part.root,   part.thread,
                                               part.arrival,      std::max(part.arrival, part.call_enter),
                                               part.sent > 0,     part.received > 0};
        const PartNote note{told, part.end, key.first, key.second, member};
        for (const int m : members)
            if (m >= 0 && m < size) outgoing[static_cast<std::size_t>(m)].push_back(note);
    }
    for (auto& [key, part] : parts) {
        part.last_arrival = part.arrival;
        part.first_end = part.end;
        const std::vector<int> members = trace.definitions.world_ranks(key.first);
        const auto me = std::find(members.begin(), members.end(), trace.rank);
        part.member = me == members.end() ? -1 : static_cast<std::int32_t>(me - members.begin());
        part.position = key.second;
        part.members.assign(members.size(), {});
    }
    const std::vector<std::vector<PartNote>> received = exchange_lists(outgoing, world, watch);
    const auto part_of_note = [&](const PartNote& n) -> trace::ThreadCollectivePart* {
        const auto found = parts.find({n.comm, n.position});
        return found == parts.end() ? nullptr : &found->second;
    };
    for (const std::vector<PartNote>& notes : received)
        for (const PartNote& n : notes) {
            trace::ThreadCollectivePart* part = part_of_note(n);
            if (!part) continue;
            if (n.member >= 0 && static_cast<std::size_t>(n.member) < part->members.size())
                part->members[static_cast<std::size_t>(n.member)] = n.part;
            const Ticks arrival = n.part.arrival;
            keep_latest(arrival, n.member, part->last_arrival, part->last_member);
            part->first_end = std::min(part->first_end, n.end);
            if (n.member == part->root) {
                part->root_known = true;
                part->root_sent = n.part.sent;
                part->root_arrival = arrival;
            }
            if (!n.part.sent) continue;
            keep_latest(arrival, n.member, part->last_sender_arrival, part->last_sender);
            if (n.member <= part->member)
                keep_latest(arrival, n.member, part->last_lower_sender_arrival, part->last_lower_sender);
        }
    // Once the last sender is known: which members synchronized with it,
    // should not all have met (thread_collective_waits.hpp).
    for (auto& [key, part] : parts) part.first_synchronized_end = std::numeric_limits<Ticks>::max();
    for (const std::vector<PartNote>& notes : received)
        for (const PartNote& n : notes) {
            trace::ThreadCollectivePart* part = part_of_note(n);
            if (!part || part->last_sender < 0) continue;
            const bool synchronized = (n.part.received && n.part.arrival < part->last_sender_arrival) ||
                                      (n.part.sent && n.member == part->last_sender);
            if (synchronized) part->first_synchronized_end = std::min(part->first_synchronized_end, n.end);
        }
}

}  // namespace

std::vector<bool> leave_out_worker_collectives(trace::LocalTrace& trace, MPI_Comm world, ProgressWatch& watch) {
    Sequences own_comms;
    for (std::uint32_t t = 1; t < trace.threads.threads.size(); ++t)
        for (const trace::ThreadTransfer& x : trace.threads.threads[t].transfers)
            if (x.kind == trace::ThreadTransfer::Kind::Collective) own_comms[x.comm];
    fill(trace, own_comms);
    std::vector<WorkerPosition> own;
    for (const auto& [comm, operations] : own_comms)
        for (std::uint32_t k = 0; k < operations.size(); ++k)
            if (operations[k].thread != 0) own.push_back({comm, k});
    std::vector<bool> leave(trace.collectives.size(), false);
    const std::vector<WorkerPosition> all = gather(own, world, watch);
    if (all.empty()) return leave;
    Sequences concerned;
    for (const WorkerPosition& p : all) concerned[p.comm];
    fill(trace, concerned);
    // This rank's part at each position: out of the store if the master's.
    Parts parts;
    for (const WorkerPosition& p : all) {
        const std::vector<Operation>& operations = concerned[p.comm];
        if (p.position >= operations.size() || parts.contains({p.comm, p.position})) continue;
        const Operation& o = operations[p.position];
        if (o.thread == 0) leave[o.index] = true;
        parts[{p.comm, p.position}] = part_of(trace, o);
    }
    tell_members(trace, parts, world, watch);
    for (auto& [key, part] : parts) trace.threads.collective_parts.push_back(part);
    return leave;
}

}  // namespace hindsight::replay
