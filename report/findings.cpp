#include "report/findings.hpp"

#include <array>

#include "report/json.hpp"

namespace hindsight::report {

namespace {

constexpr std::array<WaitStateNames, 9> kWaitStates{{
    {"mpi_latesender", "delay_latesender", "delay_latesender_longterm", false},
    {"mpi_latereceiver", "delay_latereceiver", "delay_latereceiver_longterm", false},
    {"mpi_barrier_wait", "delay_barrier", "delay_barrier_longterm", false},
    {"mpi_wait_nxn", "delay_n2n", "delay_n2n_longterm", false},
    {"mpi_earlyreduce", "delay_n21", "delay_n21_longterm", false},
    {"mpi_latebroadcast", "delay_12n", "delay_12n_longterm", false},
    {"mpi_earlyscan", "", "", false},
    {"mpi_init_completion", "", "", true},
    {"mpi_finalize_wait", "", "", true},
}};

}  // namespace

std::span<const WaitStateNames> wait_state_names() { return kWaitStates; }

std::string findings_json() {
    std::string j = "{\"time\":\"time\",\"criticalPath\":\"critical_path\",\"delay\":\"delay\","
                    "\"imbalance\":[\"critical_path_imbalance\",\"imbalance\"],\"waitStates\":[";
    const char* sep = "";
    for (const WaitStateNames& w : kWaitStates) {
        j += sep + ("[" + json_string(w.wait) + "," + json_string(w.short_term_delay) + "," +
                    json_string(w.long_term_delay) + "," + (w.noise_when_small ? "true" : "false") + "]");
        sep = ",";
    }
    return j + "]}";
}

}  // namespace hindsight::report
