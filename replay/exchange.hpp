// Bulk exchanges among all analysis ranks: how an observer moves in a few
// large transfers what a per-event replay would hand over message by
// message, and computes locally in between (the rounds of a wavefront, the
// steps of pointer doubling). A hand-over of one message costs a scheduler
// wake-up when ranks share a core; a round costs the same for thousands of
// records.
//
// Every call is collective over all analysis ranks: each rank makes the
// same calls in the same order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "replay/collective_channel.hpp"

namespace hindsight::replay {

// One block of bytes per rank, indexed by rank.
using ByteBlocks = std::vector<std::vector<std::byte>>;

class Exchange {
public:
    virtual ~Exchange() = default;

    // This rank (it replays the trace's rank of the same number) and how
    // many there are.
    virtual int rank() const = 0;
    virtual int size() const = 0;

    // outgoing[r] goes to rank r (ranks beyond outgoing.size() get
    // nothing); returns what every rank sent to this one, by rank.
    virtual ByteBlocks all_to_all(const ByteBlocks& outgoing) = 0;
    // Element-wise sums over all ranks, in place on every rank.
    virtual void sum(std::span<double> values) = 0;
    // Whether any rank passed true.
    virtual bool any(bool value) = 0;
    // The largest value of all ranks, with the lowest rank that passed it.
    virtual RankedValue max_loc(double value) = 0;

    // How many of the calls above this exchange has served (statistics).
    std::uint64_t rounds() const { return rounds_; }

protected:
    void count_round() { ++rounds_; }

private:
    std::uint64_t rounds_ = 0;
};

}  // namespace hindsight::replay
