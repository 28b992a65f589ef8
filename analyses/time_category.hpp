// Which time metric a region's own time belongs to: common/time_category.hpp
// (the collector's profiles split time the same way).
#pragma once

#include "analyses/metrics.hpp"
#include "common/time_category.hpp"

namespace hindsight::analyses {

using hindsight::is_buffer_flush;
using hindsight::is_mpi_region;
using hindsight::time_category;

}  // namespace hindsight::analyses
