#include "analyses/communication/communication_matrix.hpp"

#include <map>

#include "analyses/patterns.hpp"

namespace hindsight::analyses {
namespace {

// World ranks of each communicator, looked up once per communicator.
class Members {
public:
    explicit Members(const Definitions& defs) : defs_(&defs), ranks_(defs.communicators.size()), known_(ranks_.size()) {}

    const std::vector<int>& of(CommId comm) {
        static const std::vector<int> none;
        if (comm >= ranks_.size()) return none;
        if (!known_[comm]) {
            ranks_[comm] = defs_->world_ranks(comm);
            known_[comm] = true;
        }
        return ranks_[comm];
    }

private:
    const Definitions* defs_;
    std::vector<std::vector<int>> ranks_;
    std::vector<bool> known_;
};

// The members a rank's collective bytes go to, in the model of traffic_row(),
// as the operation's row says (patterns.hpp).
std::vector<int> receivers(const trace::Collective& c, const std::vector<int>& members, int me) {
    switch (collective_op_info(c.op).receivers) {
    case Receivers::Members:
        return members;
    case Receivers::Root:
        if (c.root >= 0 && static_cast<std::size_t>(c.root) < members.size()) return {members[c.root]};
        return {};
    case Receivers::LaterMembers:
    case Receivers::LaterMembersAndSelf: {
        std::vector<int> after;
        bool seen = false;
        for (const int m : members) {
            if (seen) after.push_back(m);
            seen = seen || m == me;
        }
        // An inclusive scan keeps the rank's own share as well.
        if (collective_op_info(c.op).receivers == Receivers::LaterMembersAndSelf) after.push_back(me);
        return after;
    }
    case Receivers::Nobody:
        return {};
    }
    return {};  // not reached: every kind of receivers is handled above
}

}  // namespace

std::vector<TrafficCell> traffic_row(const trace::LocalTrace& trace, const trace::MessageSlots& slots) {
    std::map<int, TrafficCell> row;
    Members members(trace.definitions);
    // The last peer answers without a lookup (map entries stay in place).
    TrafficCell* last = nullptr;
    const auto cell = [&](int to) -> TrafficCell& {
        if (last && last->to == to) return *last;
        TrafficCell& c = row[to];
        c.from = trace.rank;
        c.to = to;
        last = &c;
        return c;
    };
    for (std::uint32_t k = 0; k < trace.messages.size(); ++k) {
        if (!slots.is_send(k)) continue;
        const trace::Message& m = trace.messages[k];
        const std::vector<int>& ranks = members.of(m.comm);
        if (m.partner < 0 || static_cast<std::size_t>(m.partner) >= ranks.size()) continue;
        TrafficCell& c = cell(ranks[static_cast<std::size_t>(m.partner)]);
        c.messages += 1;
        c.bytes += m.bytes;
    }
    // The messages with a worker thread on either side, which pairing
    // matched outside the store.
    for (const trace::ThreadPairedMessage& m : trace.threads.paired) {
        if (!m.send) continue;
        TrafficCell& c = cell(m.peer);
        c.messages += 1;
        c.bytes += m.bytes;
    }
    const auto add_collective = [&](const trace::Collective& coll) {
        if (coll.bytes_sent == 0) return;
        const std::vector<int> to = receivers(coll, members.of(coll.comm), trace.rank);
        if (to.empty()) return;
        // Shares in whole bytes; the remainder goes to the first receivers.
        const std::uint64_t share = coll.bytes_sent / to.size();
        std::uint64_t rest = coll.bytes_sent % to.size();
        for (const int r : to) {
            const std::uint64_t bytes = share + (rest > 0 ? 1 : 0);
            if (rest > 0) --rest;
            if (r != trace.rank && bytes > 0) cell(r).collective_bytes += bytes;
        }
    };
    for (const trace::Collective& coll : trace.collectives) add_collective(coll);
    // The collectives of worker threads, which the replay does not pair, by
    // what each said it sent, and the master's parts in collectives a worker
    // of another member made, which pairing took out of the store.
    for (std::size_t t = 1; t < trace.threads.threads.size(); ++t)
        for (const trace::ThreadTransfer& x : trace.threads.threads[t].transfers)
            if (x.kind == trace::ThreadTransfer::Kind::Collective)
                add_collective(trace::Collective{x.comm, x.root, x.sent, x.received, trace::kNoEvent, x.op});
    for (const trace::ThreadCollectivePart& part : trace.threads.collective_parts)
        if (part.thread == 0)
            add_collective(trace::Collective{part.comm, part.root, part.sent, part.received, trace::kNoEvent, part.op});
    std::vector<TrafficCell> out;
    out.reserve(row.size());
    for (const auto& [to, c] : row) out.push_back(c);
    return out;
}

}  // namespace hindsight::analyses
