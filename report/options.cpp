#include "report/options.hpp"

#include <ostream>
#include <vector>

#include <boost/program_options.hpp>

#include "common/command_line.hpp"
#include "common/error.hpp"
#include "report/page.hpp"

namespace hindsight::report {

namespace po = boost::program_options;

std::optional<Options> parse_options(int argc, char** argv, std::ostream& out) {
    Options options;
    bool csv = false, json = false;
    long long top = -1;
    std::vector<std::string> diff;
    po::options_description visible(
        "Usage: hindsight-report REPORT.cubex [-o PAGE.html]\n"
        "       hindsight-report --text REPORT.cubex [--metric ID [--callpath PATH]] [--top N] [--csv|--json]\n"
        "       hindsight-report --diff BEFORE.cubex AFTER.cubex [-o PAGE.html | --text ...]\n"
        "       hindsight-report --score PROFILE.cubex [--filter-out FILE]\n"
        "Writes a self-contained HTML page of a CUBE report, or prints its values.\n"
        "Options");
    visible.add_options()
        ("help,h", "show this help")
        ("version", "show the version")
        ("output,o", po::value<std::string>(&options.page),
         "page to write (default: the report's name with .html; for --diff, AFTER's name with .diff.html)")
        ("text", po::bool_switch(&options.text), "print tables instead of writing a page")
        ("metric", po::value<std::string>(&options.metric),
         "with --text: this metric's call tree (its unique name, e.g. mpi_latesender)")
        ("callpath", po::value<std::string>(&options.call_path),
         "with --text --metric: values per rank at this call path (region names from the root, joined by '/')")
        ("top", po::value<long long>(&top),
         "with --text: the N largest rows (call paths per metric: 5 by default; otherwise all rows)")
        ("csv", po::bool_switch(&csv), "with --text: print CSV")
        ("json", po::bool_switch(&json), "with --text: print JSON")
        ("diff", po::value<std::vector<std::string>>(&diff)->multitoken(),
         "BEFORE AFTER: the differences AFTER - BEFORE of two reports")
        ("score", po::bool_switch(&options.score),
         "plan a trace from a profile of hindsight-collect --profile: its size per rank and in all, the buffer, "
         "the regions that fill it")
        ("filter-out", po::value<std::string>(&options.filter_out),
         "with --score: write a filter file (Score-P syntax, for --filter) leaving out short, frequent regions");
    po::options_description hidden;
    hidden.add_options()("report", po::value<std::string>(&options.report));
    po::positional_options_description positional;
    positional.add("report", 1);
    po::variables_map vm;
    if (!parse_command_line(argc, argv, visible, hidden, positional, vm, out, "hindsight-report")) return std::nullopt;
    if (vm.count("diff")) {
        if (diff.size() != 2 || !options.report.empty())
            throw Error("", "--diff takes two reports: --diff BEFORE.cubex AFTER.cubex (see --help)");
        options.before = diff[0];
        options.report = diff[1];
    }
    if (options.report.empty()) throw Error("", "no report given: hindsight-report REPORT.cubex (see --help)");
    if (vm.count("filter-out") && !options.score) throw Error("", "--filter-out needs --score");
    if (vm.count("filter-out") && options.filter_out.empty()) throw Error("", "no file name given to --filter-out");
    if (options.score && (options.text || !options.before.empty() || vm.count("output")))
        throw Error("", "--score prints its own table: no --text, --diff or -o with it");
    if (csv && json) throw Error("", "--csv and --json exclude each other");
    options.format = csv ? Format::Csv : json ? Format::Json : Format::Text;
    const bool text_only = csv || json || !options.metric.empty() || !options.call_path.empty() || top >= 0;
    if (text_only && !options.text) throw Error("", "--metric, --callpath, --top, --csv and --json need --text");
    if (options.text && vm.count("output")) throw Error("", "--text prints to standard output; -o writes a page");
    if (!options.call_path.empty() && options.metric.empty()) throw Error("", "--callpath needs --metric");
    if (vm.count("top") && top <= 0) throw Error("", "--top must be a positive number");
    options.top = top > 0 ? static_cast<std::size_t>(top) : 0;
    if (vm.count("output") && options.page.empty()) throw Error("", "no page name given to -o");
    // A difference never takes the place of a run's own page.
    if (options.page.empty())
        options.page = (options.before.empty() ? default_page_path(options.report)
                                               : default_difference_page_path(options.report)).string();
    return options;
}

}  // namespace hindsight::report
