// The page's findings look for the metrics the analyses write: every wait
// pattern with its delay costs, by Scalasca's identifiers, from the pattern
// rows (common/wait_pattern_rows.def).
#include <string>

#include <catch2/catch.hpp>

#include "analyses/metrics.hpp"
#include "report/findings.hpp"

using namespace hindsight;


TEST_CASE("the findings name each wait pattern's metrics as Scalasca's reports do", "[report]") {
    // Each pattern with a metric of its own, in the summary's order: Late
    // Sender, Late Receiver, barrier, N x N, Early Reduce, Late Broadcast,
    // Early Scan, MPI_Init, MPI_Finalize; those with delay costs name their
    // short- and long-term parts; start-up and finishing waits are noise
    // while small.
    const std::string expected =
        "{\"time\":\"time\",\"criticalPath\":\"critical_path\",\"delay\":\"delay\","
        "\"imbalance\":[\"critical_path_imbalance\",\"imbalance\"],\"waitStates\":["
        "[\"mpi_latesender\",\"delay_latesender\",\"delay_latesender_longterm\",false],"
        "[\"mpi_latereceiver\",\"delay_latereceiver\",\"delay_latereceiver_longterm\",false],"
        "[\"mpi_barrier_wait\",\"delay_barrier\",\"delay_barrier_longterm\",false],"
        "[\"mpi_wait_nxn\",\"delay_n2n\",\"delay_n2n_longterm\",false],"
        "[\"mpi_earlyreduce\",\"delay_n21\",\"delay_n21_longterm\",false],"
        "[\"mpi_latebroadcast\",\"delay_12n\",\"delay_12n_longterm\",false],"
        "[\"mpi_earlyscan\",\"\",\"\",false],"
        "[\"mpi_init_completion\",\"\",\"\",true],"
        "[\"mpi_finalize_wait\",\"\",\"\",true]]}";
    CHECK(report::findings_json() == expected);
    CHECK(report::wait_state_names().size() == 9);
    // ("imbalance", the computational imbalance, only Scalasca writes.)
    for (const char* name : {"time", "critical_path", "critical_path_imbalance", "delay"})
        CHECK(analyses::metric_by_name(name).has_value());
}
