// The page's findings look for the metrics the analyses write: every wait
// pattern with its delay costs, by Scalasca's identifiers, and the limits
// the terminal summary applies, all from the pattern rows
// (common/wait_pattern_rows.def).
#include <string>

#include <catch2/catch.hpp>

#include "analyses/metrics.hpp"
#include "report/findings.hpp"
#include "report/page.hpp"
#include "tests/report/report_fixture.hpp"

using namespace hindsight;


TEST_CASE("the findings name each wait pattern's metrics as Scalasca's reports do", "[report]") {
    // Each pattern with a metric of its own, in the summary's order: Late
    // Sender, Late Receiver, barrier, N x N, Early Reduce, Late Broadcast,
    // collective I/O, the RMA window's fence, Late Post (in synchronization
    // and in communication), Early Wait, Lock Contention (both), the
    // window's creation and release, Early Scan, MPI_Init, MPI_Finalize;
    // those with delay costs name their short- and long-term parts (one
    // wait in two calls shares them); start-up and finishing waits are
    // noise while small.
    const std::string expected =
        "{\"time\":\"time\",\"criticalPath\":[\"critical_path\",\"critical_path_imbalance\"],"
        "\"wallClock\":\"Hindsight wall clock\",\"activityGraph\":\"Hindsight activity graph\","
        "\"run\":\"Hindsight run\",\"difference\":\"Hindsight difference\",\"delay\":\"delay\","
        "\"imbalance\":[\"critical_imbalance_impact\",\"intra_partition_imbalance\","
        "\"inter_partition_imbalance\",\"imbalance\"],\"waitStates\":["
        "[\"mpi_latesender\",\"delay_latesender\",\"delay_latesender_longterm\",false],"
        "[\"mpi_latereceiver\",\"delay_latereceiver\",\"delay_latereceiver_longterm\",false],"
        "[\"mpi_barrier_wait\",\"delay_barrier\",\"delay_barrier_longterm\",false],"
        "[\"mpi_wait_nxn\",\"delay_n2n\",\"delay_n2n_longterm\",false],"
        "[\"mpi_earlyreduce\",\"delay_n21\",\"delay_n21_longterm\",false],"
        "[\"mpi_latebroadcast\",\"delay_12n\",\"delay_12n_longterm\",false],"
        "[\"mpi_io_wait_nxn\",\"delay_io_n2n\",\"delay_io_n2n_longterm\",false],"
        "[\"mpi_rma_wait_at_fence\",\"delay_rma_fence\",\"delay_rma_fence_longterm\",false],"
        "[\"mpi_rma_sync_late_post\",\"delay_rma_latepost\",\"delay_rma_latepost_longterm\",false],"
        "[\"mpi_rma_comm_late_post\",\"delay_rma_latepost\",\"delay_rma_latepost_longterm\",false],"
        "[\"mpi_rma_early_wait\",\"delay_rma_earlywait\",\"delay_rma_earlywait_longterm\",false],"
        "[\"mpi_rma_sync_lock_competition\",\"delay_rma_lockcontention\","
        "\"delay_rma_lockcontention_longterm\",false],"
        "[\"mpi_rma_comm_lock_competition\",\"delay_rma_lockcontention\","
        "\"delay_rma_lockcontention_longterm\",false],"
        "[\"mpi_rma_sync_wait_for_progress\",\"delay_rma_waitforprogress\","
        "\"delay_rma_waitforprogress_longterm\",false],"
        "[\"mpi_rma_comm_wait_for_progress\",\"delay_rma_waitforprogress\","
        "\"delay_rma_waitforprogress_longterm\",false],"
        "[\"mpi_rma_wait_at_create\",\"delay_rma_create\",\"delay_rma_create_longterm\",false],"
        "[\"mpi_rma_wait_at_free\",\"delay_rma_free\",\"delay_rma_free_longterm\",false],"
        "[\"mpi_earlyscan\",\"\",\"\",false],"
        "[\"mpi_init_completion\",\"\",\"\",true],"
        "[\"mpi_finalize_wait\",\"\",\"\",true]]}";
    CHECK(report::findings_json() == expected);
    CHECK(report::wait_state_names().size() == 20);
    // ("imbalance", the computational imbalance, only Scalasca writes.)
    for (const char* name : {"time", "critical_path", "critical_path_imbalance", "delay", "critical_imbalance_impact",
                             "intra_partition_imbalance", "inter_partition_imbalance"})
        CHECK(analyses::metric_by_name(name).has_value());
}

TEST_CASE("the page's script applies the summary's limits to the wait states", "[report]") {
    CHECK(report::noise_share_text() == "0.05");
    CHECK(report::wait_states_shown_text() == "5");
    const std::string page = report::page_html(testing::tiny_report(), "t");
    // Filled into the script where it compares and cuts the list, and no
    // marker left behind.
    CHECK(page.find("model.metricTotal(w.m, true) <= 0.05 * timeTotal") != std::string::npos);
    CHECK(page.find(".sort((a, b) => b.total - a.total).slice(0, 5);") != std::string::npos);
    CHECK(page.find("@NOISE_SHARE@") == std::string::npos);
    CHECK(page.find("@WAIT_STATES_SHOWN@") == std::string::npos);
}
