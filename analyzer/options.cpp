#include "analyzer/options.hpp"

#include <filesystem>
#include <ostream>

#include <boost/program_options.hpp>

#include "analyzer/trace_path.hpp"
#include "common/error.hpp"
#include "common/version.hpp"

namespace hindsight::analyzer {

namespace po = boost::program_options;

std::optional<Options> parse_options(int argc, char** argv, std::ostream& out) {
    Options options;
    bool no_critical_path = false, no_root_cause = false;
    po::options_description visible(
        "Usage: mpirun -n RANKS hindsight-analyze TRACE[/traces.otf2] [options]\n"
        "Analyzes an OTF2 trace of an MPI run on as many ranks as it has and writes a CUBE report.\n"
        "Options");
    std::vector<std::string> what_ifs;
    visible.add_options()
        ("help,h", "show this help")
        ("version", "show the version")
        ("output,o", po::value<std::string>(&options.report),
         "report to write (default: analysis.cubex next to traces.otf2)")
        ("no-critical-path", po::bool_switch(&no_critical_path), "skip the critical-path analysis")
        ("no-rootcause", po::bool_switch(&no_root_cause), "skip the root-cause (delay cost) analysis")
        ("what-if", po::value<std::vector<std::string>>(&what_ifs)->composing(),
         "predict the run time with a call path changed: 'callpath=main/work,scale=0.5' (also rank=N; "
         "'callpath=main/work,balance': every rank takes the average); may be repeated")
        ("graph", po::bool_switch(&options.graph),
         "also replay the program activity graph: its longest path and the most promising changes")
        ("suggestions", po::value<unsigned>(&options.suggestions)->default_value(3),
         "how many changes the activity graph suggests (0: none)")
        ("timeout", po::value<double>(&options.timeout_seconds)->default_value(300.0, "300"),
         "seconds the replay may wait without progress before it gives up")
        ("quiet,q", po::bool_switch(&options.quiet), "print no summary and no progress")
        ("stats", po::bool_switch(&options.stats), "print phase times and memory use (for benchmarks)");
    po::options_description hidden;
    hidden.add_options()("trace", po::value<std::string>(&options.trace));
    po::options_description all;
    all.add(visible).add(hidden);
    po::positional_options_description positional;
    positional.add("trace", 1);

    po::variables_map vm;
    try {
        po::store(po::command_line_parser(argc, argv).options(all).positional(positional).run(), vm);
        po::notify(vm);
    } catch (const po::error& e) {
        throw Error("", std::string(e.what()) + " (see --help)");
    }
    if (vm.count("help")) {
        out << visible << '\n';
        return std::nullopt;
    }
    if (vm.count("version")) {
        out << "hindsight-analyze " << kVersion << '\n';
        return std::nullopt;
    }
    if (options.trace.empty()) throw Error("", "no trace given: hindsight-analyze TRACE/traces.otf2 (see --help)");
    options.trace = anchor_file(options.trace);
    if (!(options.timeout_seconds > 0)) throw Error("", "--timeout must be a positive number of seconds");
    if (vm.count("output") && options.report.empty()) throw Error("", "no output file name given to -o");
    if (options.report.empty())
        options.report = (std::filesystem::path(options.trace).parent_path() / "analysis.cubex").string();
    options.critical_path = !no_critical_path;
    options.root_cause = !no_root_cause;
    for (const std::string& w : what_ifs) options.what_ifs.push_back(analyses::parse_what_if(w));
    options.graph = options.graph || !options.what_ifs.empty();
    return options;
}

}  // namespace hindsight::analyzer
