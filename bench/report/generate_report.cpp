// Writes a large synthetic CUBE report for the report page benchmark:
//
//     generate_report OUT.cubex [CALL_PATHS [RANKS]]      (default 10000 x 256)
//
// The call tree has fan-out 8 below main (regions func_N; of the leaves,
// every fourth is an MPI_Recv and the next an MPI_Send). Metrics, as in an
// analysis report: time and visits on every call path and rank (dense),
// Late Sender waiting on the odd ranks at the receives, its short-term
// delay cost on the even ranks at the receives' callers, bytes sent at the
// sends, critical path on one rank per call path. Values are pseudo-random
// (fixed seed), which compresses about as badly as measured times do.
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "common/cube/writer.hpp"
#include "common/error.hpp"

namespace {

using namespace hindsight::cube;

Metric metric(const char* id, const char* name, const char* unit, MetricIndex parent,
              DataType type = DataType::Double) {
    return Metric{id, name, unit, std::string(name) + " (synthetic)", "", type, parent};
}

Region region(std::string name) {
    Region r;
    r.name = std::move(name);
    return r;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2 || argc > 4) {
        std::cerr << "usage: generate_report OUT.cubex [CALL_PATHS [RANKS]]\n";
        return 2;
    }
    const std::uint32_t call_paths = argc > 2 ? static_cast<std::uint32_t>(std::stoul(argv[2])) : 10000;
    const std::int64_t ranks = argc > 3 ? std::stoll(argv[3]) : 256;

    Report report;
    const MetricIndex time = report.add_metric(metric("time", "Time", "sec", kNone));
    const MetricIndex late_sender = report.add_metric(metric("mpi_latesender", "Late Sender", "sec", time));
    const MetricIndex visits = report.add_metric(metric("visits", "Visits", "occ", kNone, DataType::Uint64));
    const MetricIndex bytes = report.add_metric(metric("bytes_sent", "Bytes sent", "bytes", kNone, DataType::Uint64));
    const MetricIndex delay = report.add_metric(metric("delay", "Delay costs", "sec", kNone));
    const MetricIndex delay_ls = report.add_metric(metric("delay_latesender", "Late Sender short-term", "sec", delay));
    const MetricIndex critical = report.add_metric(metric("critical_path", "Critical path", "sec", kNone));

    // Call tree: breadth-first, 8 children per call path.
    std::vector<CnodeIndex> parent_of{kNone};
    report.add_cnode(report.add_region(region("main")), kNone);
    const RegionIndex recv = report.add_region(region("MPI_Recv"));
    const RegionIndex send = report.add_region(region("MPI_Send"));
    for (std::uint32_t c = 1; c < call_paths; ++c) {
        const CnodeIndex parent = (c - 1) / 8;
        const bool leaf = 8 * c + 1 >= call_paths;
        const RegionIndex r = leaf && c % 4 == 0   ? recv
                              : leaf && c % 4 == 1 ? send
                                                   : report.add_region(region("func_" + std::to_string(c)));
        report.add_cnode(r, parent);
    }
    const SystemNodeIndex machine = report.add_system_node({"cluster", "machine", "", kNone});
    for (std::int64_t r = 0; r < ranks; ++r) {
        if (r % 32 == 0) report.add_system_node({"node" + std::to_string(r / 32), "node", "", machine});
        const auto node = static_cast<SystemNodeIndex>(1 + r / 32);
        report.add_location({"Master thread", 0, report.add_location_group({"MPI Rank " + std::to_string(r), r, node})});
    }

    std::mt19937_64 random(42);
    std::uniform_real_distribution<double> seconds(1e-6, 1e-2);
    std::uniform_int_distribution<int> count(1, 1000);
    for (CnodeIndex c = 0; c < call_paths; ++c) {
        const CnodeIndex cn = c;
        const bool is_recv = report.cnodes()[cn].region == recv, is_send = report.cnodes()[cn].region == send;
        for (LocationIndex l = 0; l < ranks; ++l) {
            report.set_value(time, cn, l, seconds(random));
            report.set_value(visits, cn, l, count(random));
            if (is_recv && l % 2 == 1) report.set_value(late_sender, cn, l, seconds(random) / 10);
            if (is_recv && l % 2 == 0) report.add_value(delay_ls, report.cnodes()[cn].parent, l, seconds(random) / 10);
            if (is_send) report.set_value(bytes, cn, l, 1024.0 * count(random));
        }
        report.set_value(critical, cn, static_cast<LocationIndex>(random() % static_cast<std::uint64_t>(ranks)),
                         seconds(random));
    }
    try {
        write_cubex(report, argv[1]);
    } catch (const hindsight::Error& e) {
        std::cerr << e.what() << '\n';
        return 1;
    }
    return 0;
}
