// End-to-end check of the backward analyses through hindsight-analyze:
//   backward_report_check write DIR     writes Figure 3's trace to DIR
//   backward_report_check check REPORT  checks the report's values
//   backward_report_check write-sendrecv DIR / check-sendrecv REPORT
//                                       the same for sendrecv_exchange.hpp
//   (and -irecv, -nonblocking, -probe, -polling, -sparse: irecv_late_receiver.hpp,
//   nonblocking_allreduce.hpp, probed_late_sender.hpp, polled_late_sender.hpp,
//   sparse_alltoallv.hpp)
// (run_backward_e2e.py runs the analyzer in between). The expected values
// are the paper's (see figure3.hpp) and the hand-derived ones of the
// scenarios' headers.
#include <cmath>
#include <cstdio>
#include <exception>
#include <string>

#include "common/cube/query.hpp"
#include "common/cube/reader.hpp"
#include "tests/analyses/backward/figure3.hpp"
#include "tests/analyses/backward/irecv_late_receiver.hpp"
#include "tests/analyses/backward/nonblocking_allreduce.hpp"
#include "tests/analyses/backward/sparse_alltoallv.hpp"
#include "tests/analyses/backward/polled_late_sender.hpp"
#include "tests/analyses/backward/probed_late_sender.hpp"
#include "tests/analyses/backward/sendrecv_exchange.hpp"

using namespace hindsight;

namespace {

int failures = 0;

void expect(const char* what, double got, double want) {
    if (std::fabs(got - want) <= 1e-9 * std::max(1.0, std::fabs(want))) return;
    std::fprintf(stderr, "FAIL: %s is %.12g, expected %.12g\n", what, got, want);
    ++failures;
}

int check(const std::string& path) {
    const cube::Report report = cube::read_cubex(path);
    const cube::CallPath f{"main", "f"}, g{"main", "g"}, recv{"main", "MPI_Recv"};
    // Delay costs of Figure 3 (values as stored: with their sub-metrics).
    expect("delay_latesender at f on A", cube::value_at(report, "delay_latesender", f, 0), 0.75);
    expect("delay_latesender at g on A", cube::value_at(report, "delay_latesender", g, 0), 2.25);
    expect("delay_latesender at R3 on B", cube::value_at(report, "delay_latesender", recv, 1), 0.5);
    expect("delay_latesender_longterm at f on A",
           cube::value_at(report, "delay_latesender_longterm", f, 0), 0.375);
    expect("delay_latesender_longterm at g on A",
           cube::value_at(report, "delay_latesender_longterm", g, 0), 1.125);
    expect("all delay costs", cube::total(report, "delay"), 5.0);
    expect("indirect Late Sender waiting", cube::total(report, "mpi_wait_indirect"), 1.5);
    // 1.5 of R3's 3 units made C wait (s = 0.25 of R4's 2 units per unit).
    expect("propagating Late Sender waiting", cube::total(report, "mpi_wait_propagating"), 1.5);
    // The critical path: 8 units, C entered MPI_Finalize last at 8.
    expect("critical path", cube::total(report, "critical_path"), 8.0);
    expect("critical-path imbalance at MPI_Recv",
           cube::sum_over_ranks(report, "critical_path_imbalance", recv), 4.0 / 3);
    expect("critical-path imbalance at g",
           cube::sum_over_ranks(report, "critical_path_imbalance", g), 1.5);
    // B never ran g: its headroom 2.5 gives g 1.5 (of excess 5, g 3), stored
    // on A, which carried g on the critical path (test_critical_path.cpp).
    expect("inter-partition imbalance on A",
           cube::sum_over_call_paths(report, "inter_partition_imbalance", 0), 1.5);
    return failures == 0 ? 0 : 1;
}

int check_sendrecv(const std::string& path) {
    const cube::Report report = cube::read_cubex(path);
    const cube::CallPath f{"main", "f"}, sendrecv{"main", "MPI_Sendrecv"}, init{"main", "MPI_Init"};
    expect("Late Sender on rank 1", cube::value_at(report, "mpi_latesender", sendrecv, 1), 2.0);
    expect("all Late Sender", cube::total(report, "mpi_latesender"), 2.0);
    expect("all Late Receiver", cube::total(report, "mpi_latereceiver"), 0.0);
    expect("critical path", cube::total(report, "critical_path"), 6.0);
    expect("critical path at f on rank 0", cube::value_at(report, "critical_path", f, 0), 3.0);
    expect("critical path at MPI_Sendrecv on rank 0", cube::value_at(report, "critical_path", sendrecv, 0), 2.0);
    expect("critical path at MPI_Init on rank 0", cube::value_at(report, "critical_path", init, 0), 1.0);
    expect("delay_latesender at f on rank 0", cube::value_at(report, "delay_latesender", f, 0), 2.0);
    expect("all delay costs", cube::total(report, "delay"), 2.0);
    expect("terminal waiting", cube::total(report, "mpi_wait_terminal"), 2.0);
    expect("indirect waiting", cube::total(report, "mpi_wait_indirect"), 0.0);
    return failures == 0 ? 0 : 1;
}

// irecv_late_receiver.hpp's values.
int check_irecv(const std::string& path) {
    const cube::Report report = cube::read_cubex(path);
    const cube::CallPath main{"main"}, irecv{"main", "MPI_Irecv"};
    constexpr double ns = 1e9;  // compared in ticks
    expect("Late Receiver delay costs at main on rank 1", ns * cube::value_at(report, "delay_latereceiver", main, 1), 5);
    expect("barrier delay costs at main on rank 1", ns * cube::value_at(report, "delay_barrier", main, 1), 1);
    expect("critical path", ns * cube::total(report, "critical_path"), 50);
    expect("critical path at MPI_Irecv on rank 1", ns * cube::value_at(report, "critical_path", irecv, 1), 1);
    return failures == 0 ? 0 : 1;
}

// nonblocking_allreduce.hpp's values.
int check_nonblocking(const std::string& path) {
    const cube::Report report = cube::read_cubex(path);
    const cube::CallPath wait{"main", "MPI_Wait"}, prep{"main", "prep"}, start{"main", "MPI_Iallreduce"};
    constexpr double ns = 1e9;  // compared in ticks
    expect("Wait at N x N on rank 0", ns * cube::value_at(report, "mpi_wait_nxn", wait, 0), 24);
    expect("Wait at N x N on rank 2", ns * cube::value_at(report, "mpi_wait_nxn", wait, 2), 14);
    expect("Wait at N x N", ns * cube::total(report, "mpi_wait_nxn"), 38);
    expect("N x N delay costs at prep on rank 1", ns * cube::value_at(report, "delay_n2n", prep, 1), 38);
    expect("critical path", ns * cube::total(report, "critical_path"), 80);
    expect("critical path at MPI_Iallreduce on rank 1", ns * cube::value_at(report, "critical_path", start, 1), 1);
    expect("critical path at MPI_Wait on rank 0", ns * cube::value_at(report, "critical_path", wait, 0), 29);
    return failures == 0 ? 0 : 1;
}

// sparse_alltoallv.hpp's values.
int check_sparse(const std::string& path) {
    const cube::Report report = cube::read_cubex(path);
    const cube::CallPath exchange{"main", "MPI_Alltoallv"}, prep{"main", "prep"};
    constexpr double ns = 1e9;  // compared in ticks
    expect("Wait at N x N on rank 0", ns * cube::value_at(report, "mpi_wait_nxn", exchange, 0), 10);
    expect("Wait at N x N on rank 2", ns * cube::value_at(report, "mpi_wait_nxn", exchange, 2), 35);
    expect("Wait at N x N", ns * cube::total(report, "mpi_wait_nxn"), 45);
    expect("N x N delay costs at prep on rank 1", ns * cube::value_at(report, "delay_n2n", prep, 1), 10);
    expect("N x N delay costs at prep on rank 3", ns * cube::value_at(report, "delay_n2n", prep, 3), 35);
    expect("critical path", ns * cube::total(report, "critical_path"), 60);
    expect("critical path at MPI_Alltoallv on rank 0", ns * cube::value_at(report, "critical_path", exchange, 0), 30);
    return failures == 0 ? 0 : 1;
}

// probed_late_sender.hpp's values, with MPI_Mprobe and MPI_Mrecv.
int check_probe(const std::string& path) {
    const cube::Report report = cube::read_cubex(path);
    const cube::CallPath probe{"main", "MPI_Mprobe"}, work{"main", "work"};
    constexpr double ns = 1e9;  // compared in ticks
    expect("Late Sender in MPI_Mprobe on rank 1", ns * cube::value_at(report, "mpi_latesender", probe, 1), 35);
    expect("Late Sender", ns * cube::total(report, "mpi_latesender"), 35);
    expect("Late Sender delay costs at work on rank 0", ns * cube::value_at(report, "delay_latesender", work, 0), 35);
    expect("critical path", ns * cube::total(report, "critical_path"), 65);
    expect("critical path at MPI_Mprobe on rank 1", ns * cube::value_at(report, "critical_path", probe, 1), 1);
    return failures == 0 ? 0 : 1;
}

// polled_late_sender.hpp's values, polling with MPI_Test.
int check_polling(const std::string& path) {
    const cube::Report report = cube::read_cubex(path);
    const cube::CallPath test{"main", "MPI_Test"}, work{"main", "work"};
    constexpr double ns = 1e9;  // compared in ticks
    expect("Late Sender in MPI_Test on rank 1", ns * cube::value_at(report, "mpi_latesender", test, 1), 15);
    expect("Late Sender", ns * cube::total(report, "mpi_latesender"), 15);
    expect("Late Sender delay costs at work on rank 0", ns * cube::value_at(report, "delay_latesender", work, 0), 15);
    expect("critical path", ns * cube::total(report, "critical_path"), 65);
    expect("critical path at MPI_Test on rank 1", ns * cube::value_at(report, "critical_path", test, 1), 8);
    return failures == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        const std::string mode = argc == 3 ? argv[1] : "";
        if (mode == "write") {
            testing::figure3_trace().write(argv[2]);
            return 0;
        }
        if (mode == "check") return check(argv[2]);
        if (mode == "write-sendrecv") {
            testing::sendrecv_exchange_trace().write(argv[2]);
            return 0;
        }
        if (mode == "check-sendrecv") return check_sendrecv(argv[2]);
        if (mode == "write-irecv") {
            testing::irecv_late_receiver_trace().write(argv[2]);
            return 0;
        }
        if (mode == "check-irecv") return check_irecv(argv[2]);
        if (mode == "write-nonblocking") {
            testing::nonblocking_allreduce_trace().write(argv[2]);
            return 0;
        }
        if (mode == "check-nonblocking") return check_nonblocking(argv[2]);
        if (mode == "write-probe") {
            testing::probed_late_sender_trace("MPI_Mprobe", "MPI_Mrecv").write(argv[2]);
            return 0;
        }
        if (mode == "check-probe") return check_probe(argv[2]);
        if (mode == "write-polling") {
            testing::polled_late_sender_trace(testing::PollingStyle::Test).write(argv[2]);
            return 0;
        }
        if (mode == "check-polling") return check_polling(argv[2]);
        if (mode == "write-sparse") {
            testing::sparse_alltoallv_trace().write(argv[2]);
            return 0;
        }
        if (mode == "check-sparse") return check_sparse(argv[2]);
        std::fprintf(stderr, "usage: backward_report_check write[-sendrecv|-irecv|-nonblocking|-probe|-polling|-sparse] DIR | "
                             "check[-sendrecv|-irecv|-nonblocking|-probe|-polling|-sparse] REPORT\n");
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "backward_report_check: %s\n", e.what());
        return 1;
    }
}
