// Command line of hindsight-report.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <optional>
#include <string>

#include "report/table.hpp"

namespace hindsight::report {

struct Options {
    std::string report;        // the .cubex to show (with --diff: the later run)
    std::string before;        // --diff: the earlier run; empty otherwise
    std::string page;          // the page to write (default: beside the report, .html)
    bool text = false;         // print tables instead of writing a page
    Format format = Format::Text;
    std::string metric;        // --metric: a metric's unique name
    std::string call_path;     // --callpath: region names from the root, joined by '/'
    std::size_t top = 0;       // --top; 0: the mode's default
    bool score = false;        // --score: plan a trace from a profile
    std::string filter_out;    // --filter-out: with --score, write the advised filter file here
};

// Parses the command line. Returns nullopt after printing the help or the
// version to `out`. Throws hindsight::Error (without a file) on bad usage.
std::optional<Options> parse_options(int argc, char** argv, std::ostream& out);

}  // namespace hindsight::report
