// The run a report is of, for its reader: the program's call, when it
// started, on how many ranks and which machine, how long it ran, and the
// tools that traced and analyzed it. The report keeps it as the attribute
// report::kRunAttribute (JSON), which the page shows and is titled after;
// the summary begins with it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/summary.hpp"
#include "trace/local_trace.hpp"

namespace hindsight::analyzer {

struct RunInformation {
    std::string program;  // as PROGRAM_BEGIN names it (empty: the trace does not say)
    std::vector<std::string> arguments;
    std::optional<std::uint64_t> start_unix_ns;  // the trace's start, where its clock says
    int ranks = 0;
    double wall_seconds = 0;
    std::string machine;             // the system tree's root
    std::vector<std::string> nodes;  // its compute nodes, in the trace's order
    std::string writer;              // the tool that wrote the trace
    std::string analyzer;            // "Hindsight <version>"
    std::string trace;               // the trace's path
};

// From rank 0's trace (the report's writer) and the run's facts.
RunInformation run_information(const trace::LocalTrace& trace, const RunFacts& facts);

// The attribute's value: {"program": ..., "arguments": [...], "start":
// "2026-11-27T19:40:39Z" or null, "ranks": ..., "wall_clock": seconds,
// "machine": ..., "nodes": [...], "writer": ..., "analyzer": ..., "trace": ...}.
std::string run_information_json(const RunInformation& run);

// "2026-11-27 19:40:39 UTC".
std::string utc_time(std::uint64_t unix_ns);

// The summary's line of it: "  run: PROGRAM ARGS, started ... on MACHINE
// (N nodes: FIRST, ...), traced by WRITER", with its newline.
std::string run_line(const RunInformation& run);

}  // namespace hindsight::analyzer
