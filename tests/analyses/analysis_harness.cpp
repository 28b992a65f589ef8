#include "tests/analyses/analysis_harness.hpp"

#include <algorithm>
#include <optional>
#include <string>

#include "analyses/graph/what_if.hpp"
#include "common/error.hpp"
#include "tests/analyses/builder_traces.hpp"
#include "tests/analyses/in_process_replay.hpp"

namespace hindsight::testing {

AnalysisResults::AnalysisResults(const TraceBuilder& builder, analyses::AnalysisOptions options,
                                 const analyses::GraphOptions& graph)
    : traces_(local_traces(builder)) {
    std::vector<std::optional<analyses::LocalCube>> cubes(traces_.size());
    findings_.resize(traces_.size());
    InProcessReplay replay(traces_);
    replay.run_ranks([&](int r) {
        const auto i = static_cast<std::size_t>(r);
        cubes[i] = analyses::analyze(traces_[i], replay.engine(r), options, graph, findings_[i]);
    });
    for (auto& c : cubes) cubes_.push_back(std::move(*c));
}

CallPathId AnalysisResults::find_path(int rank, std::string_view path) const {
    const trace::LocalTrace& t = trace(rank);
    // A misspelt region is a mistake of the test, not a path never visited.
    for (std::string_view rest = path; !rest.empty();) {
        const auto slash = rest.find('/');
        const std::string_view name = rest.substr(0, slash);
        rest = slash == std::string_view::npos ? std::string_view{} : rest.substr(slash + 1);
        const auto& regions = t.definitions.regions;
        if (std::none_of(regions.begin(), regions.end(), [&](const Region& r) { return r.name == name; }))
            throw Error("", "no region named " + std::string(name));
    }
    return analyses::find_from_root(t, path);
}

double AnalysisResults::own(analyses::Metric m, int rank, std::string_view path) const {
    const CallPathId node = find_path(rank, path);
    return node == kNoCallPath ? 0.0 : cube(rank).get(m, node);
}

double AnalysisResults::with_children(analyses::Metric m, int rank, std::string_view path) const {
    double sum = own(m, rank, path);
    for (const analyses::MetricInfo& row : analyses::metric_table())
        if (row.parent == m) sum += with_children(row.metric, rank, path);
    return sum;
}

double AnalysisResults::total(analyses::Metric m, int rank) const { return cube(rank).total(m); }

const analyses::AnalysisFindings& AnalysisResults::findings(int rank) const {
    return findings_.at(static_cast<std::size_t>(rank));
}
const analyses::LocalCube& AnalysisResults::cube(int rank) const {
    return cubes_.at(static_cast<std::size_t>(rank));
}
const trace::LocalTrace& AnalysisResults::trace(int rank) const {
    return traces_.at(static_cast<std::size_t>(rank));
}

}  // namespace hindsight::testing
