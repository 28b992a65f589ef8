// What-if scenarios of the activity graph (activity_graph.hpp): a change of
// the time some call path takes, for which the longest path is computed
// again. Written on the command line as comma-separated key=value parts:
//   callpath=main/work,scale=0.5     the call path takes half its time
//   callpath=main/work,rank=3,scale=0 ... only on rank 3, here not at all
//   callpath=main/work,balance       every rank takes the average time
// A call path's time is its own and that of the call paths below it that
// are not MPI calls (so "main/solve" includes the kernels solve calls but
// not its communication); an MPI call path names just that call.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "trace/local_trace.hpp"

namespace hindsight::analyses {

struct WhatIf {
    std::string text;       // as written, for the report
    std::string call_path;  // region names from the root, '/'-separated
    int rank = -1;          // -1: every rank
    bool balance = false;   // instead of scale
    double scale = 1.0;
    // Automatic suggestions balance a call path's own time only, without
    // the call paths below it.
    bool own_time_only = false;
};

// Parses one --what-if value; throws hindsight::Error naming the problem.
WhatIf parse_what_if(std::string_view text);

// The call path "main/work" of `trace`'s call tree, names from the root, or
// kNoCallPath.
CallPathId find_from_root(const trace::LocalTrace& trace, std::string_view path);

// The call path "main/work" of `trace`'s call tree, or kNoCallPath: names
// from the root, or the end of a call path's names ("main/work" finds
// "app/main/work"; the first such call path).
CallPathId find_call_path(const trace::LocalTrace& trace, std::string_view path);

// Which call paths a what-if changes: `root` and, unless own_time_only,
// the call paths below it that are not MPI calls.
std::vector<bool> what_if_scope(const trace::LocalTrace& trace, CallPathId root, bool own_time_only);

}  // namespace hindsight::analyses
