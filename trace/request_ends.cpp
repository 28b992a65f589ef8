#include "trace/request_ends.hpp"

#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "trace/damage_tally.hpp"

namespace hindsight::trace {
namespace {

// "request N in 'REGION' at T s".
std::string describe(const LocalTrace& trace, const LooseCompletion& c) {
    std::ostringstream text;
    text << "request " << c.request << ' ';
    if (c.region != kNoId) text << "in '" << trace.definitions.regions[c.region].name << "' ";
    text << "at " << trace.seconds(c.time) << " s";
    return text.str();
}

}  // namespace

std::vector<std::string> settle_request_ends(LocalTrace& trace, std::span<const RequestEnds> locations) {
    std::unordered_set<std::uint64_t> sends;
    std::unordered_map<std::uint64_t, Ticks> receives;
    bool receives_posted = false;
    for (const RequestEnds& l : locations) {
        sends.insert(l.open_sends.begin(), l.open_sends.end());
        receives.insert(l.open_receives.begin(), l.open_receives.end());
        receives_posted = receives_posted || l.receives_posted;
    }
    DamageTally unstarted_sends, unposted_receives;
    for (const RequestEnds& l : locations)
        for (const LooseCompletion& c : l.send_completions)
            if (!sends.contains(c.request)) unstarted_sends.add(describe(trace, c));
    for (std::size_t location = 0; location < locations.size(); ++location)
        for (const LooseCompletion& c : locations[location].receive_completions) {
            const auto posted = receives.find(c.request);
            if (posted == receives.end()) {
                unposted_receives.add(describe(trace, c));
            } else if (c.transfer != LooseCompletion::kNoTransfer && location < trace.threads.size()) {
                // A worker's receive that another thread posted was posted then.
                trace.threads.threads[location].transfers[c.transfer].posted = posted->second;
            }
        }
    std::vector<std::string> notes;
    // From a writer that records no receive requests at all a receive
    // without one is expected.
    if (receives_posted)
        unposted_receives.note(trace.rank, "MPI_IRECV completions of requests never posted (no MPI_IRECV_REQUEST)",
                               "analyzed as receives whose posting call is unknown, without Late Receiver waits",
                               notes);
    unstarted_sends.note(trace.rank, "MPI_ISEND_COMPLETE records of requests no MPI_ISEND started",
                         "ignored, the sends are analyzed at their MPI_ISEND", notes);
    return notes;
}

}  // namespace hindsight::trace
