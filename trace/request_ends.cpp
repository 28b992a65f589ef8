#include "trace/request_ends.hpp"

#include <sstream>
#include <unordered_map>
#include <unordered_set>

namespace hindsight::trace {
namespace {

// The completions no location started, counted with the first of them.
class Tally {
public:
    void add(const LocalTrace& trace, const LooseCompletion& c) {
        if (count_++ > 0) return;
        std::ostringstream text;
        text << "request " << c.request << ' ';
        if (c.region != kNoId) text << "in '" << trace.definitions.regions[c.region].name << "' ";
        text << "at " << trace.seconds(c.time) << " s";
        first_ = text.str();
    }
    void note(const LocalTrace& trace, const std::string& what, const std::string& treatment,
              std::vector<std::string>& notes) const {
        if (count_ == 0) return;
        notes.push_back("rank " + std::to_string(trace.rank) + ": " + std::to_string(count_) + " " + what +
                        " (the first: " + first_ + "); " + treatment);
    }

private:
    std::uint64_t count_ = 0;
    std::string first_;
};

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
    Tally unstarted_sends, unposted_receives;
    for (const RequestEnds& l : locations)
        for (const LooseCompletion& c : l.send_completions)
            if (!sends.contains(c.request)) unstarted_sends.add(trace, c);
    for (std::size_t location = 0; location < locations.size(); ++location)
        for (const LooseCompletion& c : locations[location].receive_completions) {
            const auto posted = receives.find(c.request);
            if (posted == receives.end()) {
                unposted_receives.add(trace, c);
            } else if (c.transfer != LooseCompletion::kNoTransfer && location < trace.threads.size()) {
                // A worker's receive that another thread posted was posted then.
                trace.threads.threads[location].transfers[c.transfer].posted = posted->second;
            }
        }
    std::vector<std::string> notes;
    // From a writer that records no receive requests at all a receive
    // without one is expected.
    if (receives_posted)
        unposted_receives.note(trace, "MPI_IRECV completions of requests never posted (no MPI_IRECV_REQUEST)",
                               "analyzed as receives whose posting call is unknown, without Late Receiver waits",
                               notes);
    unstarted_sends.note(trace, "MPI_ISEND_COMPLETE records of requests no MPI_ISEND started",
                         "ignored, the sends are analyzed at their MPI_ISEND", notes);
    return notes;
}

}  // namespace hindsight::trace
