#include "replay/thread_collective_pairing.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <tuple>
#include <vector>

namespace hindsight::replay {
namespace {

// One of this rank's collectives on a communicator.
struct Operation {
    Ticks time = 0;            // when its call ended
    std::uint32_t thread = 0;  // 0: the master, `index` into trace.collectives
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
        for (const trace::ThreadTransfer& x : threads[t].transfers)
            if (const auto found = sequences.find(x.comm);
                found != sequences.end() && x.kind == trace::ThreadTransfer::Kind::Collective)
                found->second.push_back({x.time, t, 0});
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

}  // namespace

std::vector<bool> leave_out_worker_collectives(const trace::LocalTrace& trace, MPI_Comm world,
                                               ProgressWatch& watch) {
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
    for (const WorkerPosition& p : all) {
        const std::vector<Operation>& operations = concerned[p.comm];
        if (p.position < operations.size() && operations[p.position].thread == 0)
            leave[operations[p.position].index] = true;
    }
    return leave;
}

}  // namespace hindsight::replay
