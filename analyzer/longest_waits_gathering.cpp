#include "analyzer/longest_waits_gathering.hpp"

namespace hindsight::analyzer {

// Pattern and call path travel as doubles too: both are far below 2^53.
std::vector<double> encode_waits(const std::vector<analyses::WaitInstance>& waits, const trace::LocalTrace& trace) {
    std::vector<double> out;
    out.reserve(waits.size() * kWaitFields);
    for (const analyses::WaitInstance& wait : waits) {
        out.push_back(static_cast<double>(wait.pattern));
        out.push_back(static_cast<double>(wait.cnode));
        out.push_back(trace.seconds(wait.start));
        out.push_back(trace.seconds(wait.waiting));
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
            waits.push_back(wait);
            at += kWaitFields;
        }
    return waits;
}

std::vector<RankedWait> gather_longest_waits(const std::vector<analyses::WaitInstance>& waits,
                                             const trace::LocalTrace& trace, MPI_Comm world,
                                             replay::ProgressWatch& watch) {
    int rank = 0, size = 1;
    MPI_Comm_rank(world, &rank);
    MPI_Comm_size(world, &size);
    std::vector<double> mine = encode_waits(waits, trace);
    int count = static_cast<int>(mine.size());
    std::vector<int> counts(static_cast<std::size_t>(rank == 0 ? size : 0));
    watch.complete("the longest waits' counts of all ranks",
                   [&](auto& r) { MPI_Igather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, world, &r[0]); });
    std::vector<int> displs;
    int total = 0;
    for (const int c : counts) {
        displs.push_back(total);
        total += c;
    }
    std::vector<double> all(static_cast<std::size_t>(total));
    watch.complete("the longest waits of all ranks", [&](auto& r) {
        MPI_Igatherv(mine.data(), count, MPI_DOUBLE, all.data(), counts.data(), displs.data(), MPI_DOUBLE, 0, world,
                     &r[0]);
    });
    return rank == 0 ? decode_waits(all, counts) : std::vector<RankedWait>{};
}

}  // namespace hindsight::analyzer
