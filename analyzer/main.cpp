// hindsight-analyze: loads an OTF2 trace on as many MPI ranks as it has,
// replays it forward and backward with the analyses, writes the CUBE report
// and prints a summary.
//
// Failure handling: every phase before the replay ends with an agreement
// among all ranks (replay/rank_agreement.hpp), so that a problem seen by
// some ranks only makes all of them exit with status 1 and rank 0 prints it
// as one line. The replay itself cannot be left by all ranks together once
// one of them fails (the others may wait on it): there the failing rank
// prints its problem and aborts the MPI job. So does a rank that waits in
// vain for the others in any phase: when every rank has waited for the
// timeout (ProgressWatch, StallCheck).
//
// What does not pair up between the ranks' traces is no failure: pairing
// leaves it out and the warnings say so; with --strict the run then ends
// with status 3 (analyzer::kStrictStatus), after the report is written.
//
// Every wait for other ranks goes through one ProgressWatch, which yields
// the core instead of spinning in MPI (analysis ranks may outnumber cores).
//
// Rank 0 shows the phases and the replay's progress on standard error
// (progress_display.hpp).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>
#include <chrono>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <mpi.h>

#include "analyses/pipeline.hpp"
#include "common/cube/writer.hpp"
#include "common/error.hpp"
#include "common/time_category.hpp"
#include "common/failure.hpp"
#include "common/whole_line.hpp"
#include "analyzer/communication_files.hpp"
#include "analyzer/communication_gathering.hpp"
#include "analyzer/communicator_summary.hpp"
#include "analyzer/graph_summary.hpp"
#include "analyzer/communication_structure.hpp"
#include "analyzer/longest_waits_gathering.hpp"
#include "common/side_files.hpp"
#include "analyzer/timeline_file.hpp"
#include "analyzer/memory_reuse.hpp"
#include "analyzer/options.hpp"
#include "analyzer/pairing_warnings.hpp"
#include "analyzer/progress_display.hpp"
#include "analyzer/report_assembly.hpp"
#include "analyzer/report_path.hpp"
#include "analyzer/run_information.hpp"
#include "analyzer/row_gathering.hpp"
#include "analyzer/run_stats.hpp"
#include "analyzer/summary.hpp"
#include "replay/call_tree_unification.hpp"
#include "replay/communicator_mirror.hpp"
#include "replay/mpi_engine.hpp"
#include "replay/mpi_handles.hpp"
#include "replay/pairing.hpp"
#include "replay/rank_agreement.hpp"
#include "report/communication_data.hpp"
#include "report/findings.hpp"
#include "common/text_fields.hpp"
#include "report/page.hpp"
#include "report/timeline_data.hpp"
#include "trace/trace_loader.hpp"

namespace {

using namespace hindsight;
constexpr const char* kProgram = "hindsight-analyze";

// Ends the job after this rank's own failure, which it has written to
// stderr. MPI_Abort makes the launcher kill every process at once, which
// can come before it forwarded the line just written: a moment first lets
// the line reach the user.
[[noreturn]] void abort_job(MPI_Comm comm) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    MPI_Abort(comm, EXIT_FAILURE);
    std::exit(EXIT_FAILURE);  // not reached
}

struct World {
    MPI_Comm comm;
    int rank;
    int size;
    replay::ProgressWatch& watch;  // how this rank waits for the others
    analyzer::ProgressDisplay& progress;  // silent except on rank 0
};

// Runs `step` on every rank; a hindsight::Error (or any exception) on any
// rank becomes the agreed problem of all. A failure that names no file of
// its own (running out of memory) is told of `file`, the one the step works on.
template <typename Step>
std::optional<std::string> agreed(const World& world, const std::string& file, Step&& step) {
    std::optional<std::string> problem;
    try {
        step();
    } catch (const std::bad_alloc&) {
        problem = file + ": out of memory";
    } catch (const Error& e) {
        problem = e.file().empty() ? file + ": " + e.what() : e.what();
    } catch (const std::exception& e) {
        problem = file + ": " + e.what();
    }
    return replay::agree_on_problem(world.comm, problem, world.watch);
}

int report_problem(int rank, const std::string& problem) {
    if (rank == 0) write_whole(std::cerr, std::string(kProgram) + ": " + problem + "\n");
    return EXIT_FAILURE;
}

int report_problem(const World& world, const std::string& problem) {
    world.progress.interrupt();
    return report_problem(world.rank, problem);
}

analyzer::RunFacts run_facts(const World& world, const analyzer::Options& options, const trace::LoadedTrace& loaded,
                             const replay::Pairing& pairing, const analyses::AnalysisFindings& findings) {
    const trace::LoadStats& s = loaded.stats;
    std::uint64_t sums[7] = {s.metric_records,
                             s.parameter_records,
                             s.other_skipped,
                             s.timestamp_fixups,
                             findings.clock_violations.point_to_point,
                             findings.clock_violations.collective,
                             findings.delay_costs_passed_early};
    Ticks first = s.first_time, last = s.last_time;
    world.watch.complete<3>("the counts and times of all ranks", [&](auto& r) {
        MPI_Iallreduce(MPI_IN_PLACE, sums, 7, MPI_UINT64_T, MPI_SUM, world.comm, &r[0]);
        MPI_Iallreduce(MPI_IN_PLACE, &first, 1, MPI_INT64_T, MPI_MIN, world.comm, &r[1]);
        MPI_Iallreduce(MPI_IN_PLACE, &last, 1, MPI_INT64_T, MPI_MAX, world.comm, &r[2]);
    });

    analyzer::RunFacts facts;
    facts.trace_path = options.trace;
    facts.report_path = options.report;
    facts.page_path = options.page;
    facts.ranks = world.size;
    facts.uses_mpi = std::any_of(loaded.trace.definitions.regions.begin(), loaded.trace.definitions.regions.end(),
                                 [](const Region& r) { return is_mpi_region(r); });
    facts.wall_seconds = loaded.trace.seconds(last - first);
    facts.skipped_metric_records = sums[0];
    facts.skipped_parameter_records = sums[1];
    facts.skipped_other_records = sums[2];
    facts.timestamp_fixups = sums[3];
    facts.clock_violations_p2p = sums[4];
    facts.clock_violations_collective = sums[5];
    facts.delay_costs_passed_early = sums[6];
    facts.longest_waits = analyzer::gather_longest_waits(findings.longest_waits, loaded.trace, world.comm, world.watch);
    // What each rank's loader found damaged, one line each, in rank order.
    std::string damage;
    for (const std::string& line : s.damage) damage += line + '\n';
    for (const std::string& line : findings.thread_problems) damage += line + '\n';
    for (const auto& text : analyzer::gather_records(std::vector<char>(damage.begin(), damage.end()), world.comm,
                                                     world.watch, "the damage found by all ranks")) {
        std::string line;
        for (const char c : text) {
            if (c != '\n') line += c;
            else facts.damage.push_back(std::exchange(line, {}));
        }
    }
    // What each rank left out: rank 0 words them.
    const auto unpaired = analyzer::gather_records(pairing.unpaired, world.comm, world.watch,
                                                   "what all ranks left out");
    facts.unpaired = analyzer::pairing_warnings(unpaired, loaded.trace);
    facts.graph = findings.graph;
    return facts;
}

// Whether any rank left part of its trace out (what --strict fails on);
// every rank learns it, so that all exit alike.
bool left_out_anywhere(const World& world, const replay::Pairing& pairing) {
    int any = std::any_of(pairing.unpaired.begin(), pairing.unpaired.end(),
                          [](const replay::Unpaired& u) { return replay::left_out(u.kind); });
    world.watch.complete("what all ranks left out", [&](auto& r) {
        MPI_Iallreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_MAX, world.comm, &r[0]);
    });
    return any != 0;
}

// The activity graph runs on request (--graph, --what-if), with three
// suggestions unless --suggestions says otherwise; each --what-if is one
// more scenario of the same pass.
analyses::GraphOptions graph_options(const analyzer::Options& options) {
    analyses::GraphOptions graph;
    graph.enabled = options.graph;
    graph.what_ifs = options.what_ifs;
    graph.suggestions = options.suggestions;
    return graph;
}


// For --stats: the exchange rounds and single hand-overs of each pass, on
// rank 0 (every rank runs the same rounds).
// The timeline's windows beside the report (where --timeline asks for
// any); without, an older run's file there would pass for this run's.
std::string write_timeline(const analyzer::Options& options, const std::vector<analyses::TimelineWindow>& windows,
                           const std::vector<std::vector<std::byte>>& lanes, const trace::LocalTrace& trace) {
    const std::filesystem::path path = report::timeline_json_path(options.report);
    if (options.timeline_waits == 0) {
        std::error_code ignored;
        std::filesystem::remove(path, ignored);
        return {};
    }
    std::string json = analyzer::timeline_json(windows, lanes, trace, options.trace);
    hindsight::write_text_file(path, [&](std::ostream& out) { out << json; });
    return json;
}

void print_pass_exchanges(std::ostream& out, const std::vector<replay::MpiReplayEngine::PassExchanges>& passes) {
    out << "exchange rounds:";
    const char* separator = " ";
    for (const auto& pass : passes) {
        out << separator << pass.name << " " << pass.rounds;
        separator = ", ";
    }
    out << "\nhand-overs one by one on rank 0:";
    separator = " ";
    for (const auto& pass : passes) {
        out << separator << pass.name << " " << pass.hand_overs;
        separator = ", ";
    }
    out << "\n";
}
int analyze_trace(const World& world, const analyzer::Options& options) {
    analyzer::RunStats stats;
    const auto phase = [&](const char* name) {
        stats.phase(name);
        world.progress.phase(name);
    };
    // 1. Load this rank's share of the trace, once rank 0 knows it can
    // write the report. A trace that is not there is the problem to report
    // then (it explains a bad default report path too), and the loader
    // says so.
    phase("load");
    trace::LoadedTrace loaded;
    if (auto problem = agreed(world, options.trace, [&] {
            if (world.rank == 0 && std::filesystem::exists(options.trace))
                analyzer::check_report_path(options.report, options.trace);
            if (world.rank == 0 && std::filesystem::exists(options.trace) && !options.page.empty())
                analyzer::check_report_path(options.page, options.trace);
            loaded = trace::load_local_trace(options.trace, world.rank, world.size);
        }))
        return report_problem(world, *problem);
    trace::LocalTrace& trace = loaded.trace;

    // 2. Same call tree everywhere; the traces fit together, once what
    // does not pair up is left out.
    phase("unify");
    replay::unify_call_trees(trace, world.comm, world.watch);
    phase("pair");
    const replay::Pairing pairing = replay::pair_traces(trace, loaded.slots, world.comm, world.watch);
    if (pairing.problem) return report_problem(world, options.trace + ": " + *pairing.problem);
    const trace::MessageSlots& slots = loaded.slots;

    // 3. The replay with the analyses.
    phase("replay");
    const replay::CommunicatorMirror mirror(trace, world.comm, world.watch);
    replay::MpiReplayEngine engine(trace, slots, mirror, world.watch);
    if (!world.progress.silent()) engine.watch_progress(&world.progress);
    analyses::AnalysisFindings findings;
    const analyses::GraphOptions graph = graph_options(options);
    for (const analyses::WhatIf& w : graph.what_ifs)  // the call tree is the same on every rank
        if (analyses::find_call_path(trace, w.call_path) == kNoCallPath)
            return report_problem(world, "--what-if '" + w.text + "': the trace has no call path " + w.call_path);
    const analyses::LocalCube cube = analyses::analyze(
        trace, engine, analyses::AnalysisOptions{options.critical_path, options.root_cause, options.timeline_waits},
        graph, findings);

    // 4. Report and summary on rank 0.
    phase("report");
    analyzer::RunFacts facts = run_facts(world, options, loaded, pairing, findings);
    const analyzer::GatheredCubes cubes = analyzer::gather_cubes(cube, findings.worker_cubes, world.comm, world.watch);
    const analyzer::GatheredCommunication gathered = analyzer::gather_communication(findings, world.comm, world.watch);
    const auto lanes = analyzer::gather_lanes(findings.timeline_lanes, world.comm, world.watch);
    std::optional<cube::Report> report;
    analyzer::CommunicationStructure communication;
    auto problem = agreed(world, options.report, [&] {
        if (world.rank != 0) return;
        report = analyzer::assemble_report(trace, cubes);
        facts.flushes = analyzer::buffer_flushes(*report);
        // The report itself tells what it could not be trusted with.
        if (const std::string warnings = analyzer::warnings_line(facts); !warnings.empty())
            report->set_attribute("Hindsight warnings", warnings);
        // The basis the summary gives the critical path against, for the
        // page to give the same (seconds, as a JSON number).
        report->set_attribute(report::kWallClockAttribute, hindsight::json_number(facts.wall_seconds));
        // What ran, for the page to show and be titled after.
        const analyzer::RunInformation run = analyzer::run_information(trace, facts);
        report->set_attribute(report::kRunAttribute, analyzer::run_information_json(run));
        facts.run_line = analyzer::run_line(run);
        // What the activity graph predicted, for the page (and any reader)
        // to show beside the report's values.
        if (const std::string graph = analyzer::graph_findings_json(facts.graph); !graph.empty())
            report->set_attribute(report::kActivityGraphAttribute, graph);
        communication = analyzer::communication_structure(trace.definitions, gathered.profile, gathered.rows,
                                                          options.cores_per_node, options.trace);
        cube::write_cubex(*report, options.report);
        analyzer::write_communication_files(options.report, communication, options.trace);
        const std::string timeline = write_timeline(options, findings.timeline_windows, lanes, trace);
        if (!options.page.empty())  // the page shows the JSON just written
            report::write_page(*report, std::filesystem::path(options.report).filename().string(), options.page,
                               report::read_communication_json(analyzer::communication_json_path(options.report)),
                               timeline);
    });
    if (facts.uses_mpi)
        facts.further_sections.push_back([&](std::ostream& out, double total_time) {
            analyzer::print_communicators(out, communication.communicators, total_time);
            analyzer::print_placement(out, communication, analyzer::machine_file_path(options.report).string());
        });
    if (problem) return report_problem(world, *problem);
    world.progress.finish();
    if (world.rank == 0 && !options.quiet)
        analyzer::print_summary(std::cout, *report, facts, analyzer::summary_sections());
    if (options.stats) {
        stats.report(std::cout, trace, world.comm, world.watch);
        if (world.rank == 0)
            std::cout << "passes on rank 0: forward " << findings.forward_seconds << " s, backward "
                      << findings.backward_seconds << " s, activity graph " << findings.graph_seconds
                      << " s (walk back " << findings.graph.walk_seconds << " s)\nactivity graph: " << findings.graph.hops << " hop records, " << findings.graph.walk_rounds
                      << " walk rounds, at most " << findings.graph.max_state_bytes << " bytes per rank\n";
        if (world.rank == 0) {
            print_pass_exchanges(std::cout, engine.pass_exchanges());
            const analyses::CriticalPathCounts& path = findings.critical_path;
            std::cout << "backward rounds: delay costs " << findings.delay_cost_rounds << "; critical path "
                      << path.nodes << " hand-off nodes, "
                      << (path.gathered ? std::string("followed on rank 0")
                                        : std::to_string(path.levels) + " doubling levels")
                      << "\n";
        }
    }
    // --strict: a report with anything left out is written, but the run
    // counts as failed (on every rank, so that mpiexec passes the status on).
    if (options.strict && left_out_anywhere(world, pairing)) return analyzer::kStrictStatus;
    return EXIT_SUCCESS;
}

// Everything after MPI_Init. A hindsight::Error from the command line (or
// the environment) is the same on every rank, which all exit alike; any
// other failure is this rank's own and ends the job (MPI_Abort), since the
// other ranks may be waiting for this one.
int run(int argc, char** argv, int rank, int size) {
    std::optional<analyzer::Options> options;
    std::ostringstream unused_help;  // the help is printed once, by rank 0
    try {
        options = analyzer::parse_options(argc, argv, rank == 0 ? std::cout : unused_help);
    } catch (const Error& e) {
        // Every rank parses the same command line and fails the same way.
        return report_problem(rank, e.what());
    }
    if (!options) return EXIT_SUCCESS;  // --help, --version

    replay::ProgressWatch watch(std::chrono::duration<double>(options->timeout_seconds),
                                replay::spin_budget(MPI_COMM_WORLD));
    watch.detect_stalls(MPI_COMM_WORLD);
    analyzer::ProgressDisplay progress(
        std::cerr, rank == 0 ? analyzer::ProgressDisplay::mode_for(options->quiet) : analyzer::ProgressDisplay::Mode::Silent);
    const World world{MPI_COMM_WORLD, rank, size, watch, progress};
    try {
        const int status = analyze_trace(world, *options);
        // MPI_Finalize would spin while rank 0 writes the report.
        watch.complete("the other ranks to finish", [&](auto& r) { MPI_Ibarrier(world.comm, &r[0]); });
        return status;
    } catch (...) {
        // Left the phase that failed alone: nobody else can be waited for.
        progress.interrupt();
        write_whole(std::cerr, std::string(kProgram) + ": " + options->trace + ": rank " + std::to_string(world.rank) +
                                   ": " + current_failure() + "\n");
        abort_job(world.comm);
    }
}

}  // namespace

int main(int argc, char** argv) {
    analyzer::reuse_freed_memory();
    replay::mpi::Session session(argc, argv);
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    try {
        return run(argc, argv, rank, size);
    } catch (...) {
        std::fprintf(stderr, "%s: rank %d: %s\n", kProgram, rank, current_failure());
        abort_job(MPI_COMM_WORLD);
    }
}
