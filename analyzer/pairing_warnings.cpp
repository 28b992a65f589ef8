#include "analyzer/pairing_warnings.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <utility>

#include "analyses/graph/what_if.hpp"

namespace hindsight::analyzer {
namespace {

using replay::Unpaired;
using replay::Unpairing;

// How one kind is worded: "N NOUNS PAIR VERB (at PATHS); CONSEQUENCE".
struct Wording {
    const char* noun[2];  // singular, plural
    const char* verb[2];
    const char* consequence[2];
    bool receiver_first;  // "of rank B from rank A" rather than "from rank A to rank B"
};

const Wording& wording(Unpairing kind) {
    static const Wording left_out_message{{"message", "messages"}, {"has no matching receive", "have no matching receive"},
                                          {"it is left out of the analysis", "they are left out of the analysis"},
                                          false};
    static const Wording no_send{{"receive", "receives"}, {"has no matching send", "have no matching send"},
                                 {"it is left out of the analysis", "they are left out of the analysis"}, true};
    static const Wording order{{"message", "messages"},
                               {"is received in an order no run can have", "are received in an order no run can have"},
                               {"it is left out of the analysis", "they are left out of the analysis"}, false};
    static const Wording sizes{{"message", "messages"},
                               {"differs in size between sender and receiver",
                                "differ in size between sender and receiver"},
                               {"it is analyzed as paired", "they are analyzed as paired"}, false};
    static const Wording collectives{{"collective operation", "collective operations"},
                                     {"is recorded differently by its members", "are recorded differently by its members"},
                                     {"it is left out of the analysis", "they are left out of the analysis"}, false};
    switch (kind) {
    case Unpairing::NoReceive: return left_out_message;
    case Unpairing::NoSend: return no_send;
    case Unpairing::ImpossibleOrder: return order;
    case Unpairing::SizesDiffer: return sizes;
    case Unpairing::Collectives: break;
    }
    return collectives;
}

std::string counted(std::uint64_t n, const char* const (&noun)[2]) { return std::to_string(n) + " " + noun[n != 1]; }

// The keys with the largest counts first (ties in key order).
template <typename Key>
std::vector<std::pair<Key, std::uint64_t>> largest_first(const std::map<Key, std::uint64_t>& counts) {
    std::vector<std::pair<Key, std::uint64_t>> sorted(counts.begin(), counts.end());
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    return sorted;
}

// "main/MPI_Send, main/MPI_Isend and 2 more call paths"
std::string call_paths(const std::map<CallPathId, std::uint64_t>& counts, const trace::LocalTrace& trace) {
    const auto sorted = largest_first(counts);
    std::string text;
    for (std::size_t i = 0; i < sorted.size() && i < 2; ++i) {
        const CallPathId c = sorted[i].first;
        text += (i ? ", " : "") +
                (c < trace.call_tree.size() ? trace::call_path_text(trace, c) : std::string("an unknown call path"));
    }
    if (sorted.size() > 2) text += " and " + counted(sorted.size() - 2, {"more call path", "more call paths"});
    return "at " + text;
}

std::string pair_text(const Wording& w, int from, int to) {
    return w.receiver_first ? "of rank " + std::to_string(to) + " from rank " + std::to_string(from)
                            : "from rank " + std::to_string(from) + " to rank " + std::to_string(to);
}

// The records of one message kind as one sentence.
std::string message_sentence(Unpairing kind, const std::vector<const Unpaired*>& records,
                             const trace::LocalTrace& trace) {
    const Wording& w = wording(kind);
    std::map<std::pair<int, int>, std::uint64_t> pairs;
    std::map<CallPathId, std::uint64_t> paths;
    std::uint64_t total = 0;
    for (const Unpaired* u : records) {
        pairs[{u->from, u->to}] += u->count;
        paths[u->cnode] += u->count;
        total += u->count;
    }
    const bool one = total == 1;
    std::string text = counted(total, w.noun) + " ";
    if (pairs.size() == 1) {
        text += pair_text(w, pairs.begin()->first.first, pairs.begin()->first.second) + " " + w.verb[!one] + " (";
    } else {
        text += std::string(w.verb[!one]) + " (";
        const auto sorted = largest_first(pairs);
        std::uint64_t named = 0;
        for (std::size_t i = 0; i < 2; ++i) {
            text += (i ? ", " : "") + std::to_string(sorted[i].second) + " " +
                    pair_text(w, sorted[i].first.first, sorted[i].first.second);
            named += sorted[i].second;
        }
        if (sorted.size() > 2)
            text += " and " + std::to_string(total - named) + " between " +
                    counted(sorted.size() - 2, {"other pair of ranks", "other pairs of ranks"});
        text += "; ";
    }
    return text + call_paths(paths, trace) + "); " + w.consequence[!one];
}

// The collective operations left out, one sentence for all communicators.
std::string collective_sentence(const std::vector<const Unpaired*>& records,
                                 const std::vector<std::vector<Unpaired>>& by_rank, const trace::LocalTrace& trace) {
    const Wording& w = wording(Unpairing::Collectives);
    std::map<CommId, std::uint64_t> comms;
    std::map<CallPathId, std::uint64_t> paths;
    std::uint64_t total = 0;
    for (const Unpaired* u : records) {
        comms[u->comm] += u->count;
        paths[u->cnode] += u->count;
        total += u->count;
    }
    // How many of a communicator's collectives one rank recorded (none: no
    // records of its own).
    const auto recorded_by = [&](int rank, CommId comm) {
        std::uint64_t n = 0;
        if (rank >= 0 && static_cast<std::size_t>(rank) < by_rank.size())
            for (const Unpaired& u : by_rank[static_cast<std::size_t>(rank)])
                if (u.kind == Unpairing::Collectives && u.comm == comm) n += u.count;
        return n;
    };
    // "MPI_COMM_WORLD: rank 0 records 3, rank 1 only 2"
    const auto disagreement = [&](CommId comm, bool named) {
        const Unpaired* u = *std::find_if(records.begin(), records.end(), [&](const Unpaired* r) { return r->comm == comm; });
        const std::uint64_t most = recorded_by(u->from, comm), fewest = recorded_by(u->to, comm);
        std::string text = named ? trace.definitions.comm_display_name(comm) + ": " : std::string();
        if (most == fewest) return text + "in kind or root";
        return text + "rank " + std::to_string(u->from) + " records " + std::to_string(most) + ", rank " +
               std::to_string(u->to) + " only " + std::to_string(fewest);
    };
    const bool one = total == 1;
    std::string text = counted(total, w.noun) + " on ";
    const auto sorted = largest_first(comms);
    if (sorted.size() == 1) {
        text += trace.definitions.comm_display_name(sorted[0].first) + " " + w.verb[!one] + " (" +
                disagreement(sorted[0].first, false);
    } else {
        text += counted(sorted.size(), {"communicator", "communicators"}) + " are recorded differently by their members (";
        for (std::size_t i = 0; i < 2; ++i) text += (i ? "; " : "") + disagreement(sorted[i].first, true);
        if (sorted.size() > 2) text += "; and " + counted(sorted.size() - 2, {"more communicator", "more communicators"});
    }
    return text + "; " + call_paths(paths, trace) + "); " + w.consequence[!one];
}

}  // namespace

std::vector<std::string> pairing_warnings(const std::vector<std::vector<Unpaired>>& by_rank,
                                          const trace::LocalTrace& trace) {
    std::map<Unpairing, std::vector<const Unpaired*>> kinds;
    for (const auto& records : by_rank)
        for (const Unpaired& u : records) kinds[u.kind].push_back(&u);
    std::vector<std::string> sentences;
    for (const auto& [kind, records] : kinds)
        sentences.push_back(kind == Unpairing::Collectives ? collective_sentence(records, by_rank, trace)
                                                           : message_sentence(kind, records, trace));
    return sentences;
}

}  // namespace hindsight::analyzer
