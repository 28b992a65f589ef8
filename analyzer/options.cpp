#include "analyzer/options.hpp"

#include <filesystem>
#include <ostream>

#include <boost/program_options.hpp>

#include "analyzer/trace_path.hpp"
#include "common/command_line.hpp"
#include "common/error.hpp"
#include "report/page.hpp"

namespace hindsight::analyzer {

namespace po = boost::program_options;

std::optional<Options> parse_options(int argc, char** argv, std::ostream& out) {
    Options options;
    bool no_critical_path = false, no_root_cause = false, no_page = false;
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
        ("no-page", po::bool_switch(&no_page), "write no HTML page of the report (default: REPORT.html beside it)")
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
         "seconds every rank may wait for another before the analysis gives up")
        ("cores-per-node", po::value<int>(&options.cores_per_node),
         "ranks per node for the placement advice (default: the most ranks any node of the trace ran)")
        ("quiet,q", po::bool_switch(&options.quiet), "print no summary and no progress")
        ("stats", po::bool_switch(&options.stats), "print phase times and memory use (for benchmarks)");
    po::options_description hidden;
    hidden.add_options()("trace", po::value<std::string>(&options.trace));
    po::positional_options_description positional;
    positional.add("trace", 1);
    po::variables_map vm;
    if (!parse_command_line(argc, argv, visible, hidden, positional, vm, out, "hindsight-analyze")) return std::nullopt;
    if (options.trace.empty()) throw Error("", "no trace given: hindsight-analyze TRACE/traces.otf2 (see --help)");
    options.trace = anchor_file(options.trace);
    if (!(options.timeout_seconds > 0)) throw Error("", "--timeout must be a positive number of seconds");
    if (vm.count("output") && options.report.empty()) throw Error("", "no output file name given to -o");
    if (vm.count("cores-per-node") && options.cores_per_node < 1)
        throw Error("", "--cores-per-node must be at least 1, not " + std::to_string(options.cores_per_node));
    if (options.report.empty())
        options.report = (std::filesystem::path(options.trace).parent_path() / "analysis.cubex").string();
    if (!no_page) options.page = report::default_page_path(options.report).string();
    options.critical_path = !no_critical_path;
    options.root_cause = !no_root_cause;
    for (const std::string& w : what_ifs) options.what_ifs.push_back(analyses::parse_what_if(w));
    options.graph = options.graph || !options.what_ifs.empty();
    return options;
}

}  // namespace hindsight::analyzer
