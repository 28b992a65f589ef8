#include "analyzer/longest_waits_gathering.hpp"

#include "analyzer/row_gathering.hpp"

namespace hindsight::analyzer {

// Pattern, call path and thread travel as doubles too: all are far below
// 2^53.
std::vector<double> encode_waits(const std::vector<analyses::WaitInstance>& waits, const trace::LocalTrace& trace) {
    std::vector<double> out;
    out.reserve(waits.size() * kWaitFields);
    for (const analyses::WaitInstance& wait : waits) {
        out.push_back(static_cast<double>(wait.pattern));
        out.push_back(static_cast<double>(wait.cnode));
        out.push_back(trace.seconds(wait.start));
        out.push_back(trace.seconds(wait.waiting));
        out.push_back(static_cast<double>(wait.thread));
    }
    return out;
}

std::vector<RankedWait> decode_waits(const std::vector<double>& sent, const std::vector<int>& counts) {
    std::vector<RankedWait> waits;
    std::size_t at = 0;
    for (std::size_t rank = 0; rank < counts.size(); ++rank)
        for (int i = 0; i + static_cast<int>(kWaitFields) <= counts[rank]; i += static_cast<int>(kWaitFields)) {
            RankedWait wait;
            wait.rank = static_cast<int>(rank);
            wait.pattern = static_cast<analyses::WaitPattern>(sent[at]);
            wait.cnode = static_cast<cube::CnodeIndex>(sent[at + 1]);
            wait.start_seconds = sent[at + 2];
            wait.waiting_seconds = sent[at + 3];
            wait.thread = static_cast<std::uint32_t>(sent[at + 4]);
            waits.push_back(wait);
            at += kWaitFields;
        }
    return waits;
}

std::vector<RankedWait> gather_longest_waits(const std::vector<analyses::WaitInstance>& waits,
                                             const trace::LocalTrace& trace, MPI_Comm world,
                                             replay::ProgressWatch& watch) {
    const auto by_rank = gather_records(encode_waits(waits, trace), world, watch, "the longest waits of all ranks");
    std::vector<double> all;
    std::vector<int> counts;
    for (const std::vector<double>& sent : by_rank) {
        counts.push_back(static_cast<int>(sent.size()));
        all.insert(all.end(), sent.begin(), sent.end());
    }
    return decode_waits(all, counts);
}

}  // namespace hindsight::analyzer
