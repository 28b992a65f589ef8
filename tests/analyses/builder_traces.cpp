#include "tests/analyses/builder_traces.hpp"

#include <cstdlib>
#include <filesystem>
#include <string>

#include <unistd.h>

#include "trace/trace_loader.hpp"
#include "tests/support/scratch_dir.hpp"

namespace hindsight::testing {
namespace {

// With HINDSIGHT_SCENARIO_DUMP=DIR, every scenario a test analyzes is also
// written as an archive DIR/ranksN-PID-K, so that scripts/compare-analyses
// can run two builds of the analyzer on all of them.
void dump_scenario(const TraceBuilder& builder) {
    const char* dir = std::getenv("HINDSIGHT_SCENARIO_DUMP");
    if (!dir || !*dir) return;
    static int written = 0;  // test support only: names the archives of one test process
    builder.write(std::filesystem::path(dir) / ("ranks" + std::to_string(builder.size()) + "-" +
                                                std::to_string(getpid()) + "-" + std::to_string(written++)));
}

}  // namespace

std::vector<trace::LocalTrace> local_traces(const TraceBuilder& builder) {
    dump_scenario(builder);
    // The archive the analyzer would read, loaded by the analyzer's own
    // loader: the in-process tests see exactly its conventions.
    const ScratchDir dir;
    builder.write(dir.path());
    std::vector<trace::LocalTrace> traces;
    for (int r = 0; r < builder.size(); ++r)
        traces.push_back(trace::load_local_trace(dir.anchor(), r, builder.size()).trace);
    // One call tree for all ranks, as after the analyzer's unification: rank
    // 0's ids stay, the others' are renumbered.
    CallTree global;
    std::vector<std::vector<CallPathId>> mappings;
    for (const trace::LocalTrace& trace : traces) mappings.push_back(global.merge(trace.call_tree));
    for (std::size_t r = 0; r < traces.size(); ++r) {
        for (trace::Event& e : traces[r].events) e.cnode = mappings[r][e.cnode];
        traces[r].threads.renumber_call_paths(mappings[r]);
        traces[r].call_tree = global;
    }
    return traces;
}

}  // namespace hindsight::testing
