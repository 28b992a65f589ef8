// MPI's one-sided communication (RMA) calls by what they do, by name, so
// that their time splits as Scalasca's metric tree splits it: window
// management (creating, freeing, attaching and querying windows),
// synchronization of active target epochs (fence, post, start, complete,
// wait, test), synchronization of passive target epochs (locks, flushes,
// MPI_Win_sync) and communication (puts, gets and the atomic operations).
// Scalasca names the MPI-2 calls; the MPI-3 ones join the class their
// purpose puts them in.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "common/metric_tree.hpp"

namespace hindsight {

enum class RmaCall : std::uint8_t { None, WindowManagement, ActiveSync, PassiveSync, Communication };

RmaCall rma_call(std::string_view name);

// The time metric of the call's own time (MpiMgmtWin, MpiRmaSyncActive,
// MpiRmaSyncPassive, MpiRmaCommunication); none for other calls.
std::optional<metrics::Metric> rma_time_metric(RmaCall call);

// The count metric each visit of a synchronization call adds one to
// (SyncsRmaActive, SyncsRmaPassive); none for other calls.
std::optional<metrics::Metric> rma_sync_count_metric(RmaCall call);

}  // namespace hindsight
