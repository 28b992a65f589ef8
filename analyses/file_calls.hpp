// MPI-IO calls by what they do: common/file_calls.hpp (time_category
// needs them, and the collector's profiles split time with it).
#pragma once

#include "analyses/metrics.hpp"
#include "common/file_calls.hpp"

namespace hindsight::analyses {

using hindsight::file_call;
using hindsight::file_count_metric;
using hindsight::file_time_metric;
using hindsight::FileCall;

}  // namespace hindsight::analyses
