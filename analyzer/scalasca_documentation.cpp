#include "analyzer/scalasca_documentation.hpp"

#include <algorithm>
#include <array>

namespace hindsight::analyzer {

namespace {

// Our metrics that Scalasca's scalasca_patterns.html has an entry for, under
// the same identifier (as its reports and remapping specification link
// them). A metric of our own stays off this list: it gets no link rather
// than one to an entry that does not exist.
constexpr std::array kDocumented = std::to_array<std::string_view>({
    "time", "execution", "comp", "mpi", "mpi_management", "mpi_init_exit", "mpi_init_completion",
    "mpi_finalize_wait", "mpi_mgmt_comm", "mpi_mgmt_win", "mpi_rma_wait_at_create", "mpi_rma_wait_at_free",
    "mpi_synchronization", "mpi_sync_collective", "mpi_barrier_wait", "mpi_barrier_completion",
    "mpi_rma_synchronization", "mpi_rma_sync_active", "mpi_rma_sync_late_post", "mpi_rma_early_wait",
    "mpi_rma_late_complete", "mpi_rma_wait_at_fence", "mpi_rma_early_fence",
    "mpi_rma_sync_passive", "mpi_rma_sync_lock_competition", "mpi_rma_sync_wait_for_progress",
    "mpi_communication", "mpi_point2point",
    "mpi_latesender", "mpi_latesender_wo", "mpi_lswo_different", "mpi_lswo_same", "mpi_latereceiver",
    "mpi_collective", "mpi_earlyreduce", "mpi_earlyscan", "mpi_latebroadcast", "mpi_wait_nxn",
    "mpi_nxn_completion", "mpi_rma_communication", "mpi_rma_comm_late_post", "mpi_rma_comm_lock_competition",
    "mpi_rma_comm_wait_for_progress",
    "overhead", "visits", "syncs", "syncs_p2p", "syncs_send", "mpi_slr_count",
    "syncs_recv", "mpi_sls_count", "mpi_slswo_count", "syncs_coll", "mpi_rma_pairsync_count",
    "mpi_rma_pairsync_unneeded_count", "comms", "comms_p2p", "comms_send",
    "mpi_clr_count", "comms_recv", "mpi_cls_count", "mpi_clswo_count", "comms_coll", "comms_cxch",
    "comms_csrc", "comms_cdst", "syncs_rma", "syncs_rma_active", "syncs_rma_passive", "comms_rma",
    "comms_rma_puts", "comms_rma_gets", "comms_rma_atomics", "bytes", "bytes_p2p", "bytes_sent", "bytes_rcvd", "bytes_coll",
    "bytes_cout", "bytes_cin", "bytes_rma", "bytes_put", "bytes_get", "delay", "delay_mpi", "delay_p2p", "delay_latesender_aggregate",
    "delay_latesender", "delay_latesender_longterm", "delay_latereceiver_aggregate",
    "delay_latereceiver", "delay_latereceiver_longterm", "delay_collective", "delay_barrier_aggregate",
    "delay_barrier", "delay_barrier_longterm", "delay_n21_aggregate", "delay_n21",
    "delay_n21_longterm", "delay_12n_aggregate", "delay_12n", "delay_12n_longterm",
    "delay_n2n_aggregate", "delay_n2n", "delay_n2n_longterm", "waitstates_propagating_vs_terminal",
    "mpi_wait_propagating", "mpi_wait_propagating_ls", "mpi_wait_propagating_lr", "mpi_wait_terminal",
    "mpi_wait_terminal_ls", "mpi_wait_terminal_lr", "waitstates_direct_vs_indirect", "mpi_wait_direct",
    "mpi_wait_direct_latesender", "mpi_wait_direct_latereceiver", "mpi_wait_indirect",
    "mpi_wait_indirect_latesender", "mpi_wait_indirect_latereceiver", "critical_path",
    "critical_path_imbalance", "performance_impact", "performance_impact_criticalpath",
    "critical_path_activities", "critical_imbalance_impact", "intra_partition_imbalance",
    "inter_partition_imbalance", "non_critical_path_activities", "omp_time", "omp_management", "omp_fork",
    "omp_synchronization", "omp_barrier", "omp_ebarrier", "omp_ebarrier_wait", "omp_ibarrier",
    "omp_ibarrier_wait", "omp_critical", "omp_lock_contention_critical", "omp_lock_api",
    "omp_lock_contention_api", "omp_ordered", "omp_taskwait", "omp_flush", "omp_idle_threads",
    "omp_limited_parallelism", "delay_omp", "delay_ompbarrier_aggregate", "delay_ompbarrier",
    "delay_ompbarrier_longterm", "delay_ompidle_aggregate", "delay_ompidle", "delay_ompidle_longterm",
});

}  // namespace

const std::vector<std::string>& scalasca_mirrors() {
    static const std::vector<std::string> mirrors{
        "http://apps.fz-juelich.de/scalasca/releases/scalasca/2.6/help/",
        "http://perftools.pages.jsc.fz-juelich.de/cicd/scalasca/tags/scalasca-2.6/patterns/",
        "http://perftools.pages.jsc.fz-juelich.de/cicd/scalasca/tags/latest/patterns/",
    };
    return mirrors;
}

std::string scalasca_pattern_url(std::string_view unique_name) {
    if (std::find(kDocumented.begin(), kDocumented.end(), unique_name) == kDocumented.end()) return "";
    return "@mirror@scalasca_patterns.html#" + std::string(unique_name);
}

}  // namespace hindsight::analyzer
