// Command line of hindsight-analyze.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "analyses/graph/what_if.hpp"

namespace hindsight::analyzer {

struct Options {
    std::string trace;          // the archive's anchor file, .../traces.otf2 (also when its directory was given)
    std::string report;         // the .cubex to write
    std::string page;           // its HTML page (report/page.hpp); empty: none
    bool critical_path = true;
    bool root_cause = true;
    bool graph = false;                 // the activity graph's pass (--graph, or any --what-if)
    std::vector<analyses::WhatIf> what_ifs;  // --what-if, in order
    unsigned suggestions = 3;           // automatic what-ifs shown in the summary
    std::size_t timeline_waits = 3;     // timeline windows per pattern (--timeline); 0: none
    double timeout_seconds = 300;  // replay gives up after this long without progress
    bool quiet = false;            // no summary on stdout, no progress on stderr
    bool stats = false;            // phase times and memory, for benchmarks
    bool strict = false;           // exit with kStrictStatus when anything did not pair up
    int cores_per_node = 0;        // for the placement advice; 0: the most ranks any node of the trace ran
};

// The exit status of a run with --strict that left out part of the trace
// (messages or collective operations that did not pair up), after writing
// the report and the summary.
inline constexpr int kStrictStatus = 3;

// The analyzer's one environment variable, yes/no (common/yes_no.hpp):
// whether large blocks are advised as transparent huge pages (default yes).
inline constexpr const char* kHugePagesVariable = "HINDSIGHT_HUGE_PAGES";

// Parses the command line, and checks kHugePagesVariable. Returns nullopt
// after printing the help or the version to `out` (--help, --version).
// Throws hindsight::Error on bad usage (without a file) or a bad variable.
std::optional<Options> parse_options(int argc, char** argv, std::ostream& out);

// The options --help shows, one line each: "--LONG switch|value [-S]"
// (whether it takes a value, and its short form). The `hindsight` driver,
// which passes them on, is generated from this table (driver/meson.build).
void print_option_table(std::ostream& out);

}  // namespace hindsight::analyzer
