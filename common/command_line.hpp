// What every tool's command line has in common: parsing with
// Boost.Program_options, bad usage as one hindsight::Error, --help and
// --version. Header-only, so that common/ itself needs no Boost; the tools
// that include it link Boost.Program_options.
#pragma once

#include <ostream>
#include <string>

#include <boost/program_options.hpp>

#include "common/error.hpp"
#include "common/version.hpp"

namespace hindsight {

// Parses the command line into `vm`: the `visible` options (what --help
// shows), the `hidden` ones, and the positional arguments as `positional`
// assigns them. Returns false after printing the help or "PROGRAM VERSION"
// to `out` (--help, --version). Throws hindsight::Error (without a file) on
// bad usage.
inline bool parse_command_line(int argc, char** argv, const boost::program_options::options_description& visible,
                               const boost::program_options::options_description& hidden,
                               const boost::program_options::positional_options_description& positional,
                               boost::program_options::variables_map& vm, std::ostream& out, const char* program) {
    namespace po = boost::program_options;
    po::options_description all;
    all.add(visible).add(hidden);
    try {
        po::store(po::command_line_parser(argc, argv).options(all).positional(positional).run(), vm);
        po::notify(vm);
    } catch (const po::error& e) {
        throw Error("", std::string(e.what()) + " (see --help)");
    }
    if (vm.count("help")) {
        out << visible << '\n';
        return false;
    }
    if (vm.count("version")) {
        out << program << ' ' << kVersion << '\n';
        return false;
    }
    return true;
}

}  // namespace hindsight
