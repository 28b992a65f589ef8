#include "replay/pairing.hpp"

#include <algorithm>
#include <cstdint>

#include "trace/leave_out.hpp"
#include "replay/collective_pairing.hpp"
#include "replay/list_exchange.hpp"
#include "replay/message_order.hpp"
#include "replay/rank_agreement.hpp"
#include "replay/stream_pairing.hpp"
#include "replay/thread_collective_pairing.hpp"
#include "replay/thread_message_pairing.hpp"

namespace hindsight::replay {
namespace {

// How often the message order is checked before the messages between two
// ranks still caught are all left out. One check finds every caught
// message (message_order.hpp); the next ones only make sure.
constexpr int kOrderChecks = 3;
// Told to a peer instead of slots: every message between the two goes.
constexpr std::uint32_t kAllMessages = 0xffffffffu;

std::string rank_name(int r) { return "rank " + std::to_string(r); }

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

// Leaves out what is marked, if anything, and numbers the messages anew.
void leave_out(trace::LocalTrace& trace, trace::MessageSlots& slots, const std::vector<bool>& messages,
               const std::vector<bool>& collectives) {
    const auto any = [](const std::vector<bool>& flags) { return std::find(flags.begin(), flags.end(), true) != flags.end(); };
    if (!any(messages) && !any(collectives)) return;
    trace::leave_out(trace, messages, collectives);
    slots = trace::MessageSlots(trace);
}

bool listed(const std::vector<std::uint32_t>& slots, std::uint32_t slot) {
    return (slots.size() == 1 && slots[0] == kAllMessages) || std::binary_search(slots.begin(), slots.end(), slot);
}

// Leaves out the messages caught in an impossible order until none are.
void pair_message_order(trace::LocalTrace& trace, trace::MessageSlots& slots, MPI_Comm world, ProgressWatch& watch,
                        UnpairedTally& found) {
    for (int check = 1;; ++check) {
        std::vector<std::vector<std::uint32_t>> caught = find_impossible_order(trace, slots, world, watch);
        std::uint64_t total = 0;
        for (const auto& c : caught) total += c.size();
        watch.complete("the message order of all ranks", [&](auto& r) {
            MPI_Iallreduce(MPI_IN_PLACE, &total, 1, MPI_UINT64_T, MPI_SUM, world, &r[0]);
        });
        if (total == 0) return;
        if (check == kOrderChecks)
            for (auto& c : caught)
                if (!c.empty()) c.assign(1, kAllMessages);
        // The checking rank leaves out its receives (caught[peer]); the
        // peer, told, the sends of the same slots.
        const std::vector<std::vector<std::uint32_t>> told = exchange_lists(caught, world, watch);
        std::vector<bool> leave(trace.messages.size(), false);
        for (std::uint32_t m = 0; m < trace.messages.size(); ++m) {
            const auto peer = static_cast<std::size_t>(slots.peer(m));
            const bool send = slots.is_send(m);
            const bool all = listed(caught[peer], kAllMessages) || listed(told[peer], kAllMessages);
            if (!all && !listed(send ? told[peer] : caught[peer], slots.slot(m))) continue;
            leave[m] = true;
            if (!send)
                found.add(Unpairing::ImpossibleOrder, slots.peer(m), trace.rank, kNoId,
                          trace.events[slots.event(m)].cnode);
        }
        leave_out(trace, slots, leave, {});
        if (check == kOrderChecks) return;
    }
}

}  // namespace

Pairing pair_traces(trace::LocalTrace& trace, trace::MessageSlots& slots, MPI_Comm world, ProgressWatch& watch) {
    Pairing result;
    int world_size = 0;
    MPI_Comm_size(world, &world_size);
    if (slots.sends().size() != static_cast<std::size_t>(world_size)) {
        result.problem = "the trace has " + std::to_string(slots.sends().size()) + " MPI ranks, the analysis " +
                         std::to_string(world_size);
        return result;  // every rank reads the same definitions
    }
    result.problem = agree_on_problem(world, check_program_start(trace, world, watch), watch);
    if (result.problem) return result;

    UnpairedTally found;
    // What worker threads took part in first: the master's messages paired
    // with a worker's leave the store, so that the masters' streams pair
    // alone, and so do the master's collectives where another member's
    // worker made its part, so that the others of their communicators agree.
    const std::vector<bool> with_workers = pair_thread_messages(trace, slots, world, watch, found);
    leave_out(trace, slots, with_workers, leave_out_worker_collectives(trace, world, watch));
    std::vector<bool> messages;
    pair_streams(trace, slots, world, watch, messages, found);
    const std::vector<bool> collectives = pair_collectives(trace, world, watch, found);
    leave_out(trace, slots, messages, collectives);
    pair_message_order(trace, slots, world, watch, found);
    result.unpaired = found.records();
    return result;
}

}  // namespace hindsight::replay
