#include "analyzer/run_stats.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <ostream>

namespace hindsight::analyzer {

void RunStats::phase(std::string name) {
    names_.push_back(std::move(name));
    starts_.push_back(MPI_Wtime());
}

std::uint64_t peak_resident_kib() {
    std::ifstream status("/proc/self/status");
    std::string key;
    while (status >> key) {
        if (key == "VmHWM:") {
            std::uint64_t kib = 0;
            status >> kib;
            return kib;
        }
        status.ignore(4096, '\n');
    }
    return 0;
}

void RunStats::report(std::ostream& out, const trace::LocalTrace& trace, MPI_Comm world,
                      replay::ProgressWatch& watch) {
    const double end = MPI_Wtime();
    std::vector<double> took(names_.size());
    for (std::size_t i = 0; i < names_.size(); ++i) took[i] = (i + 1 < starts_.size() ? starts_[i + 1] : end) - starts_[i];
    int rank = 0;
    MPI_Comm_rank(world, &rank);
    std::vector<double> max_took(took.size());
    // What the store holds: reserved capacity beyond that is never touched
    // and takes no memory.
    const double store = static_cast<double>(trace.events.size() * sizeof(trace::Event) +
                                             trace.messages.size() * sizeof(trace::Message) +
                                             (trace.posted_receives.size() + trace.probed_receives.size() +
                                              trace.polled_receives.size()) *
                                                 sizeof(trace::ReceiveCall) +
                                             trace.collectives.size() * sizeof(trace::Collective));
    double local[3] = {static_cast<double>(trace.events.size()), store, static_cast<double>(peak_resident_kib())};
    double high[3] = {};
    watch.complete<2>("the statistics of all ranks", [&](auto& r) {
        MPI_Ireduce(took.data(), max_took.data(), static_cast<int>(took.size()), MPI_DOUBLE, MPI_MAX, 0, world,
                    &r[0]);
        MPI_Ireduce(local, high, 3, MPI_DOUBLE, MPI_MAX, 0, world, &r[1]);
    });
    if (rank != 0) return;
    char line[160];
    out << "Statistics (maximum over ranks):\n";
    for (std::size_t i = 0; i < names_.size(); ++i) {
        std::snprintf(line, sizeof line, "  %-12s %11.4f s\n", names_[i].c_str(), max_took[i]);
        out << line;
    }
    std::snprintf(line, sizeof line, "  events per rank %.0f, store %.1f bytes/event, peak resident %.1f MiB\n",
                  high[0], high[0] > 0 ? high[1] / high[0] : 0.0, high[2] / 1024.0);
    out << line;
}

}  // namespace hindsight::analyzer
