// MPI-IO calls by what they do, by name as Scalasca's reports classify
// them, so that both tools split file time and count file operations
// alike: file management (open, close, delete, views, seeks, sizes and
// queries), individual reads and writes, and collective ones (the _all,
// _at_all and _ordered forms, blocking, split or non-blocking).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "common/metric_tree.hpp"

namespace hindsight {

struct FileCall {
    enum class Kind : std::uint8_t { None, Management, Individual, Collective };
    Kind kind = Kind::None;
    bool reads = false;     // of Individual and Collective: a read, else a write
    bool one_rank = false;  // of Management: concerns this rank's view only (delete, get_*, seek*)
};

FileCall file_call(std::string_view name);

// The time metric of the call's own time (MpiMgmtFile, MpiIoIndividual,
// MpiIoCollective); none for other calls.
std::optional<metrics::Metric> file_time_metric(const FileCall& call);

// The count metric each visit of the call adds one to. As in Scalasca's
// reports, management calls count as file operations too: those that
// concern one rank's view (delete, get_*, seek*) as individual operations,
// the others (open, close, set_*, sync, preallocate, which are collective
// in MPI) as collective ones; neither as a read or a write.
std::optional<metrics::Metric> file_count_metric(const FileCall& call);

}  // namespace hindsight
