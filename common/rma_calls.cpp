#include "common/rma_calls.hpp"

#include <array>

namespace hindsight {

using metrics::Metric;
namespace {

struct RmaCallName {
    std::string_view name;
    RmaCall call;
};

// Every one-sided call of MPI 3.1 with a class; other MPI_Win_* calls
// (attributes, names, info, error handlers, the group) manage the window.
constexpr std::array<RmaCallName, 25> kRmaCalls{{
    {"MPI_Win_fence", RmaCall::ActiveSync},
    {"MPI_Win_post", RmaCall::ActiveSync},
    {"MPI_Win_start", RmaCall::ActiveSync},
    {"MPI_Win_complete", RmaCall::ActiveSync},
    {"MPI_Win_wait", RmaCall::ActiveSync},
    {"MPI_Win_test", RmaCall::ActiveSync},

    {"MPI_Win_lock", RmaCall::PassiveSync},
    {"MPI_Win_unlock", RmaCall::PassiveSync},
    {"MPI_Win_lock_all", RmaCall::PassiveSync},
    {"MPI_Win_unlock_all", RmaCall::PassiveSync},
    {"MPI_Win_flush", RmaCall::PassiveSync},
    {"MPI_Win_flush_all", RmaCall::PassiveSync},
    {"MPI_Win_flush_local", RmaCall::PassiveSync},
    {"MPI_Win_flush_local_all", RmaCall::PassiveSync},
    {"MPI_Win_sync", RmaCall::PassiveSync},

    {"MPI_Put", RmaCall::Communication},
    {"MPI_Get", RmaCall::Communication},
    {"MPI_Accumulate", RmaCall::Communication},
    {"MPI_Get_accumulate", RmaCall::Communication},
    {"MPI_Fetch_and_op", RmaCall::Communication},
    {"MPI_Compare_and_swap", RmaCall::Communication},
    {"MPI_Rput", RmaCall::Communication},
    {"MPI_Rget", RmaCall::Communication},
    {"MPI_Raccumulate", RmaCall::Communication},
    {"MPI_Rget_accumulate", RmaCall::Communication},
}};

}  // namespace

RmaCall rma_call(std::string_view name) {
    for (const RmaCallName& call : kRmaCalls)
        if (call.name == name) return call.call;
    return name.starts_with("MPI_Win_") ? RmaCall::WindowManagement : RmaCall::None;
}

std::optional<Metric> rma_time_metric(RmaCall call) {
    switch (call) {
    case RmaCall::None: return std::nullopt;
    case RmaCall::WindowManagement: return Metric::MpiMgmtWin;
    case RmaCall::ActiveSync: return Metric::MpiRmaSyncActive;
    case RmaCall::PassiveSync: return Metric::MpiRmaSyncPassive;
    case RmaCall::Communication: return Metric::MpiRmaCommunication;
    }
    return std::nullopt;
}

std::optional<Metric> rma_sync_count_metric(RmaCall call) {
    switch (call) {
    case RmaCall::ActiveSync: return Metric::SyncsRmaActive;
    case RmaCall::PassiveSync: return Metric::SyncsRmaPassive;
    default: return std::nullopt;
    }
}

}  // namespace hindsight
