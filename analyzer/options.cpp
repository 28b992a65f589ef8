#include "analyzer/options.hpp"

#include <cmath>
#include <cstdlib>
#include <limits>
#include <filesystem>
#include <ostream>

#include <boost/program_options.hpp>

#include "analyses/longest_waits.hpp"
#include "analyzer/trace_path.hpp"
#include "common/command_line.hpp"
#include "common/error.hpp"
#include "common/yes_no.hpp"
#include "report/page.hpp"

namespace hindsight::analyzer {

namespace po = boost::program_options;

namespace {

// What the command line sets besides the fields of Options.
struct Switches {
    bool no_critical_path = false;
    bool no_root_cause = false;
    bool no_page = false;
    std::vector<std::string> what_ifs;
    // Read signed: an unsigned option takes "-1" for its largest value.
    long long suggestions = 3;
    long long timeline = 3;
};

// The options --help shows, bound to where their values go: the one
// declaration both of the parser and of the driver's option table.
po::options_description declare_options(Options& options, Switches& switches) {
    po::options_description visible(
        "Usage: mpirun -n RANKS hindsight-analyze TRACE[/traces.otf2] [options]\n"
        "Analyzes an OTF2 trace of an MPI run on as many ranks as it has and writes a CUBE report.\n"
        "Options");
    visible.add_options()
        ("help,h", "show this help")
        ("version", "show the version")
        ("output,o", po::value<std::string>(&options.report),
         "report to write (default: analysis.cubex next to traces.otf2)")
        ("no-page", po::bool_switch(&switches.no_page), "write no HTML page of the report (default: REPORT.html beside it)")
        ("no-critical-path", po::bool_switch(&switches.no_critical_path), "skip the critical-path analysis")
        ("no-rootcause", po::bool_switch(&switches.no_root_cause), "skip the root-cause (delay cost) analysis")
        ("what-if", po::value<std::vector<std::string>>(&switches.what_ifs)->composing(),
         "predict the run time with a call path changed: 'callpath=main/work,scale=0.5' (also rank=N; "
         "'callpath=main/work,balance': every rank takes the average); may be repeated")
        ("graph", po::bool_switch(&options.graph),
         "also replay the program activity graph: its longest path and the most promising changes")
        ("suggestions", po::value<long long>(&switches.suggestions)->default_value(3),
         "how many changes the activity graph suggests (0: none)")
        ("timeline", po::value<long long>(&switches.timeline)->default_value(3),
         "how many of each pattern's longest waits get a window of all ranks' events for the page's timeline "
         "(REPORT.timeline.json beside the report; 0: none)")
        ("timeout", po::value<double>(&options.timeout_seconds)->default_value(300.0, "300"),
         "seconds every rank may wait for another before the analysis gives up")
        ("cores-per-node", po::value<int>(&options.cores_per_node),
         "ranks per node for the placement advice (default: the most ranks any node of the trace ran)")
        ("strict", po::bool_switch(&options.strict),
         "exit with status 3 (after writing the report) when part of the trace did not pair up and was left out")
        ("quiet,q", po::bool_switch(&options.quiet), "print no summary and no progress")
        ("stats", po::bool_switch(&options.stats), "print phase times and memory use (for benchmarks)");
    return visible;
}

}  // namespace

void print_option_table(std::ostream& out) {
    Options options;
    Switches switches;
    const po::options_description visible = declare_options(options, switches);
    for (const auto& option : visible.options()) {
        out << "--" << option->long_name() << (option->semantic()->max_tokens() > 0 ? " value" : " switch");
        const std::string first = option->canonical_display_name(po::command_line_style::allow_dash_for_short);
        if (first.size() == 2 && first[0] == '-') out << ' ' << first;  // "-q"
        out << '\n';
    }
}

std::optional<Options> parse_options(int argc, char** argv, std::ostream& out) {
    Options options;
    Switches switches;
    const po::options_description visible = declare_options(options, switches);
    po::options_description hidden;
    hidden.add_options()("trace", po::value<std::string>(&options.trace));
    po::positional_options_description positional;
    positional.add("trace", 1);
    po::variables_map vm;
    if (!parse_command_line(argc, argv, visible, hidden, positional, vm, out, "hindsight-analyze")) return std::nullopt;
    static_cast<void>(yes_no_variable(kHugePagesVariable, std::getenv(kHugePagesVariable), true));
    if (options.trace.empty()) throw Error("", "no trace given: hindsight-analyze TRACE/traces.otf2 (see --help)");
    options.trace = anchor_file(options.trace);
    if (!(options.timeout_seconds > 0) || !std::isfinite(options.timeout_seconds))
        throw Error("", "--timeout must be a positive number of seconds");
    if (switches.suggestions < 0 || switches.suggestions > std::numeric_limits<unsigned>::max())
        throw Error("", "--suggestions must be a number from 0 to " +
                            std::to_string(std::numeric_limits<unsigned>::max()) + ", not " +
                            std::to_string(switches.suggestions));
    options.suggestions = static_cast<unsigned>(switches.suggestions);
    constexpr auto kMostWindows = static_cast<long long>(analyses::LongestWaits::kPerPattern);
    if (switches.timeline < 0 || switches.timeline > kMostWindows)
        throw Error("", "--timeline must be a number from 0 to " + std::to_string(kMostWindows) + ", not " +
                            std::to_string(switches.timeline));
    options.timeline_waits = static_cast<std::size_t>(switches.timeline);
    if (vm.count("output") && options.report.empty()) throw Error("", "no output file name given to -o");
    if (vm.count("cores-per-node") && options.cores_per_node < 1)
        throw Error("", "--cores-per-node must be at least 1, not " + std::to_string(options.cores_per_node));
    if (options.report.empty())
        options.report = (std::filesystem::path(options.trace).parent_path() / "analysis.cubex").string();
    if (!switches.no_page) options.page = report::default_page_path(options.report).string();
    options.critical_path = !switches.no_critical_path;
    options.root_cause = !switches.no_root_cause;
    for (const std::string& w : switches.what_ifs) options.what_ifs.push_back(analyses::parse_what_if(w));
    options.graph = options.graph || !options.what_ifs.empty();
    return options;
}

}  // namespace hindsight::analyzer
