#include "analyses/wait_states/rma_ending_calls.hpp"

#include <algorithm>
#include <map>
#include <vector>

#include "analyses/wait_states/epoch_calls.hpp"

namespace hindsight::analyses {

void RmaEndingCalls::run(const trace::LocalTrace&, const ForwardFacts&, replay::Exchange& exchange) {
    RmaWaits& waits = *waits_;
    // A wait a rank's own call ended (an epoch of a rank with itself) ties
    // it to nobody else; one naming no rank of the run is damage.
    std::erase_if(waits.waits, [&](const RmaWait& w) {
        return w.ender < 0 || w.ender >= exchange.size() || w.ender == exchange.rank();
    });
    std::sort(waits.waits.begin(), waits.waits.end(), [](const RmaWait& a, const RmaWait& b) {
        return a.call != b.call ? a.call < b.call : a.waiting > b.waiting;
    });
    waits.waits.erase(std::unique(waits.waits.begin(), waits.waits.end(),
                                  [](const RmaWait& a, const RmaWait& b) { return a.call == b.call; }),
                      waits.waits.end());
    waits.delays.clear();
    if (!exchange.any(!waits.waits.empty())) return;

    std::vector<std::vector<trace::EventIndex>> named(static_cast<std::size_t>(exchange.size()));
    for (const RmaWait& wait : waits.waits) named[static_cast<std::size_t>(wait.ender)].push_back(wait.ender_call);
    const replay::ByteBlocks received = exchange.all_to_all(as_blocks(named));
    std::map<trace::EventIndex, std::vector<int>> waiters;
    for (std::size_t from = 0; from < received.size(); ++from)
        for (const trace::EventIndex call : from_block<trace::EventIndex>(received[from]))
            waiters[call].push_back(static_cast<int>(from));
    for (auto& [call, ranks] : waiters) {
        // Ascending already (by sender); a rank names a call at most once
        // per wait, but may have waited at it in two calls of its own.
        ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
        waits.delays.push_back({call, std::move(ranks)});
    }
}

}  // namespace hindsight::analyses
