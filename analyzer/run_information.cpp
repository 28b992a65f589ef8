#include "analyzer/run_information.hpp"

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <sstream>

#include "common/version.hpp"
#include "common/text_fields.hpp"

namespace hindsight::analyzer {

namespace {

std::string json_strings(const std::vector<std::string>& words) {
    std::string j = "[";
    for (std::size_t i = 0; i < words.size(); ++i) j += (i ? "," : "") + hindsight::json_string(words[i]);
    return j + "]";
}

// As strftime writes it with `format`, in UTC.
std::string utc(std::uint64_t unix_ns, const char* format) {
    const auto seconds = static_cast<std::time_t>(unix_ns / 1'000'000'000u);
    std::tm parts{};
    gmtime_r(&seconds, &parts);
    char text[64] = {};
    return std::strftime(text, sizeof text, format, &parts) ? text : "";
}

// A word as a shell would need it: quoted where it holds spaces, or is empty.
std::string shell_word(const std::string& word) {
    if (!word.empty() && word.find_first_of(" \t'\"") == std::string::npos) return word;
    std::string quoted = "'";
    for (const char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

}  // namespace

RunInformation run_information(const trace::LocalTrace& trace, const RunFacts& facts) {
    const Definitions& defs = trace.definitions;
    RunInformation run;
    run.program = trace.program;
    run.arguments = trace.program_arguments;
    run.start_unix_ns = defs.origin.start_unix_ns;
    run.ranks = facts.ranks;
    run.wall_seconds = facts.wall_seconds;
    for (const SystemTreeNode& node : defs.system_tree)
        if (node.parent == kNoId) {
            run.machine = node.name;
            break;
        }
    // The nodes the ranks ran on: their processes' parents.
    for (const LocationGroup& process : defs.location_groups) {
        if (process.system_tree_parent >= defs.system_tree.size()) continue;
        const std::string& node = defs.system_tree[process.system_tree_parent].name;
        if (std::find(run.nodes.begin(), run.nodes.end(), node) == run.nodes.end()) run.nodes.push_back(node);
    }
    run.writer = defs.origin.creator;
    run.analyzer = "Hindsight " + std::string(kVersion);
    run.trace = facts.trace_path;
    return run;
}

std::string run_information_json(const RunInformation& run) {
    using hindsight::json_string;
    return "{\"program\":" + json_string(run.program) + ",\"arguments\":" + json_strings(run.arguments) +
           ",\"start\":" + (run.start_unix_ns ? json_string(utc(*run.start_unix_ns, "%Y-%m-%dT%H:%M:%SZ")) : "null") +
           ",\"ranks\":" + std::to_string(run.ranks) + ",\"wall_clock\":" + hindsight::json_number(run.wall_seconds) +
           ",\"machine\":" + json_string(run.machine) + ",\"nodes\":" + json_strings(run.nodes) +
           ",\"writer\":" + json_string(run.writer) + ",\"analyzer\":" + json_string(run.analyzer) +
           ",\"trace\":" + json_string(run.trace) + "}";
}

std::string utc_time(std::uint64_t unix_ns) { return utc(unix_ns, "%Y-%m-%d %H:%M:%S UTC"); }

std::string run_line(const RunInformation& run) {
    std::ostringstream out;
    out << "  run: ";
    if (run.program.empty()) {
        out << "the trace names no program";
    } else {
        out << std::filesystem::path(run.program).filename().string();
        for (const std::string& argument : run.arguments) out << ' ' << shell_word(argument);
    }
    if (run.start_unix_ns) out << ", started " << utc_time(*run.start_unix_ns);
    if (!run.machine.empty()) out << " on " << run.machine;
    if (!run.nodes.empty())
        out << " (" << run.nodes.size() << (run.nodes.size() == 1 ? " node: " : " nodes: ") << run.nodes.front()
            << (run.nodes.size() > 1 ? ", ..." : "") << ')';
    if (!run.writer.empty()) out << ", traced by " << run.writer;
    out << '\n';
    return out.str();
}

}  // namespace hindsight::analyzer
