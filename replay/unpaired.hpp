// What pairing (pairing.hpp) found that does not pair up, as one rank saw
// it: how many of its events of one kind, at one call path, between which
// ranks or on which communicator. Rank 0 gathers every rank's records and
// words them (analyzer/pairing_warnings.hpp); each case is recorded by one
// rank only, so that nothing counts twice.
#pragma once

#include <cstdint>
#include <map>
#include <tuple>
#include <type_traits>
#include <vector>

#include "common/call_tree.hpp"
#include "common/definitions.hpp"

namespace hindsight::replay {

enum class Unpairing : std::uint32_t {
    // Left out of the analysis:
    NoReceive,        // sends beyond the receives of their stream; the sender records them
    NoSend,           // receives beyond the sends of their stream; the receiver records them
    ImpossibleOrder,  // messages in an order no run can have (message_order.hpp); the receiver records them
    Collectives,      // collective operations of a communicator whose members disagree on them; every member
                      // records its own
    // Kept, with a warning:
    SizesDiffer,      // messages of streams whose sizes differ between the two sides; the receiver records them
};

struct Unpaired {
    Unpairing kind = Unpairing::NoReceive;
    // Messages: the sender's and the receiver's world rank. Collectives: a
    // member that records the most of them and one that records the fewest
    // (the same number when the members disagree on kinds or roots only).
    std::int32_t from = -1;
    std::int32_t to = -1;
    CommId comm = kNoId;            // collectives: their communicator
    CallPathId cnode = kNoCallPath; // the call path of the MPI call holding the events
    std::uint32_t count = 0;        // events of the recording rank
};
static_assert(std::is_trivially_copyable_v<Unpaired> && sizeof(Unpaired) == 24, "gathered as bytes");

inline bool left_out(Unpairing kind) { return kind != Unpairing::SizesDiffer; }

// Counts events one by one into records.
class UnpairedTally {
public:
    void add(Unpairing kind, int from, int to, CommId comm, CallPathId cnode) {
        ++counts_[{kind, from, to, comm, cnode}];
    }
    std::vector<Unpaired> records() const {
        std::vector<Unpaired> out;
        for (const auto& [key, count] : counts_) {
            const auto& [kind, from, to, comm, cnode] = key;
            out.push_back({kind, from, to, comm, cnode, count});
        }
        return out;
    }

private:
    std::map<std::tuple<Unpairing, int, int, CommId, CallPathId>, std::uint32_t> counts_;
};

}  // namespace hindsight::replay
