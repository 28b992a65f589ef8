#include "replay/wavefront_rounds.hpp"

#include <array>

#include "common/error.hpp"

namespace hindsight::replay {

WavefrontRounds::WavefrontRounds(Exchange& exchange, std::string origin)
    : exchange_(exchange), origin_(std::move(origin)), outgoing_(static_cast<std::size_t>(exchange.size())) {}

PayloadWriter& WavefrontRounds::to(int rank) {
    if (rank < 0 || static_cast<std::size_t>(rank) >= outgoing_.size())
        throw Error(origin_, "a record for rank " + std::to_string(rank) + ", which the analysis does not have");
    return outgoing_[static_cast<std::size_t>(rank)];
}

std::size_t WavefrontRounds::written() const {
    std::size_t bytes = 0;
    for (const PayloadWriter& w : outgoing_) bytes += w.size();
    return bytes;
}

void WavefrontRounds::run(const std::function<void(int from, PayloadReader&)>& receive,
                          const std::function<bool()>& advance, const std::function<bool()>& unstick) {
    for (;;) {
        ByteBlocks blocks(outgoing_.size());
        for (std::size_t r = 0; r < outgoing_.size(); ++r) blocks[r] = outgoing_[r].take();
        const ByteBlocks incoming = exchange_.all_to_all(blocks);
        ++rounds_;
        for (std::size_t r = 0; r < incoming.size(); ++r) {
            if (incoming[r].empty()) continue;
            PayloadReader in(incoming[r]);
            receive(static_cast<int>(r), in);
            if (!in.empty()) throw Error(origin_, "a record of rank " + std::to_string(r) + " was not read to its end");
        }
        const bool waits = advance();
        // [ranks that wrote, ranks that wait]
        std::array<double, 2> counts{written() > 0 ? 1.0 : 0.0, waits ? 1.0 : 0.0};
        exchange_.sum(counts);
        if (counts[0] == 0 && counts[1] == 0) return;
        if (counts[0] > 0) continue;
        std::array<double, 1> unstuck{unstick && unstick() ? 1.0 : 0.0};
        exchange_.sum(unstuck);
        if (unstuck[0] == 0)
            throw Error(origin_, "the replay's rounds stall: " + std::to_string(static_cast<long>(counts[1])) +
                                     " rank(s) wait for records no rank will send (the ranks' traces do not fit together)");
        ++stalls_;
    }
}

}  // namespace hindsight::replay
