// hindsight-report --text: a report's values as tables, like the CubeLib
// tools cube_stat and cube_dump print them. Values are those a CUBE file
// stores (a metric including its sub-metrics, as the Cube browser shows a
// collapsed metric), summed over the threads of a rank (the table per rank
// lists the threads, too) -- or, for a minimum
// or maximum metric, their minimum or maximum (cube::aggregate) -- and
// reports holding own shares are converted first. A metric whose values the
// report does not hold (derived) is listed as "not computed".
#pragma once

#include <cstddef>
#include <map>
#include <string>

#include "common/cube/report.hpp"
#include "report/table.hpp"

namespace hindsight::report {

// How the tables name call paths: whole (scripts split them at '/'), or, for
// a terminal, with the middle of a path deeper than a dozen regions left out
// (cube::CallPathNames::abbreviated), which keeps a table of a deep call
// tree linear in its depth rather than quadratic.
enum class PathNames { Whole, Abbreviated };

// How metric_overview() chooses and labels the call paths of each metric.
struct Overview {
    std::size_t top = 5;
    PathNames names = PathNames::Whole;
    // The report is a difference of two (diff.hpp): each metric shows its
    // `top` largest increases and its `top` largest decreases, the larger
    // change first, and is listed when any call path changed, even if its
    // total did not.
    bool changes = false;
    // Said beside a metric's total, by unique name (e.g. that only one of
    // two compared reports has it).
    std::map<std::string, std::string> notes;
};

// Every metric with a non-zero total (indented along the metric tree), each
// followed by its `top` largest call paths (call-tree exclusive).
Table metric_overview(const cube::Report& report, const Overview& how);
Table metric_overview(const cube::Report& report, std::size_t top, PathNames names = PathNames::Whole);

// The call tree of `metric`: each call path with its inclusive value (with
// its callees) and exclusive value; call paths whose subtree is all zero
// are left out (not those whose values cancel, as a difference's can). Sums
// within a billionth of the values summed are 0, not rounding noise. With `top` > 0, only the `top` call paths of largest exclusive
// value, largest first, without indentation.
Table call_tree_table(const cube::Report& report, cube::MetricIndex metric, std::size_t top,
                      PathNames names = PathNames::Whole);

// `metric` at `cnode` on each rank, exclusive and inclusive; with `top` > 0
// only the `top` ranks of largest exclusive value, largest first. Where a
// rank has several threads (a hybrid run), each rank's row ("(all)" its
// threads together) is followed by one row per thread, named as the report
// names it: the system tree rank -> thread.
Table rank_table(const cube::Report& report, cube::MetricIndex metric, cube::CnodeIndex cnode, std::size_t top);

// A call path as region names from the root, joined by '/'.
std::string call_path_text(const cube::Report& report, cube::CnodeIndex cnode);

// The call path `text` names (region names from the root, joined by '/');
// kNone when there is none. Linear in the number of call paths.
cube::CnodeIndex find_call_path(const cube::Report& report, const std::string& text);

}  // namespace hindsight::report
