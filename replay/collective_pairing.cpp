#include "replay/collective_pairing.hpp"

#include <cstdint>
#include <limits>

#include "trace/checksum.hpp"
#include "trace/comm_layout.hpp"

namespace hindsight::replay {

std::vector<bool> pair_collectives(const trace::LocalTrace& trace, MPI_Comm world, ProgressWatch& watch,
                                   UnpairedTally& found) {
    const std::size_t comms = trace.definitions.communicators.size();
    std::vector<std::uint64_t> count(comms, 0), sequence(comms, 0);
    // The collective table is in event order.
    for (const trace::Collective& c : trace.collectives) {
        count[c.comm] += 1;
        // Order-dependent: the sequence must agree, not only the set; and
        // non-blocking operations must complete in the same order everywhere,
        // or the replay would pair one rank's operation with another's.
        sequence[c.comm] = trace::mix(sequence[c.comm] ^ ((static_cast<std::uint64_t>(c.op) << 32) |
                                                          static_cast<std::uint32_t>(c.root + 1)));
        sequence[c.comm] = trace::mix(sequence[c.comm] ^ ((static_cast<std::uint64_t>(c.nonblocking) << 32) |
                                                          c.started_as));
    }
    // Minimum and maximum over the members of each communicator, with a
    // rank holding each; non-members contribute neutral elements.
    struct Ranked {
        double value;
        int rank;
    };
    std::vector<Ranked> low(comms), high(comms);
    std::vector<std::uint64_t> seq_low(comms), seq_high(comms);
    for (CommId c = 0; c < comms; ++c) {
        const trace::CommLayout layout = trace::comm_layout(trace.definitions, c);
        const bool member = layout.valid && layout.rank_of(trace.rank) >= 0 && !layout.self;
        const double value = static_cast<double>(count[c]);
        low[c] = {member ? value : std::numeric_limits<double>::infinity(), trace.rank};
        high[c] = {member ? value : -1.0, trace.rank};
        // 63 bits: MPICH 4.0 reduces MPI_UINT64_T values with the top bit
        // set as if they were signed.
        const std::uint64_t seq = sequence[c] >> 1;
        seq_low[c] = member ? seq : std::numeric_limits<std::int64_t>::max();
        seq_high[c] = member ? seq : 0;
    }
    const int n = static_cast<int>(comms);
    watch.complete<4>("the collective tallies of all ranks", [&](auto& r) {
        MPI_Iallreduce(MPI_IN_PLACE, low.data(), n, MPI_DOUBLE_INT, MPI_MINLOC, world, &r[0]);
        MPI_Iallreduce(MPI_IN_PLACE, high.data(), n, MPI_DOUBLE_INT, MPI_MAXLOC, world, &r[1]);
        MPI_Iallreduce(MPI_IN_PLACE, seq_low.data(), n, MPI_UINT64_T, MPI_MIN, world, &r[2]);
        MPI_Iallreduce(MPI_IN_PLACE, seq_high.data(), n, MPI_UINT64_T, MPI_MAX, world, &r[3]);
    });
    // A communicator without members (unused) has high -1 and low infinity.
    std::vector<bool> disagree(comms, false);
    for (std::size_t c = 0; c < comms; ++c)
        disagree[c] = high[c].value >= 0 && (low[c].value != high[c].value || seq_low[c] != seq_high[c]);

    std::vector<bool> leave(trace.collectives.size(), false);
    for (std::size_t i = 0; i < trace.collectives.size(); ++i) {
        const trace::Collective& c = trace.collectives[i];
        if (!disagree[c.comm]) continue;
        leave[i] = true;
        const CallPathId cnode = c.call_enter == trace::kNoEvent ? kNoCallPath : trace.events[c.call_enter].cnode;
        found.add(Unpairing::Collectives, high[c.comm].rank, low[c.comm].rank, c.comm, cnode);
    }
    return leave;
}

}  // namespace hindsight::replay
