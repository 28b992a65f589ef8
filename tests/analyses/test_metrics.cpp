// The metric table against Scalasca's metric tree (identifiers, display
// names, units and parents as Scalasca's reports have them), and the checks
// the rows (common/metric_rows.def) must pass.
#include <catch2/catch.hpp>

#include <array>
#include <optional>
#include <set>
#include <string>

#include "analyses/metrics.hpp"

using namespace hindsight;
using namespace hindsight::analyses;

namespace {

struct Expected {
    const char* unique_name;
    const char* parent;  // "" for a root
    const char* display_name;
    const char* unit;    // "sec", "occ" or "bytes"
};

// Scalasca's MPI metric tree, in its order, restricted to the metrics
// Hindsight measures (no computational imbalance), with Hindsight's
// additions where they stand (marked).
const Expected kScalascaTree[] = {
    {"time", "", "Time", "sec"},
    {"execution", "time", "Execution", "sec"},
    {"comp", "execution", "Computation", "sec"},
    {"mpi", "execution", "MPI", "sec"},
    {"mpi_management", "mpi", "Management", "sec"},
    {"mpi_init_exit", "mpi_management", "Init/Finalize", "sec"},
    {"mpi_init_completion", "mpi_init_exit", "Initialization Completion", "sec"},
    {"mpi_finalize_wait", "mpi_init_exit", "Wait at Finalize", "sec"},
    {"mpi_mgmt_comm", "mpi_management", "Communicator", "sec"},
    {"mpi_mgmt_file", "mpi_management", "File", "sec"},
    {"mpi_mgmt_win", "mpi_management", "Window", "sec"},
    {"mpi_rma_wait_at_create", "mpi_mgmt_win", "Wait at Window Create", "sec"},
    {"mpi_rma_wait_at_free", "mpi_mgmt_win", "Wait at Window Free", "sec"},
    {"mpi_synchronization", "mpi", "Synchronization", "sec"},
    {"mpi_sync_collective", "mpi_synchronization", "Collective", "sec"},
    {"mpi_barrier_wait", "mpi_sync_collective", "Wait at Barrier", "sec"},
    {"mpi_barrier_completion", "mpi_sync_collective", "Barrier Completion", "sec"},
    {"mpi_rma_synchronization", "mpi_synchronization", "One-sided", "sec"},
    {"mpi_rma_sync_active", "mpi_rma_synchronization", "Active target", "sec"},
    {"mpi_rma_sync_late_post", "mpi_rma_sync_active", "Late Post", "sec"},
    {"mpi_rma_early_wait", "mpi_rma_sync_active", "Early Wait", "sec"},
    {"mpi_rma_late_complete", "mpi_rma_early_wait", "Late Complete", "sec"},
    {"mpi_rma_wait_at_fence", "mpi_rma_sync_active", "Wait at Fence", "sec"},
    {"mpi_rma_early_fence", "mpi_rma_wait_at_fence", "Early Fence", "sec"},
    {"mpi_rma_sync_passive", "mpi_rma_synchronization", "Passive target", "sec"},
    {"mpi_rma_sync_lock_competition", "mpi_rma_sync_passive", "Lock Contention", "sec"},
    {"mpi_rma_sync_wait_for_progress", "mpi_rma_sync_passive", "Wait for Progress", "sec"},
    {"mpi_communication", "mpi", "Communication", "sec"},
    {"mpi_point2point", "mpi_communication", "Point-to-point", "sec"},
    {"mpi_latesender", "mpi_point2point", "Late Sender", "sec"},
    {"mpi_latesender_wo", "mpi_latesender", "Messages in Wrong Order", "sec"},
    {"mpi_lswo_different", "mpi_latesender_wo", "From different sources", "sec"},
    {"mpi_lswo_same", "mpi_latesender_wo", "From same source", "sec"},
    {"mpi_latereceiver", "mpi_point2point", "Late Receiver", "sec"},
    {"mpi_collective", "mpi_communication", "Collective", "sec"},
    {"mpi_earlyreduce", "mpi_collective", "Early Reduce", "sec"},
    {"mpi_earlyscan", "mpi_collective", "Early Scan", "sec"},
    {"mpi_latebroadcast", "mpi_collective", "Late Broadcast", "sec"},
    {"mpi_wait_nxn", "mpi_collective", "Wait at N x N", "sec"},
    {"mpi_nxn_completion", "mpi_collective", "N x N Completion", "sec"},
    {"mpi_rma_communication", "mpi_communication", "One-sided", "sec"},
    {"mpi_rma_comm_late_post", "mpi_rma_communication", "Late Post", "sec"},
    {"mpi_rma_comm_lock_competition", "mpi_rma_communication", "Lock Contention", "sec"},
    {"mpi_rma_comm_wait_for_progress", "mpi_rma_communication", "Wait for Progress", "sec"},
    {"mpi_io", "mpi", "File I/O", "sec"},
    {"mpi_io_individual", "mpi_io", "Individual", "sec"},
    {"mpi_io_collective", "mpi_io", "Collective", "sec"},
    // Hindsight's wait state of collective file operations: not in
    // Scalasca's tree, placed below the time it is part of.
    {"mpi_io_wait_nxn", "mpi_io_collective", "Wait at collective I/O", "sec"},
    {"omp_time", "execution", "OpenMP", "sec"},
    {"omp_management", "omp_time", "Management", "sec"},
    {"omp_fork", "omp_management", "Fork", "sec"},
    {"omp_synchronization", "omp_time", "Synchronization", "sec"},
    {"omp_barrier", "omp_synchronization", "Barrier", "sec"},
    {"omp_ebarrier", "omp_barrier", "Explicit", "sec"},
    {"omp_ebarrier_wait", "omp_ebarrier", "Wait at Explicit Barrier", "sec"},
    {"omp_ibarrier", "omp_barrier", "Implicit", "sec"},
    {"omp_ibarrier_wait", "omp_ibarrier", "Wait at Implicit Barrier", "sec"},
    {"omp_critical", "omp_synchronization", "Critical", "sec"},
    {"omp_lock_contention_critical", "omp_critical", "Critical Contention", "sec"},
    {"omp_lock_api", "omp_synchronization", "Lock API", "sec"},
    {"omp_lock_contention_api", "omp_lock_api", "Lock API Contention", "sec"},
    {"omp_ordered", "omp_synchronization", "Ordered", "sec"},
    {"omp_taskwait", "omp_synchronization", "Taskwait", "sec"},
    {"omp_flush", "omp_time", "Flush", "sec"},
    {"overhead", "time", "Overhead", "sec"},
    {"omp_idle_threads", "time", "OMP Idle Threads", "sec"},
    {"omp_limited_parallelism", "omp_idle_threads", "OMP Limited parallelism", "sec"},
    {"visits", "", "Visits", "occ"},
    {"syncs", "", "MPI synchronizations", "occ"},
    {"syncs_p2p", "syncs", "Point-to-point", "occ"},
    {"syncs_send", "syncs_p2p", "Sends", "occ"},
    {"mpi_slr_count", "syncs_send", "Late Receivers", "occ"},
    {"syncs_recv", "syncs_p2p", "Receives", "occ"},
    {"mpi_sls_count", "syncs_recv", "Late Senders", "occ"},
    {"mpi_slswo_count", "mpi_sls_count", "Messages in Wrong Order", "occ"},
    {"syncs_coll", "syncs", "Collective", "occ"},
    {"syncs_rma", "syncs", "One-sided", "occ"},
    {"syncs_rma_active", "syncs_rma", "Active target", "occ"},
    {"syncs_rma_passive", "syncs_rma", "Passive target", "occ"},
    {"mpi_rma_pairsync_count", "", "Pairwise synchronizations for RMA", "occ"},
    {"mpi_rma_pairsync_unneeded_count", "mpi_rma_pairsync_count", "Unneeded synchronizations", "occ"},
    {"comms", "", "MPI communications", "occ"},
    {"comms_p2p", "comms", "Point-to-point", "occ"},
    {"comms_send", "comms_p2p", "Sends", "occ"},
    {"mpi_clr_count", "comms_send", "Late Receivers", "occ"},
    {"comms_recv", "comms_p2p", "Receives", "occ"},
    {"mpi_cls_count", "comms_recv", "Late Senders", "occ"},
    {"mpi_clswo_count", "mpi_cls_count", "Messages in Wrong Order", "occ"},
    {"comms_coll", "comms", "Collective", "occ"},
    {"comms_cxch", "comms_coll", "Exchange", "occ"},
    {"comms_csrc", "comms_coll", "As source", "occ"},
    {"comms_cdst", "comms_coll", "As destination", "occ"},
    {"comms_rma", "comms", "One-sided", "occ"},
    {"comms_rma_puts", "comms_rma", "Puts", "occ"},
    {"comms_rma_gets", "comms_rma", "Gets", "occ"},
    {"comms_rma_atomics", "comms_rma", "Atomics", "occ"},
    {"mpi_file_ops", "", "MPI file operations", "occ"},
    {"mpi_file_iops", "mpi_file_ops", "Individual", "occ"},
    {"mpi_file_irops", "mpi_file_iops", "Reads", "occ"},
    {"mpi_file_iwops", "mpi_file_iops", "Writes", "occ"},
    {"mpi_file_cops", "mpi_file_ops", "Collective", "occ"},
    {"mpi_file_crops", "mpi_file_cops", "Reads", "occ"},
    {"mpi_file_cwops", "mpi_file_cops", "Writes", "occ"},
    {"bytes", "", "MPI bytes transferred", "bytes"},
    {"bytes_p2p", "bytes", "Point-to-point", "bytes"},
    {"bytes_sent", "bytes_p2p", "Sent", "bytes"},
    {"bytes_rcvd", "bytes_p2p", "Received", "bytes"},
    {"bytes_coll", "bytes", "Collective", "bytes"},
    {"bytes_cout", "bytes_coll", "Outgoing", "bytes"},
    {"bytes_cin", "bytes_coll", "Incoming", "bytes"},
    {"bytes_rma", "bytes", "One-sided", "bytes"},
    {"bytes_put", "bytes_rma", "Put", "bytes"},
    {"bytes_get", "bytes_rma", "Got", "bytes"},
    // Score-P's I/O byte metrics, as its profiles name them.
    {"io_bytes_read", "", "I/O bytes read", "bytes"},
    {"io_bytes_written", "", "I/O bytes written", "bytes"},
    {"delay", "", "Delay costs", "sec"},
    {"delay_mpi", "delay", "MPI", "sec"},
    {"delay_p2p", "delay_mpi", "Point-to-point", "sec"},
    {"delay_latesender_aggregate", "delay_p2p", "Late Sender", "sec"},
    {"delay_latesender", "delay_latesender_aggregate", "Short-term", "sec"},
    {"delay_latesender_longterm", "delay_latesender_aggregate", "Long-term", "sec"},
    {"delay_latereceiver_aggregate", "delay_p2p", "Late Receiver", "sec"},
    {"delay_latereceiver", "delay_latereceiver_aggregate", "Short-term", "sec"},
    {"delay_latereceiver_longterm", "delay_latereceiver_aggregate", "Long-term", "sec"},
    {"delay_collective", "delay_mpi", "Collective", "sec"},
    {"delay_barrier_aggregate", "delay_collective", "Wait at Barrier", "sec"},
    {"delay_barrier", "delay_barrier_aggregate", "Short-term", "sec"},
    {"delay_barrier_longterm", "delay_barrier_aggregate", "Long-term", "sec"},
    {"delay_n21_aggregate", "delay_collective", "Early Reduce", "sec"},
    {"delay_n21", "delay_n21_aggregate", "Short-term", "sec"},
    {"delay_n21_longterm", "delay_n21_aggregate", "Long-term", "sec"},
    {"delay_12n_aggregate", "delay_collective", "Late Broadcast", "sec"},
    {"delay_12n", "delay_12n_aggregate", "Short-term", "sec"},
    {"delay_12n_longterm", "delay_12n_aggregate", "Long-term", "sec"},
    {"delay_n2n_aggregate", "delay_collective", "Wait at N x N", "sec"},
    {"delay_n2n", "delay_n2n_aggregate", "Short-term", "sec"},
    {"delay_n2n_longterm", "delay_n2n_aggregate", "Long-term", "sec"},
    // The delay costs of Hindsight's collective I/O wait state.
    {"delay_io_n2n_aggregate", "delay_collective", "Wait at collective I/O", "sec"},
    {"delay_io_n2n", "delay_io_n2n_aggregate", "Short-term", "sec"},
    {"delay_io_n2n_longterm", "delay_io_n2n_aggregate", "Long-term", "sec"},
    // The delay costs of the waits at an RMA window's collective
    // operations: Scalasca has none.
    {"delay_rma_create_aggregate", "delay_collective", "Wait at Window Create", "sec"},
    {"delay_rma_create", "delay_rma_create_aggregate", "Short-term", "sec"},
    {"delay_rma_create_longterm", "delay_rma_create_aggregate", "Long-term", "sec"},
    {"delay_rma_free_aggregate", "delay_collective", "Wait at Window Free", "sec"},
    {"delay_rma_free", "delay_rma_free_aggregate", "Short-term", "sec"},
    {"delay_rma_free_longterm", "delay_rma_free_aggregate", "Long-term", "sec"},
    {"delay_rma_fence_aggregate", "delay_collective", "Wait at Fence", "sec"},
    {"delay_rma_fence", "delay_rma_fence_aggregate", "Short-term", "sec"},
    {"delay_rma_fence_longterm", "delay_rma_fence_aggregate", "Long-term", "sec"},
    {"delay_rma", "delay_mpi", "One-sided epochs", "sec"},
    {"delay_rma_latepost_aggregate", "delay_rma", "Late Post", "sec"},
    {"delay_rma_latepost", "delay_rma_latepost_aggregate", "Short-term", "sec"},
    {"delay_rma_latepost_longterm", "delay_rma_latepost_aggregate", "Long-term", "sec"},
    {"delay_rma_earlywait_aggregate", "delay_rma", "Early Wait", "sec"},
    {"delay_rma_earlywait", "delay_rma_earlywait_aggregate", "Short-term", "sec"},
    {"delay_rma_earlywait_longterm", "delay_rma_earlywait_aggregate", "Long-term", "sec"},
    {"delay_rma_lockcontention_aggregate", "delay_rma", "Lock Contention", "sec"},
    {"delay_rma_lockcontention", "delay_rma_lockcontention_aggregate", "Short-term", "sec"},
    {"delay_rma_lockcontention_longterm", "delay_rma_lockcontention_aggregate", "Long-term", "sec"},
    {"delay_rma_waitforprogress_aggregate", "delay_rma", "Wait for Progress", "sec"},
    {"delay_rma_waitforprogress", "delay_rma_waitforprogress_aggregate", "Short-term", "sec"},
    {"delay_rma_waitforprogress_longterm", "delay_rma_waitforprogress_aggregate", "Long-term", "sec"},
    {"delay_omp", "delay", "OpenMP", "sec"},
    {"delay_ompbarrier_aggregate", "delay_omp", "Wait at Barrier", "sec"},
    {"delay_ompbarrier", "delay_ompbarrier_aggregate", "Short-term", "sec"},
    {"delay_ompbarrier_longterm", "delay_ompbarrier_aggregate", "Long-term", "sec"},
    {"delay_ompidle_aggregate", "delay_omp", "Idle threads", "sec"},
    {"delay_ompidle", "delay_ompidle_aggregate", "Short-term", "sec"},
    {"delay_ompidle_longterm", "delay_ompidle_aggregate", "Long-term", "sec"},
    {"waitstates_propagating_vs_terminal", "", "MPI point-to-point wait states (propagating vs. terminal)", "sec"},
    {"mpi_wait_propagating", "waitstates_propagating_vs_terminal", "Propagating wait states", "sec"},
    {"mpi_wait_propagating_ls", "mpi_wait_propagating", "Late Sender", "sec"},
    {"mpi_wait_propagating_lr", "mpi_wait_propagating", "Late Receiver", "sec"},
    {"mpi_wait_terminal", "waitstates_propagating_vs_terminal", "Terminal wait states", "sec"},
    {"mpi_wait_terminal_ls", "mpi_wait_terminal", "Late Sender", "sec"},
    {"mpi_wait_terminal_lr", "mpi_wait_terminal", "Late Receiver", "sec"},
    {"waitstates_direct_vs_indirect", "", "MPI point-to-point wait states (direct vs. indirect)", "sec"},
    {"mpi_wait_direct", "waitstates_direct_vs_indirect", "Direct wait states", "sec"},
    {"mpi_wait_direct_latesender", "mpi_wait_direct", "Late Sender", "sec"},
    {"mpi_wait_direct_latereceiver", "mpi_wait_direct", "Late Receiver", "sec"},
    {"mpi_wait_indirect", "waitstates_direct_vs_indirect", "Indirect wait states", "sec"},
    {"mpi_wait_indirect_latesender", "mpi_wait_indirect", "Late Sender", "sec"},
    {"mpi_wait_indirect_latereceiver", "mpi_wait_indirect", "Late Receiver", "sec"},
    {"critical_path", "", "Critical path", "sec"},
    {"critical_path_imbalance", "critical_path", "Imbalance", "sec"},
    // Scalasca groups the performance-impact metrics below two metrics of
    // their own, which the shorter reference list leaves out.
    {"performance_impact", "", "Performance impact", "sec"},
    {"performance_impact_criticalpath", "performance_impact", "Critical-path activities", "sec"},
    {"critical_path_activities", "performance_impact_criticalpath", "Activity impact", "sec"},
    {"critical_imbalance_impact", "performance_impact_criticalpath", "Imbalance impact", "sec"},
    {"intra_partition_imbalance", "critical_imbalance_impact", "Intra-partition imbalance", "sec"},
    {"inter_partition_imbalance", "critical_imbalance_impact", "Inter-partition imbalance", "sec"},
    {"non_critical_path_activities", "performance_impact", "Non-critical-path activities", "sec"},
    // Hindsight's own, after Scalasca's tree.
    {"coll_calls", "", "Collective calls", "sec"},
    {"coll_wait_before", "coll_calls", "Wait before", "sec"},
    {"coll_execution", "coll_calls", "Execution", "sec"},
    {"coll_wait_after", "coll_calls", "Wait after", "sec"},};

const char* unit_name(Unit u) {
    switch (u) {
    case Unit::Seconds: return "sec";
    case Unit::Occurrences: return "occ";
    case Unit::Bytes: return "bytes";
    }
    return "?";
}

}  // namespace

TEST_CASE("metric table: every metric as in Scalasca's tree, in its order", "[metrics]") {
    const auto& table = metric_table();
    REQUIRE(table.size() == std::size(kScalascaTree));
    for (std::size_t i = 0; i < table.size(); ++i) {
        const MetricInfo& row = table[i];
        const Expected& want = kScalascaTree[i];
        INFO("row " << i << ": " << want.unique_name);
        CHECK(row.unique_name == want.unique_name);
        CHECK(row.display_name == want.display_name);
        CHECK(std::string(unit_name(row.unit)) == want.unit);
        const std::string parent = row.parent ? std::string(info(*row.parent).unique_name) : "";
        CHECK(parent == want.parent);
        CHECK(static_cast<std::size_t>(row.metric) == i);
        CHECK_FALSE(row.description.empty());
    }
}

TEST_CASE("metric table: lookups by enum and by name agree", "[metrics]") {
    std::set<std::string_view> names;
    for (const MetricInfo& row : metric_table()) {
        CHECK(names.insert(row.unique_name).second);
        CHECK(&info(row.metric) == &row);
        CHECK(metric_by_name(row.unique_name) == row.metric);
    }
    CHECK(metric_by_name("mpi_latesender") == Metric::MpiLateSender);
    CHECK_FALSE(metric_by_name("no_such_metric").has_value());
}

namespace {

// Whether each row's parent is the row before it or one of that row's
// ancestors: the report then lists every metric right below its parent's
// other descendants, as Scalasca's reports and CUBE's viewers do.
bool is_depth_first(const std::array<MetricInfo, kMetricCount>& rows) {
    const auto parent_of = [&](Metric m) {
        for (const MetricInfo& row : rows)
            if (row.metric == m) return row.parent;
        return std::optional<Metric>();
    };
    for (std::size_t i = 1; i < rows.size(); ++i) {
        if (!rows[i].parent) continue;
        bool found = false;
        for (std::optional<Metric> m = rows[i - 1].metric; m && !found; m = parent_of(*m))
            found = *m == *rows[i].parent;
        if (!found) return false;
    }
    return true;
}

}  // namespace

TEST_CASE("metric table: the rows are a tree in depth-first order", "[metrics]") {
    CHECK(is_depth_first(metric_table()));
    // Overhead (below time) between Computation and MPI (both below
    // execution) splits execution's children.
    auto split = metric_table();
    const auto overhead = split[static_cast<std::size_t>(Metric::Overhead)];
    for (auto i = static_cast<std::size_t>(Metric::Overhead); i > static_cast<std::size_t>(Metric::Mpi); --i)
        split[i] = split[i - 1];
    split[static_cast<std::size_t>(Metric::Mpi)] = overhead;
    CHECK_FALSE(is_depth_first(split));
}

// Whether the rows still pass the checks after `change`, on a copy.
template <typename Change>
bool valid_after(Change change) {
    auto rows = metric_table();
    change(rows);
    return metrics::is_valid_tree(rows);
}

TEST_CASE("metric table: the row checks reject a broken tree", "[metrics]") {
    using Rows = std::array<MetricInfo, kMetricCount>;
    const auto at = [](Metric m) { return static_cast<std::size_t>(m); };
    CHECK(valid_after([](Rows&) {}));
    // A child before its parent.
    CHECK_FALSE(valid_after([](Rows& rows) {
        std::swap(rows[0], rows[1]);
        rows[0].metric = Metric::Time;
        rows[1].metric = Metric::Execution;
    }));
    // A parent in another unit.
    CHECK_FALSE(valid_after([&](Rows& rows) { rows[at(Metric::MpiSlsCount)].parent = Metric::MpiLateSender; }));
    // An identifier twice.
    CHECK_FALSE(valid_after([&](Rows& rows) { rows[at(Metric::Comp)].unique_name = "mpi"; }));
    // A row without its description.
    CHECK_FALSE(valid_after([&](Rows& rows) { rows[at(Metric::Overhead)].description = ""; }));
}
