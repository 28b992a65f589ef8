// Rounds of bulk exchanges that carry a wavefront through all ranks: each
// rank does what the records it has received allow, writes records for
// other ranks, and all ranks swap what they wrote in one all-to-all
// (exchange.hpp) before the next round. A chain of dependencies across
// ranks then costs one round per link that really waits for the previous
// one, however many records each round carries, instead of one hand-over
// per record.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "replay/exchange.hpp"
#include "replay/payload.hpp"

namespace hindsight::replay {

class WavefrontRounds {
public:
    // `exchange` must outlive this object; `origin` names the trace in errors.
    WavefrontRounds(Exchange& exchange, std::string origin);

    // Appends to what goes to `rank` at the end of this round.
    PayloadWriter& to(int rank);

    // Ships what was written so far, hands every non-empty block that arrives
    // to receive(from, reader) (which must read it to the end), then calls
    // advance(), which does what is now possible, may write, and says
    // whether this rank still waits for records. Repeats until no rank wrote
    // anything and none waits. Collective over the exchange's ranks.
    // When some rank waits while nobody wrote anything, what it waits for
    // can never come (the traces do not fit together), and waiting on would
    // hang: then every rank calls unstick(), which may go on without what it
    // waits for, writing, and says whether it did. Throws when no rank could
    // (or there is no unstick).
    void run(const std::function<void(int from, PayloadReader&)>& receive, const std::function<bool()>& advance,
             const std::function<bool()>& unstick = {});

    // The rounds run so far.
    std::uint64_t rounds() const { return rounds_; }
    // The stalls unstick() resolved (alike on every rank).
    std::uint64_t stalls() const { return stalls_; }
    // The bytes written for the end of this round, to all ranks: a caller
    // may keep what it could write for a later round once a round is big
    // enough, which bounds the memory a round takes.
    std::size_t written() const;

private:

    Exchange& exchange_;
    std::string origin_;
    std::vector<PayloadWriter> outgoing_;  // by rank
    std::uint64_t rounds_ = 0;
    std::uint64_t stalls_ = 0;
};

}  // namespace hindsight::replay
