#include "replay/chain_marking.hpp"

#include <array>

#include "common/error.hpp"
#include "replay/exchange_records.hpp"

namespace hindsight::replay {

namespace {

// The node a link names on this rank, checked: links come from other ranks.
std::uint32_t own_index(ChainLink link, std::size_t nodes, int rank, const std::string& where) {
    if (link_rank(link) != rank || link_index(link) >= nodes)
        throw Error(where, "rank " + std::to_string(rank) + " was asked about node " +
                               std::to_string(link_index(link)) + " of rank " + std::to_string(link_rank(link)) +
                               ", but has " + std::to_string(nodes) + " nodes");
    return link_index(link);
}

// J_{k+1} from J_k: every node asks the owner of J_k(v) for its J_k.
std::vector<ChainLink> double_level(Exchange& exchange, const std::vector<ChainLink>& level,
                                    const std::string& where) {
    const auto ranks = static_cast<std::size_t>(exchange.size());
    RecordLists<std::uint32_t> requests(ranks);
    for (const ChainLink link : level)
        if (link != kChainEnd) requests[static_cast<std::size_t>(link_rank(link))].push_back(link_index(link));
    const int rank = exchange.rank();
    const RecordLists<ChainLink> answers = ask_ranks<ChainLink>(
        exchange, requests,
        [&](int, std::uint32_t index) { return level[own_index(chain_link(rank, index), level.size(), rank, where)]; },
        where);
    std::vector<ChainLink> next(level.size(), kChainEnd);
    std::vector<std::size_t> taken(ranks, 0);
    for (std::size_t v = 0; v < level.size(); ++v)
        if (level[v] != kChainEnd) {
            const auto owner = static_cast<std::size_t>(link_rank(level[v]));
            next[v] = answers[owner][taken[owner]++];
        }
    return next;
}

// Links come from the caller's successors and the answers of ranks that
// checked them: only the successors need checking here.
void check_ranks(std::span<const ChainLink> successors, int ranks, const std::string& where) {
    for (const ChainLink link : successors)
        if (link != kChainEnd && link_rank(link) >= ranks)
            throw Error(where, "a chain's link leads to rank " + std::to_string(link_rank(link)) + " of " +
                                   std::to_string(ranks));
}

bool leads_anywhere(const std::vector<ChainLink>& level) {
    for (const ChainLink link : level)
        if (link != kChainEnd) return true;
    return false;
}

// Rank 0 follows the chains itself, node by node, from every rank's
// successors gathered in one all-to-all, and sends each rank its marks in
// another: two rounds in all, for chains whose nodes fit in memory there.
void mark_gathered(Exchange& exchange, std::span<const ChainLink> successors, std::span<const ChainLink> firsts,
                   const std::string& where, ChainMarks& marks) {
    const auto ranks = static_cast<std::size_t>(exchange.size());
    const int rank = exchange.rank();
    // [number of firsts, firsts..., successors...] to rank 0.
    RecordLists<ChainLink> gathering(ranks);
    gathering[0].push_back(firsts.size());
    gathering[0].insert(gathering[0].end(), firsts.begin(), firsts.end());
    gathering[0].insert(gathering[0].end(), successors.begin(), successors.end());
    const RecordLists<ChainLink> gathered = exchange_records(exchange, gathering, where);

    RecordLists<std::uint32_t> marking(ranks);
    if (rank == 0) {
        // Where each rank's successors begin in its block.
        std::vector<std::size_t> offset(ranks, 0);
        for (std::size_t r = 0; r < ranks; ++r) {
            const auto& from = gathered[r];
            if (from.empty() || from.front() > from.size() - 1)
                throw Error(where, "rank " + std::to_string(r) + " sent a chain block without its first nodes");
            offset[r] = 1 + static_cast<std::size_t>(from.front());
        }
        for (std::size_t r = 0; r < ranks; ++r)
            for (std::size_t f = 1; f < offset[r]; ++f) {
                ChainLink at = gathered[r][f];
                // A chain without a cycle passes every node at most once.
                for (std::uint64_t steps = 0; at != kChainEnd; ++steps) {
                    const auto owner = static_cast<std::size_t>(link_rank(at));
                    if (owner >= ranks || link_index(at) >= gathered[owner].size() - offset[owner])
                        throw Error(where, "a chain's link leads to node " + std::to_string(link_index(at)) +
                                               " of rank " + std::to_string(link_rank(at)) + ", which does not exist");
                    if (steps > marks.nodes) throw Error(where, "the links of a chain through the ranks run in a cycle");
                    marking[owner].push_back(link_index(at));
                    at = gathered[owner][offset[owner] + link_index(at)];
                }
            }
    }
    for (const auto& from : exchange_records(exchange, marking, where))
        for (const std::uint32_t index : from)
            marks.marked[own_index(chain_link(rank, index), successors.size(), rank, where)] = true;
}

}  // namespace

ChainMarks mark_chain(Exchange& exchange, std::span<const ChainLink> successors, ChainLink first,
                      const std::string& where, std::uint64_t gather_up_to) {
    const std::span<const ChainLink> firsts(&first, first == kChainEnd ? 0 : 1);
    return mark_chains(exchange, successors, firsts, where, gather_up_to);
}

ChainMarks mark_chains(Exchange& exchange, std::span<const ChainLink> successors, std::span<const ChainLink> firsts,
                       const std::string& where, std::uint64_t gather_up_to) {
    check_ranks(successors, exchange.size(), where);
    ChainMarks marks;
    marks.marked.assign(successors.size(), false);
    std::array<double, 1> count{static_cast<double>(successors.size())};
    exchange.sum(count);
    marks.nodes = static_cast<std::uint64_t>(count[0]);
    if (marks.nodes <= gather_up_to) {
        marks.gathered = true;
        mark_gathered(exchange, successors, firsts, where, marks);
        return marks;
    }

    // A chain without a cycle has fewer links than there are nodes, so a
    // level that reaches 2^k >= nodes links on and still leads somewhere
    // means a cycle.
    std::vector<std::vector<ChainLink>> levels{{successors.begin(), successors.end()}};
    while (exchange.any(leads_anywhere(levels.back()))) {
        if (levels.size() >= 64 || (std::uint64_t{1} << (levels.size() - 1)) >= marks.nodes)
            throw Error(where, "the links of a chain through the ranks run in a cycle");
        levels.push_back(double_level(exchange, levels.back(), where));
    }
    levels.pop_back();  // leads nowhere
    marks.levels = static_cast<std::uint32_t>(levels.size());

    const int rank = exchange.rank();
    for (const ChainLink first : firsts)
        if (first != kChainEnd) marks.marked[own_index(first, successors.size(), rank, where)] = true;
    const auto ranks = static_cast<std::size_t>(exchange.size());
    for (std::size_t k = levels.size(); k-- > 0;) {
        RecordLists<std::uint32_t> marking(ranks);
        for (std::size_t v = 0; v < successors.size(); ++v)
            if (marks.marked[v] && levels[k][v] != kChainEnd)
                marking[static_cast<std::size_t>(link_rank(levels[k][v]))].push_back(link_index(levels[k][v]));
        for (const auto& from : exchange_records(exchange, marking, where))
            for (const std::uint32_t index : from)
                marks.marked[own_index(chain_link(rank, index), successors.size(), rank, where)] = true;
    }
    return marks;
}

}  // namespace hindsight::replay
