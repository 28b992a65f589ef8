// The event store's side of one-sided communication: what each RMA record
// of a rank becomes (trace/rma_events.hpp lists how Score-P records them).
#include "trace/rma_events.hpp"

#include <string>
#include <utility>

#include "trace/otf2_enums.hpp"

namespace hindsight::trace {

std::optional<CommId> EventStoreBuilder::rma_window_comm(OTF2_RmaWinRef win, Ticks time) {
    const std::optional<CommId> comm = defs_.rma_win_comm(win);
    if (comm && member_of_[*comm]) return comm;
    rma_.windowless.add("window " + std::to_string(win) + " " + where(time));
    return std::nullopt;
}

void EventStoreBuilder::rma_collective_begin(std::uint64_t time) {
    const Ticks t = corrected(time, "RMA_COLLECTIVE_BEGIN");
    rma_.collective_begin = t;
    rma_.collective_begin_call = open_call();
}

void EventStoreBuilder::rma_collective_end(std::uint64_t time, OTF2_CollectiveOp op, OTF2_RmaWinRef win) {
    const Ticks t = corrected(time, "RMA_COLLECTIVE_END");
    // Begin and end pair within one call; a begin of another call lost its
    // end, and this end its begin (then the operation began at the entry).
    const Ticks begin = rma_.collective_begin_call == open_call() ? rma_.collective_begin : Collective::kNoBegin;
    rma_.collective_begin = Collective::kNoBegin;
    rma_.collective_begin_call = kNoEvent;
    if (open_.empty()) [[unlikely]] {
        rma_.outside.add("RMA_COLLECTIVE_END " + where(t));
        return;
    }
    const std::optional<CollectiveOp> operation = rma_window_operation(op);
    const std::optional<CommId> comm = rma_window_comm(win, t);
    if (!operation || !comm) return;
    Collective c{*comm, -1, 0, 0, open_call(), *operation};
    c.begin = begin;
    push_collective(t, c);
    if (*operation == CollectiveOp::RmaFence) trace_.rma.fences.push_back({win, open_call()});
}

void EventStoreBuilder::rma_group_sync(std::uint64_t time, OTF2_RmaSyncLevel level, OTF2_RmaWinRef win,
                                       OTF2_GroupRef group) {
    const Ticks t = corrected(time, "RMA_GROUP_SYNC");
    if (open_.empty()) [[unlikely]] {
        rma_.outside.add("RMA_GROUP_SYNC " + where(t));
        return;
    }
    if (!rma_window_comm(win, t)) return;
    const auto index = defs_.group_ids.find(group);
    trace_.rma.group_syncs.push_back(
        {win, t, open_call(), index ? static_cast<GroupId>(*index) : kNoId, static_cast<std::uint8_t>(level)});
}

void EventStoreBuilder::rma_lock(std::uint64_t time, RmaLockAction action, OTF2_RmaWinRef win, std::uint32_t remote,
                                 std::uint64_t lock_id, bool exclusive) {
    const Ticks t = corrected(time, "RMA lock record");
    if (open_.empty()) [[unlikely]] {
        rma_.outside.add("RMA lock record " + where(t));
        return;
    }
    const std::optional<CommId> comm = rma_window_comm(win, t);
    if (!comm) return;
    trace_.rma.locks.push_back({win, lock_id, t, open_call(), remote, *comm, action, exclusive});
}

void EventStoreBuilder::rma_transfer(std::uint64_t time, RmaTransferKind kind, OTF2_RmaWinRef win,
                                     std::uint32_t remote, std::uint64_t sent, std::uint64_t received,
                                     std::uint64_t matching_id) {
    const Ticks t = corrected(time, "RMA transfer record");
    if (open_.empty()) [[unlikely]] {
        rma_.outside.add("RMA transfer record " + where(t));
        return;
    }
    const std::optional<CommId> comm = rma_window_comm(win, t);
    if (!comm) return;
    RmaTransfer transfer;
    transfer.window = win;
    transfer.comm = *comm;
    transfer.matching_id = matching_id;
    transfer.bytes_sent = sent;
    transfer.bytes_received = received;
    transfer.issued = t;
    transfer.call_enter = open_call();
    transfer.remote = remote;
    transfer.kind = kind;
    // A later transfer with the same ids replaces one never completed.
    rma_.open_transfers[{win, matching_id}] = trace_.rma.transfers.size();
    trace_.rma.transfers.push_back(transfer);
}

void EventStoreBuilder::rma_op_complete(std::uint64_t time, OTF2_RmaWinRef win, std::uint64_t matching_id,
                                        const char* record, bool at_target) {
    const Ticks t = corrected(time, record);
    const auto open = rma_.open_transfers.find({win, matching_id});
    if (open == rma_.open_transfers.end()) [[unlikely]] {
        rma_.unissued.add("window " + std::to_string(win) + ", matching id " + std::to_string(matching_id) + " " +
                          where(t));
        return;
    }
    RmaTransfer& transfer = trace_.rma.transfers[open->second];
    transfer.completed = t;
    transfer.completing_call = open_call();
    // A completion at the origin stands until the one at the target comes
    // (a trace may lack it); that one closes the transfer.
    if (at_target) rma_.open_transfers.erase(open);
}

void EventStoreBuilder::rma_record(std::uint64_t time, const char* record) { (void)corrected(time, record); }

void EventStoreBuilder::note_rma_damage() {
    const auto note = [&](const DamageTally& tally, const std::string& what, const std::string& treatment) {
        tally.note(trace_.rank, what, treatment, stats.damage);
    };
    note(rma_.windowless, "RMA records of windows the trace does not define on a communicator of this rank",
         "their synchronization and transfers are left out");
    note(rma_.unissued, "RMA operation completions of transfers no RMA_PUT, RMA_GET or RMA_ATOMIC issued",
         "ignored");
    note(rma_.outside, "RMA records outside any region", "left out");
}

}  // namespace hindsight::trace
