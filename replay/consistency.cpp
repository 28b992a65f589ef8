#include "replay/consistency.hpp"

#include <limits>
#include <vector>

#include "trace/checksum.hpp"
#include "trace/comm_layout.hpp"
#include "replay/message_order.hpp"
#include "replay/rank_agreement.hpp"

namespace hindsight::replay {
namespace {

// Per world rank: how many messages, and their checksum (message_slots.hpp).
struct PeerTally {
    std::vector<std::uint64_t> count;
    std::vector<std::uint64_t> checksum;
    explicit PeerTally(std::size_t ranks) : count(ranks, 0), checksum(ranks, 0) {}
    PeerTally(const std::vector<std::uint32_t>& counts, const std::vector<std::uint64_t>& checksums)
        : count(counts.begin(), counts.end()), checksum(checksums) {}
};

std::string rank_name(int r) { return "rank " + std::to_string(r); }

std::optional<std::string> check_messages(const trace::LocalTrace& trace, const trace::MessageSlots& slots, MPI_Comm world,
                                          ProgressWatch& watch) {
    const PeerTally sent(slots.sends(), slots.send_checksums());
    const PeerTally received(slots.receives(), slots.receive_checksums());
    const std::size_t n = sent.count.size();
    int world_size = 0;
    MPI_Comm_size(world, &world_size);
    if (n != static_cast<std::size_t>(world_size))
        return "the trace has " + std::to_string(n) + " MPI ranks, the analysis " + std::to_string(world_size);
    // incoming[p]: what rank p says it sent to this rank.
    PeerTally incoming(n);
    watch.complete<2>("the message tallies of all ranks", [&](auto& r) {
        MPI_Ialltoall(sent.count.data(), 1, MPI_UINT64_T, incoming.count.data(), 1, MPI_UINT64_T, world, &r[0]);
        MPI_Ialltoall(sent.checksum.data(), 1, MPI_UINT64_T, incoming.checksum.data(), 1, MPI_UINT64_T, world,
                      &r[1]);
    });

    std::optional<std::string> problem;
    for (std::size_t p = 0; p < n && !problem; ++p) {
        const auto from = rank_name(static_cast<int>(p)), to = rank_name(trace.rank);
        if (incoming.count[p] > received.count[p]) {
            problem = std::to_string(incoming.count[p] - received.count[p]) + " messages from " + from + " to " + to +
                      " have no matching receive";
        } else if (incoming.count[p] < received.count[p]) {
            problem = std::to_string(received.count[p] - incoming.count[p]) + " receives of " + to + " from " + from +
                      " have no matching send";
        } else if (incoming.checksum[p] != received.checksum[p]) {
            problem = "messages from " + from + " to " + to +
                      " differ between sender and receiver in communicator, tag or size";
        }
    }
    return agree_on_problem(world, problem, watch);
}

std::optional<std::string> check_collectives(const trace::LocalTrace& trace, const std::vector<trace::CommLayout>& layouts,
                                             MPI_Comm world, ProgressWatch& watch) {
    const std::size_t comms = layouts.size();
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
    for (std::size_t c = 0; c < comms; ++c) {
        const bool member = layouts[c].valid && layouts[c].rank_of(trace.rank) >= 0 && !layouts[c].self;
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
    for (std::size_t c = 0; c < comms; ++c) {
        const std::string name = trace.definitions.comm_display_name(static_cast<CommId>(c));
        if (high[c].value < 0) continue;  // no members (unused)
        if (low[c].value != high[c].value)
            return name + ": " + rank_name(high[c].rank) + " records " +
                   std::to_string(static_cast<std::uint64_t>(high[c].value)) + " collective operations, " +
                   rank_name(low[c].rank) + " only " + std::to_string(static_cast<std::uint64_t>(low[c].value));
        if (seq_low[c] != seq_high[c])
            return name + ": the ranks record different sequences of collective operations (kind, root or "
                          "completion order differ)";
    }
    return std::nullopt;
}

// A rank whose PROGRAM_BEGIN names no region while another's names its
// program's region: the name (a string id, or the string mapping table of
// its local definitions) is damaged, and the rank's call tree would lack
// the root the others have. Ranks of different programs (MPMD) each name
// their own region and pass.
std::optional<std::string> check_program_start(const trace::LocalTrace& trace, MPI_Comm world,
                                               ProgressWatch& watch) {
    struct Ranked {
        int value;
        int rank;
    };
    Ranked low{static_cast<int>(trace.program_start), trace.rank}, high = low;
    watch.complete<2>("how all ranks began", [&](auto& r) {
        MPI_Iallreduce(MPI_IN_PLACE, &low, 1, MPI_2INT, MPI_MINLOC, world, &r[0]);
        MPI_Iallreduce(MPI_IN_PLACE, &high, 1, MPI_2INT, MPI_MAXLOC, world, &r[1]);
    });
    using Start = trace::LocalTrace::ProgramStart;
    if (low.value != static_cast<int>(Start::NoRegion) || high.value != static_cast<int>(Start::Region))
        return std::nullopt;
    return "the PROGRAM_BEGIN of " + rank_name(low.rank) + " names no region, that of " + rank_name(high.rank) +
           " its program's region (a damaged string id or string mapping table)";
}

}  // namespace

std::optional<std::string> check_consistency(const trace::LocalTrace& trace, const trace::MessageSlots& slots, MPI_Comm world,
                                             ProgressWatch& watch) {
    std::vector<trace::CommLayout> layouts;
    for (CommId c = 0; c < trace.definitions.communicators.size(); ++c)
        layouts.push_back(trace::comm_layout(trace.definitions, c));
    if (auto problem = check_program_start(trace, world, watch)) return problem;
    if (auto problem = check_messages(trace, slots, world, watch)) return problem;
    if (auto problem = agree_on_problem(world, find_message_order_cycle(trace, slots, world, watch), watch))
        return problem;
    return check_collectives(trace, layouts, world, watch);
}

}  // namespace hindsight::replay
