#include "collector/measurement.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "collector/crash_report.hpp"
#include "collector/definition_transfer.hpp"
#include "collector/definitions_writer.hpp"
#include "collector/early_regions.hpp"
#include "collector/launch_environment.hpp"
#include "collector/mpi_seen.hpp"
#include "collector/output_directory.hpp"
#include "collector/profile_files.hpp"
#include "collector/process.hpp"
#include "collector/timer.hpp"
#include "collector/without_mpi.hpp"
#include "collector/written_trace_line.hpp"
#include "common/error.hpp"

namespace hindsight::collect {

namespace {

// The one owner of the measurement; live_ points into it while measuring.
std::unique_ptr<Measurement>& instance() {
    static std::unique_ptr<Measurement> measurement;
    return measurement;
}

void say(const std::string& text) {
    std::fprintf(stderr, "%s%s\n", kMessagePrefix, text.c_str());
    std::fflush(stderr);
}

std::string hostname() {
    char name[256] = {};
    if (gethostname(name, sizeof name - 1) != 0) return "localhost";
    return name;
}

// Whether this rank runs the program rank 0 runs, with the same arguments:
// rank 0's call, joined by NULs, goes to every rank.
bool same_program_as_rank_0(const ProgramCall& program, MPI_Comm comm) {
    std::string joined = program.path;
    for (const std::string& argument : program.arguments) joined += '\0' + argument;
    std::string rank_0 = joined;
    unsigned long long size = rank_0.size();
    PMPI_Bcast(&size, 1, MPI_UNSIGNED_LONG_LONG, 0, comm);
    rank_0.resize(size);
    PMPI_Bcast(rank_0.data(), static_cast<int>(size), MPI_CHAR, 0, comm);
    return rank_0 == joined;
}

// The process that measures a program without MPI (a forked child does not).
pid_t& measuring_process() {
    static pid_t pid = 0;
    return pid;
}

void exit_without_finalize() {
    if (Measurement::live_here()) {
        Measurement::abandon(finalize_missed());
    }
}

}  // namespace

Measurement::Measurement(Config config, RegionFilter filter, std::string dir, int world_rank,
                         int world_size, bool with_mpi)
    : config_(std::move(config)),
      filter_(std::move(filter)),
      dir_(std::move(dir)),
      world_rank_(world_rank),
      world_size_(world_size),
      comms_(world_rank, world_size) {
    if (with_mpi) PMPI_Comm_dup(MPI_COMM_WORLD, &tool_comm_);
    if (config_.profile) {
        profile_ = std::make_unique<CallPathProfile>();
    } else {
        archive_ = std::make_unique<TraceArchive>(dir_, config_.buffer_bytes, world_rank_, with_mpi);
        master_.events = archive_->events();
    }
}

Measurement::~Measurement() {
    if (tool_comm_ != MPI_COMM_NULL) {
        int finalized = 0;
        PMPI_Finalized(&finalized);
        if (!finalized) PMPI_Comm_free(&tool_comm_);
    }
}

void Measurement::start(MpiFunction init, std::uint64_t init_enter) {
    if (instance()) {
        // Measured as a program without MPI since its OpenMP runtime
        // started: MPI came through a library the executable does not name.
        say(executable_path() + " called MPI_Init after it was found to be a program without MPI; it is measured "
            "as one process, its MPI calls are not recorded");
        return;
    }
    int rank = 0;
    int size = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);

    // Every rank reads its environment and filter file; normally all reach
    // the same verdict and rank 0 alone reports it.
    Config config;
    RegionFilter filter;
    std::string refusal;
    try {
        config = read_config([](const char* name) { return std::getenv(name); });
        if (!config.filter_file.empty()) filter = RegionFilter::load(config.filter_file);
    } catch (const Error& e) {
        refusal = std::string(e.what()) + "; the program runs without measurement";
    }
    // All ranks agree on the verdict, so that none goes on to wait for a
    // rank that gave up (a filter file one node cannot read). The agreement
    // also holds rank 0 back from creating the directory until every rank
    // is here: each rank's launcher has checked the directory by then, and
    // none of them may find it made by this very job (launch_check.hpp).
    int fine_here[2] = {refusal.empty() ? 1 : 0, rank == 0 && !refusal.empty() ? 0 : 1};
    int fine[2] = {0, 0};  // everywhere, on rank 0
    PMPI_Allreduce(fine_here, fine, 2, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!fine[0]) {
        // Rank 0 speaks for all; another rank only where rank 0 was fine.
        if (!refusal.empty() && (rank == 0 || fine[1])) say(refusal);
        return;
    }
    const std::string dir = config.trace_dir.empty() ? default_trace_dir(executable_path(), size)
                                                     : config.trace_dir;
    const std::string problem = prepare_output_directory(dir, config.force, rank, MPI_COMM_WORLD);
    if (!problem.empty()) {
        if (rank == 0) say(problem + "; the program runs without measurement");
        return;
    }

    std::string failure;
    try {
        instance().reset(new Measurement(std::move(config), std::move(filter), dir, rank, size));
    } catch (const Error& e) {
        failure = e.what();
    }
    // All ranks measure or none: a rank without a measurement would leave
    // the others waiting in MPI_Finalize.
    int started_here = failure.empty() ? 1 : 0;
    int started_everywhere = 0;
    PMPI_Allreduce(&started_here, &started_everywhere, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!started_everywhere) {
        if (!failure.empty()) {
            say("rank " + std::to_string(rank) + ": " + failure + "; the program runs without measurement");
        }
        if (instance()) instance()->drop();
        return;
    }
    Measurement& m = *instance();
    stream_ = &m.master_;
    int provided = MPI_THREAD_SINGLE;
    PMPI_Query_thread(&provided);
    m.multiple_ = provided == MPI_THREAD_MULTIPLE;
    m.clock_offsets_.push_back(measure_clock_offset(m.tool_comm_));
    m.program_begin_ = library_load_sample();
    m.recording_ = true;
    live_ = &m;
    if (m.archive_) openmp::Recorder::instance().start(m, *m.archive_, rank);
    std::atexit(exit_without_finalize);
    install_crash_report(rank, m.profile_ ? "no profile is written"
                                          : "its trace in " + absolute_path(dir) +
                                                " is incomplete and cannot be analyzed");

    // The definitions hold rank 0's program call; a rank started otherwise
    // (an MPMD run) names no arguments rather than rank 0's.
    m.program_ = {executable_path(), program_arguments()};
    const bool as_rank_0 = same_program_as_rank_0(m.program_, m.tool_comm_);
    m.program_region_ = m.regions_.program(m.program_.path, as_rank_0 ? m.program_.arguments : std::vector<std::string>{});
    if (m.profile_) {
        // The program is the root of the profile's call tree, as
        // PROGRAM_BEGIN and PROGRAM_END make it the trace's.
        m.profile_->enter(m.program_region_, m.program_begin_.ticks);
    } else {
        std::vector<OTF2_StringRef> arguments =
            as_rank_0 ? argument_strings(m.program_) : std::vector<OTF2_StringRef>{};
        m.record(OTF2_EvtWriter_ProgramBegin(m.writer(), nullptr, m.program_begin_.ticks, kProgramNameString,
                                             static_cast<std::uint32_t>(arguments.size()), arguments.data()));
    }
    replay_early_regions(m);
    const OTF2_RegionRef region = m.regions_.mpi(init);
    m.enter_at(region, init_enter);
    m.leave(region);
    if (m.verbose() && rank == 0) {
        say(std::string(m.profile_ ? "profiling " : "measuring ") + std::to_string(size) + " ranks into " + dir);
    }
}

void Measurement::start_without_mpi() {
    if (instance()) return;
    const std::string program = executable_path();
    if (mpi_may_come(program)) return;
    if (!pthread_equal(pthread_self(), master_thread_)) {
        // The master's location is the thread that started the program.
        say(program + ": a program without MPI whose OpenMP runtime starts on another thread than the "
            "program's first is not measured");
        return;
    }
    if (const auto size = launched_job_size(); size && *size > 1) {
        // Each process would write a trace of one rank into the same directory.
        if (first_process_on_node()) {
            say(program + ": a program without MPI started as " + std::to_string(*size) +
                " processes is not measured; start it as one process");
        }
        return;
    }
    Config config;
    RegionFilter filter;
    try {
        config = read_config([](const char* name) { return std::getenv(name); });
        if (!config.filter_file.empty()) filter = RegionFilter::load(config.filter_file);
    } catch (const Error& e) {
        say(std::string(e.what()) + "; the program runs without measurement");
        return;
    }
    if (config.profile) {
        // A profile is gathered from the ranks at MPI_Finalize.
        say(program + ": profile mode measures MPI programs; this program without MPI runs without measurement");
        return;
    }
    const std::string dir = config.trace_dir.empty() ? default_trace_dir(program, 1) : config.trace_dir;
    if (const std::string problem = prepare_output_directory_locally(dir, config.force); !problem.empty()) {
        say(problem + "; the program runs without measurement");
        return;
    }
    try {
        instance().reset(new Measurement(std::move(config), std::move(filter), dir, 0, 1, false));
    } catch (const Error& e) {
        say(std::string("rank 0: ") + e.what() + "; the program runs without measurement");
        if (instance()) instance()->drop();
        return;
    }
    Measurement& m = *instance();
    stream_ = &m.master_;
    m.program_begin_ = library_load_sample();
    // One process: its clock is the trace's, offset 0 at both ends.
    m.clock_offsets_.push_back({m.program_begin_.ticks, 0, 0});
    m.recording_ = true;
    // live_ stays unset: MPI calls (of a library the executable does not
    // name) and user regions are not recorded.
    openmp::Recorder::instance().start(m, *m.archive_, 0);
    measuring_process() = getpid();
    std::atexit([] {
        // A child made by fork() inherits the measurement, not the trace.
        if (getpid() == measuring_process()) finish_without_mpi();
    });
    install_crash_report(0, "its trace in " + absolute_path(dir) + " is incomplete and cannot be analyzed");
    m.program_ = {program, program_arguments()};
    m.program_region_ = m.regions_.program(m.program_.path, m.program_.arguments);
    std::vector<OTF2_StringRef> arguments = argument_strings(m.program_);
    m.record(OTF2_EvtWriter_ProgramBegin(m.writer(), nullptr, m.program_begin_.ticks, kProgramNameString,
                                         static_cast<std::uint32_t>(arguments.size()), arguments.data()));
    if (m.verbose()) say("measuring 1 process without MPI into " + dir);
}

void Measurement::finish_without_mpi() {
    if (!instance() || instance()->tool_comm_ != MPI_COMM_NULL) return;
    Measurement& m = *instance();
    // exit() may come from any thread, inside a parallel region too: once
    // every thread's callbacks have stopped, this one writes the master's
    // stream and closes the region the threads are in.
    stream_ = &m.master_;
    openmp::Recorder& threads = openmp::Recorder::instance();
    threads.deactivate();
    const TimerSample end = Timer::sample();
    if (!m.failed_ && threads.close_open(end.ticks)) {
        say("the program exited inside a parallel region; the trace ends the region on every thread at the exit");
    }
    m.recording_ = false;
    m.clock_offsets_.push_back({end.ticks, 0, 0});
    if (!m.failed_) m.record(OTF2_EvtWriter_ProgramEnd(m.writer(), nullptr, end.ticks, 0));
    std::string left_out;
    m.threads_ = threads.stop(left_out);
    if (!left_out.empty()) say("rank 0: " + left_out);
    try {
        m.write_trace(end);
    } catch (const std::exception& e) {  // the program's exit goes on
        say(std::string("rank 0: ") + e.what());
    }
    instance().reset();
}

void Measurement::finish(std::uint64_t finalize_enter) {
    Measurement& m = *instance();
    const OTF2_RegionRef region = m.regions_.mpi(MpiFunction::MPI_Finalize);
    const bool recorded = m.recording_;
    if (recorded) m.enter_at(region, finalize_enter);
    m.clock_offsets_.push_back(measure_clock_offset(m.tool_comm_));
    const TimerSample end = Timer::sample();
    if (recorded) m.leave_at(region, end.ticks);
    m.close_user_regions(end.ticks);
    if (m.profile_) m.profile_->leave(end.ticks);  // the program
    else if (!m.failed_) m.record(OTF2_EvtWriter_ProgramEnd(m.writer(), nullptr, end.ticks, 0));
    live_ = nullptr;
    m.recording_ = false;
    m.stop_threads();
    if (const std::uint64_t calls = other_thread_calls_.load(std::memory_order_relaxed); calls > 0) {
        say("rank " + std::to_string(m.world_rank_) + ": " + std::to_string(calls) +
            " MPI calls of threads other than the main thread were not recorded; the " +
            (m.profile_ ? "profile" : "trace") + " shows the main thread's only");
    }
    if (m.profile_) m.write_profile(end);
    else m.write_trace(end);
    instance().reset();
}

void Measurement::abandon(const std::string& why) {
    Measurement& m = *instance();
    live_ = nullptr;
    m.recording_ = false;
    if (m.profile_) {
        // The profile is written at MPI_Finalize, with all ranks: none here.
        say("rank " + std::to_string(m.world_rank_) + ": " + why + "; no profile is written");
        m.drop();
        return;
    }
    say("rank " + std::to_string(m.world_rank_) + ": " + why + "; the events recorded so far are in " +
        m.dir_ + ", but the trace lacks its definitions and cannot be read");
    m.stop_threads();
    try {
        m.close_user_regions(timestamp());
        // After a failed write OTF2 must not touch the archive again.
        if (m.archive_->error().empty()) m.archive_->close_events();
    } catch (const Error& e) {
        say(std::string("rank ") + std::to_string(m.world_rank_) + ": " + e.what());
    }
    m.drop();
}

bool Measurement::adopt_thread() {
    // A profile keeps one call path stack, the master's.
    if (profile_ || failed_) return false;
    openmp::ThreadRecord* thread = openmp::Recorder::instance().thread_here(openmp::kMaxThreads);
    if (!thread || !thread->writer) return false;
    auto stream = std::make_unique<Stream>();
    stream->events = thread->writer;
    stream_ = stream.get();
    const std::lock_guard lock(thread_streams_mutex_);
    thread_streams_.push_back(std::move(stream));
    return true;
}

void Measurement::stop_threads() {
    if (!archive_ || !openmp::Recorder::instance().active()) return;
    // Runs of unsuccessful tests of other threads end in their streams
    // before these close (no thread calls MPI any more: MPI_Finalize).
    Stream* own = stream_;
    for (const auto& stream : thread_streams_) {
        stream_ = stream.get();
        if (stream_->test_run.open) close_test_run();
    }
    stream_ = own;
    std::string left_out;
    threads_ = openmp::Recorder::instance().stop(left_out);
    if (!left_out.empty()) say("rank " + std::to_string(world_rank_) + ": " + left_out);
}

void Measurement::drop() {
    // A crash or MPI_Abort: OpenMP threads stop recording into the archive.
    if (archive_ && openmp::Recorder::instance().active()) {
        std::string ignored;
        openmp::Recorder::instance().stop(ignored);
    }
    // Closing the archive and freeing the communicator would need the other
    // ranks, which may be gone or not measuring: both are left as they are.
    if (archive_) archive_->abandon();
    tool_comm_ = MPI_COMM_NULL;
    instance().reset();
}

void Measurement::set_recording(bool on) {
    if (on == recording_ || failed_) return;
    if (profile_) {
        recording_ = on;
        return;
    }
    if (!on) record(OTF2_EvtWriter_MeasurementOnOff(writer(), nullptr, timestamp(), OTF2_MEASUREMENT_OFF));
    recording_ = on;
    if (on) record(OTF2_EvtWriter_MeasurementOnOff(writer(), nullptr, timestamp(), OTF2_MEASUREMENT_ON));
}

// --- events --------------------------------------------------------------------

void Measurement::after_write(OTF2_ErrorCode code) {
    const auto flush = archive_->take_flush();
    if (code != OTF2_SUCCESS || !archive_->error().empty()) {
        fail("writing the trace failed: " +
             (archive_->error().empty() ? std::string(OTF2_Error_GetDescription(code)) : archive_->error()));
        return;
    }
    if (flush) {
        const OTF2_RegionRef region = regions_.buffer_flush();
        // The flush happened while writing the event before; its interval
        // follows that event, so timestamps still never decrease.
        if (OTF2_EvtWriter_Enter(writer(), nullptr, flush->begin, region) != OTF2_SUCCESS ||
            OTF2_EvtWriter_Leave(writer(), nullptr, flush->end, region) != OTF2_SUCCESS) {
            fail("writing the trace failed while recording a buffer flush");
        }
        master_.flushed_until = flush->end;
    }
}

void Measurement::fail(const std::string& problem) {
    if (failed_) return;
    failed_ = true;
    recording_ = false;
    say("rank " + std::to_string(world_rank_) + ": " + dir_ + ": " + problem +
        "; recording stops, the program continues");
}

void Measurement::close_test_run() {
    const TestRun run = stream_->test_run;
    stream_->test_run.open = false;
    if (run.joined == 0 || failed_) return;
    // Starts no earlier than the first call of the run returned: the summed
    // calls all lie between that and run.last_leave.
    record(OTF2_EvtWriter_Enter(stream_->events, nullptr, run.last_leave - run.inside, run.region));
    record(OTF2_EvtWriter_Leave(stream_->events, nullptr, run.last_leave, run.region));
}

void Measurement::mpi_send(std::uint32_t peer, OTF2_CommRef comm, std::uint32_t tag, std::uint64_t bytes) {
    if (profile_) return profile_->message(comm, bytes, true);
    record(OTF2_EvtWriter_MpiSend(writer(), nullptr, timestamp(), peer, comm, tag, bytes));
}

// MPI-IO's records; a profile counts each as an event a trace would hold.
void Measurement::io_create_handle(std::uint32_t handle, OTF2_IoAccessMode mode, OTF2_IoCreationFlag creation,
                                   OTF2_IoStatusFlag status) {
    if (profile_) return profile_->note_event();
    record(OTF2_EvtWriter_IoCreateHandle(writer(), nullptr, timestamp(), handle, mode, creation, status));
}

// MPI RMA's records; a profile counts each as an event a trace would hold.
void Measurement::rma_win_create(std::uint32_t win) {
    if (profile_) return profile_->note_event();
    record(OTF2_EvtWriter_RmaWinCreate(writer(), nullptr, timestamp(), win));
}

void Measurement::rma_win_destroy(std::uint32_t win) {
    if (profile_) return profile_->note_event();
    record(OTF2_EvtWriter_RmaWinDestroy(writer(), nullptr, timestamp(), win));
}

void Measurement::rma_collective_begin() {
    if (profile_) return profile_->note_event();
    record(OTF2_EvtWriter_RmaCollectiveBegin(writer(), nullptr, timestamp()));
}

void Measurement::rma_collective_end(OTF2_CollectiveOp op, OTF2_RmaSyncLevel level, std::uint32_t win) {
    if (profile_) return profile_->note_event();
    record(OTF2_EvtWriter_RmaCollectiveEnd(writer(), nullptr, timestamp(), op, level, win, OTF2_UNDEFINED_UINT32, 0, 0));
}

void Measurement::rma_put(std::uint32_t win, std::uint32_t target, std::uint64_t bytes, std::uint64_t matching_id) {
    if (profile_) return profile_->note_event();
    record(OTF2_EvtWriter_RmaPut(writer(), nullptr, timestamp(), win, target, bytes, matching_id));
}

void Measurement::rma_get(std::uint32_t win, std::uint32_t target, std::uint64_t bytes, std::uint64_t matching_id) {
    if (profile_) return profile_->note_event();
    record(OTF2_EvtWriter_RmaGet(writer(), nullptr, timestamp(), win, target, bytes, matching_id));
}

void Measurement::rma_atomic(std::uint32_t win, std::uint32_t target, OTF2_RmaAtomicType type, std::uint64_t sent,
                             std::uint64_t received, std::uint64_t matching_id) {
    if (profile_) return profile_->note_event();
    record(OTF2_EvtWriter_RmaAtomic(writer(), nullptr, timestamp(), win, target, type, sent, received, matching_id));
}

void Measurement::rma_op_complete(RmaCompletion how, std::uint32_t win, std::uint64_t matching_id) {
    if (profile_) return profile_->note_event();
    const OTF2_TimeStamp now = timestamp();
    switch (how) {
    case RmaCompletion::AtBothEnds:
        return record(OTF2_EvtWriter_RmaOpCompleteBlocking(writer(), nullptr, now, win, matching_id));
    case RmaCompletion::AtOrigin:
        return record(OTF2_EvtWriter_RmaOpCompleteNonBlocking(writer(), nullptr, now, win, matching_id));
    case RmaCompletion::AtTarget:
        return record(OTF2_EvtWriter_RmaOpCompleteRemote(writer(), nullptr, now, win, matching_id));
    }
}

void Measurement::io_destroy_handle(std::uint32_t handle) {
    if (profile_) return profile_->note_event();
    record(OTF2_EvtWriter_IoDestroyHandle(writer(), nullptr, timestamp(), handle));
}

void Measurement::io_delete_file(std::uint32_t file) {
    if (profile_) return profile_->note_event();
    record(OTF2_EvtWriter_IoDeleteFile(writer(), nullptr, timestamp(), 0, file));
}

void Measurement::io_seek(std::uint32_t handle, std::int64_t offset, OTF2_IoSeekOption whence, std::uint64_t result) {
    if (profile_) return profile_->note_event();
    record(OTF2_EvtWriter_IoSeek(writer(), nullptr, timestamp(), handle, offset, whence, result));
}

void Measurement::io_operation_begin(std::uint32_t handle, OTF2_IoOperationMode mode, OTF2_IoOperationFlag flags,
                                     std::uint64_t bytes, std::uint64_t matching_id) {
    if (profile_) return profile_->note_event();
    record(OTF2_EvtWriter_IoOperationBegin(writer(), nullptr, timestamp(), handle, mode, flags, bytes, matching_id));
}

void Measurement::io_operation_issued(std::uint32_t handle, std::uint64_t matching_id) {
    if (profile_) return profile_->note_event();
    record(OTF2_EvtWriter_IoOperationIssued(writer(), nullptr, timestamp(), handle, matching_id));
}

void Measurement::io_operation_test(std::uint32_t handle, std::uint64_t matching_id) {
    if (profile_) return profile_->note_event();
    record(OTF2_EvtWriter_IoOperationTest(writer(), nullptr, timestamp(), handle, matching_id));
}

void Measurement::io_operation_complete(std::uint32_t handle, std::uint64_t bytes, std::uint64_t matching_id) {
    if (profile_) return profile_->note_event();
    record(OTF2_EvtWriter_IoOperationComplete(writer(), nullptr, timestamp(), handle, bytes, matching_id));
}

void Measurement::io_operation_cancelled(std::uint32_t handle, std::uint64_t matching_id) {
    if (profile_) return profile_->note_event();
    record(OTF2_EvtWriter_IoOperationCancelled(writer(), nullptr, timestamp(), handle, matching_id));
}

void Measurement::mpi_recv(std::uint32_t peer, OTF2_CommRef comm, std::uint32_t tag, std::uint64_t bytes) {
    if (profile_) return profile_->message(comm, bytes, false);
    record(OTF2_EvtWriter_MpiRecv(writer(), nullptr, timestamp(), peer, comm, tag, bytes));
}

void Measurement::mpi_isend_at(std::uint64_t time, std::uint32_t peer, OTF2_CommRef comm, std::uint32_t tag,
                               std::uint64_t bytes, std::uint64_t request) {
    if (profile_) return profile_->message(comm, bytes, true);
    record(OTF2_EvtWriter_MpiIsend(writer(), nullptr, std::max(time, stream_->flushed_until), peer, comm, tag, bytes, request));
}

void Measurement::mpi_isend_complete(std::uint64_t request) {
    if (profile_) return profile_->note_event();  // a request's state, which a profile leaves out
    record(OTF2_EvtWriter_MpiIsendComplete(writer(), nullptr, timestamp(), request));
}

void Measurement::mpi_irecv_request(std::uint64_t request) {
    if (profile_) return profile_->note_event();  // a request's state, which a profile leaves out
    record(OTF2_EvtWriter_MpiIrecvRequest(writer(), nullptr, timestamp(), request));
}

void Measurement::mpi_irecv_request_at(std::uint64_t time, std::uint64_t request) {
    if (profile_) return profile_->note_event();
    record(OTF2_EvtWriter_MpiIrecvRequest(writer(), nullptr, std::max(time, stream_->flushed_until), request));
}

void Measurement::mpi_irecv(std::uint32_t peer, OTF2_CommRef comm, std::uint32_t tag, std::uint64_t bytes,
                            std::uint64_t request) {
    if (profile_) return profile_->message(comm, bytes, false);
    record(OTF2_EvtWriter_MpiIrecv(writer(), nullptr, timestamp(), peer, comm, tag, bytes, request));
}

void Measurement::mpi_request_test(std::uint64_t request) {
    if (profile_) return profile_->note_event();  // a request's state, which a profile leaves out
    record(OTF2_EvtWriter_MpiRequestTest(writer(), nullptr, timestamp(), request));
}

void Measurement::mpi_request_cancelled(std::uint64_t request) {
    if (profile_) return profile_->note_event();  // a request's state, which a profile leaves out
    record(OTF2_EvtWriter_MpiRequestCancelled(writer(), nullptr, timestamp(), request));
}

void Measurement::mpi_collective_begin() {
    if (profile_) return profile_->note_event();
    record(OTF2_EvtWriter_MpiCollectiveBegin(writer(), nullptr, timestamp()));
}

bool Measurement::first_member(OTF2_CommRef comm) const {
    const auto& records = comms_.records();
    if (comm >= records.size()) return false;
    const CommRecord& record = records[comm];
    // An inter-communicator's ranks are both groups, the one holding the
    // lower MPI_COMM_WORLD rank first (local_group_first); MPI_COMM_SELF
    // lists no members: this rank is its rank 0.
    const std::vector<int>& first_group =
        record.inter && !local_group_first(record) ? record.remote_members : record.members;
    return first_group.empty() || first_group.front() == world_rank_;
}

void Measurement::rma_group_sync(OTF2_RmaSyncLevel level, std::uint32_t win, std::uint32_t group) {
    if (profile_) return profile_->note_event();
    record(OTF2_EvtWriter_RmaGroupSync(writer(), nullptr, timestamp(), level, win, group));
}

// Score-P's MPI adapter gives every lock id 0: MPI names a window's lock by
// its target alone.
void Measurement::rma_request_lock(std::uint64_t time, std::uint32_t win, std::uint32_t remote, OTF2_LockType type) {
    if (profile_) return profile_->note_event();
    record(OTF2_EvtWriter_RmaRequestLock(writer(), nullptr, time, win, remote, 0, type));
}

void Measurement::rma_release_lock(std::uint32_t win, std::uint32_t remote) {
    if (profile_) return profile_->note_event();
    record(OTF2_EvtWriter_RmaReleaseLock(writer(), nullptr, timestamp(), win, remote, 0));
}

std::uint32_t Measurement::rma_group(std::vector<int> world_ranks) {
    if (profile_) return kNoSources;
    return source_groups_.id(std::move(world_ranks));
}

std::uint32_t Measurement::source_group(OTF2_CommRef comm, const std::vector<int>& ranks) {
    // A profile keeps no receive sources: nothing to look up or allocate.
    if (profile_) return kNoSources;
    const auto& records = comms_.records();
    if (comm >= records.size()) return kNoSources;
    const CommRecord& record = records[comm];
    // MPI names the remote group's ranks on an inter-communicator; the
    // record of MPI_COMM_SELF lists no members, it has this rank alone.
    const std::vector<int> self{world_rank_};
    const std::vector<int>* members = &record.members;
    if (record.inter) members = &record.remote_members;
    else if (record.key == kSelfKey) members = &self;
    std::vector<int> world_ranks;
    world_ranks.reserve(ranks.size());
    for (const int rank : ranks) {
        if (rank < 0 || static_cast<std::size_t>(rank) >= members->size()) return kNoSources;
        world_ranks.push_back((*members)[static_cast<std::size_t>(rank)]);
    }
    return source_groups_.id(std::move(world_ranks));
}

OTF2_AttributeList* Measurement::sources_attribute(std::uint32_t sources) {
    OTF2_AttributeList* attributes = stream_->attributes.get();
    if (sources == kNoSources || !attributes) return nullptr;
    OTF2_AttributeList_RemoveAllAttributes(attributes);
    if (OTF2_AttributeList_AddGroupRef(attributes, kReceiveSourcesAttributeId, sources) != OTF2_SUCCESS)
        return nullptr;
    return attributes;
}

void Measurement::mpi_collective_end(OTF2_CollectiveOp op, OTF2_CommRef comm, std::uint32_t root,
                                     std::uint64_t sent, std::uint64_t received, std::uint32_t sources) {
    if (profile_) return profile_->collective(comm, sent, received, first_member(comm));
    record(OTF2_EvtWriter_MpiCollectiveEnd(writer(), sources_attribute(sources), timestamp(), op, comm, root, sent,
                                           received));
}

void Measurement::nonblocking_collective_request(OTF2_CommRef comm, std::uint64_t request) {
    // The operation counts with the call that starts it, as in the trace
    // analysis; its bytes come when it completes.
    if (profile_) return profile_->collective(comm, 0, 0, first_member(comm));
    record(OTF2_EvtWriter_NonBlockingCollectiveRequest(writer(), nullptr, timestamp(), request));
}

void Measurement::nonblocking_collective_complete(OTF2_CollectiveOp op, OTF2_CommRef comm, std::uint32_t root,
                                                  std::uint64_t sent, std::uint64_t received,
                                                  std::uint64_t request, std::uint32_t started_by,
                                                  std::uint32_t sources) {
    if (profile_) return profile_->collective_completed(comm, started_by, sent, received);
    record(OTF2_EvtWriter_NonBlockingCollectiveComplete(writer(), sources_attribute(sources), timestamp(), op, comm,
                                                        root, sent, received, request));
}

// --- user regions ----------------------------------------------------------------

void Measurement::user_enter(OTF2_RegionRef region, std::uint64_t time) {
    const bool recorded = recording_ && region != OTF2_UNDEFINED_REGION;
    if (recorded) enter_at(region, time);
    user_stack_.push_back({region, recorded});
}

void Measurement::user_leave(std::uint64_t time) {
    if (user_stack_.empty()) return;  // more ends than begins: nothing to pair with
    const OpenRegion top = user_stack_.back();
    user_stack_.pop_back();
    if (top.recorded) leave_at(top.region, time);
}

std::string Measurement::call_path() const {
    std::string path;
    if (stream_ != &master_) return path;  // other threads' user regions are not tracked
    for (const OpenRegion& open : user_stack_) {
        if (!open.recorded) continue;
        if (!path.empty()) path += " > ";
        path += regions_.definitions()[open.region].name;
    }
    return path;
}

void Measurement::close_user_regions(std::uint64_t time) {
    while (!user_stack_.empty()) user_leave(time);
}

// --- writing the trace at MPI_Finalize -------------------------------------------

void Measurement::write_definitions(const TransferredDefinitions& transferred, const ClockWindow& window) {
    // OpenMP's regions and teams have local ids of their own range.
    std::vector<std::uint64_t> openmp_regions;
    for (std::size_t i = 0; i < threads_.regions.size(); ++i) openmp_regions.push_back(openmp::kRegionBase + i);
    std::vector<std::uint64_t> teams;
    for (const std::uint32_t size : threads_.team_sizes) teams.push_back(openmp::kTeamBase + size);
    archive_->write_local_definitions([&](OTF2_DefWriter* writer) {
        write_mapping(writer, OTF2_MAPPING_REGION, transferred.region_map, openmp_regions);
        write_mapping(writer, OTF2_MAPPING_COMM, transferred.comm_map, teams);
        write_mapping(writer, OTF2_MAPPING_GROUP, transferred.group_map);
        write_mapping(writer, OTF2_MAPPING_IO_FILE, transferred.io_file_map);
        write_mapping(writer, OTF2_MAPPING_IO_HANDLE, transferred.io_handle_map);
        write_mapping(writer, OTF2_MAPPING_RMA_WIN, transferred.rma_win_map);
        for (const ClockOffset& c : clock_offsets_) {
            OTF2_DefWriter_WriteClockOffset(writer, c.time, c.offset, c.deviation);
        }
    }, threads_.locations);
    if (world_rank_ == 0) {
        archive_->write_global_definitions([&](OTF2_GlobalDefWriter* writer) {
            write_global_definitions(writer, transferred.unified, window, program_);
        });
    }
}

void Measurement::write_trace(TimerSample program_end) {
    // Every step that talks to the other ranks runs on every rank whatever
    // happened locally, so that a local failure never leaves a peer waiting.
    std::string problem;
    std::uint64_t event_count = 0;
    if (archive_->error().empty()) {
        try {
            event_count = archive_->close_events();
        } catch (const Error& e) {
            problem = e.what();
        }
    }
    // Once OTF2 failed to write a file it crashes on touching the archive
    // again (OTF2 3.0 flushes into the broken file). All ranks learn of such
    // a failure anywhere and then leave the archive unfinished alike.
    int broken_here = (archive_->error().empty() && problem.empty()) ? 0 : 1;
    const int broken_anywhere = over_ranks(broken_here, MPI_INT, MPI_MAX);
    if (broken_anywhere) {
        if (broken_here && !failed_) {  // else said when it happened
            say("rank " + std::to_string(world_rank_) + ": " +
                (problem.empty() ? dir_ + ": writing the trace failed: " + archive_->error() : problem));
        }
        archive_->abandon();
        if (world_rank_ == 0) {
            say("the trace " + absolute_path(dir_) + "/traces.otf2 is incomplete and cannot be read "
                "(see the messages above)");
        }
        return;
    }

    // Clock window over all ranks, in rank 0's time.
    const ClockOffset& first = clock_offsets_.front();
    const ClockOffset& last = clock_offsets_.back();
    std::uint64_t begin =
        program_begin_.ticks + static_cast<std::uint64_t>(offset_at(first, last, program_begin_.ticks));
    std::uint64_t end = program_end.ticks + static_cast<std::uint64_t>(offset_at(first, last, program_end.ticks));
    const std::uint64_t global_begin = over_ranks(begin, MPI_UINT64_T, MPI_MIN);
    const std::uint64_t global_end = over_ranks(end, MPI_UINT64_T, MPI_MAX);
    std::uint64_t rank_events = event_count;  // with the OpenMP threads'
    for (const std::uint64_t thread_events : threads_.thread_events) rank_events += thread_events;
    const std::uint64_t total_events = over_ranks(rank_events, MPI_UINT64_T, MPI_SUM);

    LocalDefinitions local{regions_.definitions(), comms_.records(), hostname(), event_count,
                           source_groups_.sets(), io_.files(), io_.handles(), threads_.thread_events,
                           threads_.team_sizes, rma_.windows()};
    local.regions.insert(local.regions.end(), threads_.regions.begin(), threads_.regions.end());
    const TransferredDefinitions transferred =
        tool_comm_ == MPI_COMM_NULL ? unify_alone(local) : unify_across_ranks(local, tool_comm_);
    if (transferred.failed) {
        // Without unified definitions the local ones have nothing to map to;
        // every rank knows this and skips them alike.
        if (world_rank_ == 0 && problem.empty()) problem = transferred.failure;
    } else {
        // Timestamps are rank 0's ticks (the offsets map the other ranks'
        // onto them), so its timer's rate is the trace's.
        const std::uint64_t rate = ticks_per_second(Timer::source(), program_begin_, program_end);
        const ClockWindow window{rate, global_begin, global_end - global_begin, realtime_of(global_begin, rate)};
        try {
            write_definitions(transferred, window);
        } catch (const Error& e) {
            if (problem.empty()) problem = e.what();
        }
    }
    try {
        archive_->close();
    } catch (const Error& e) {
        if (problem.empty()) problem = e.what();
    }
    int failed_here = (failed_ || transferred.failed || !problem.empty()) ? 1 : 0;
    const int failed_anywhere = over_ranks(failed_here, MPI_INT, MPI_MAX);
    // After a failed write (said when it happened) later problems follow from it.
    if (!problem.empty() && !failed_) say("rank " + std::to_string(world_rank_) + ": " + problem);
    if (world_rank_ == 0) {
        const std::string anchor = absolute_path(dir_) + "/traces.otf2";
        if (failed_anywhere) {
            say("the trace " + anchor + " is incomplete (see the messages above)");
        } else {
            const std::uintmax_t bytes = archive_size(dir_);
            if (!config_.quiet) say(written_trace_line(total_events, bytes, world_size_, anchor));
            // The exact amounts, for scripts (bench/collector/run).
            if (config_.verbose) {
                say("the trace holds " + std::to_string(total_events) + " events in " + std::to_string(bytes) +
                    " bytes");
            }
        }
    }
}

void Measurement::write_profile(TimerSample program_end) {
    // As for a trace, every step that talks to the other ranks runs on
    // every rank whatever happened locally.
    const std::uint64_t rate = ticks_per_second(Timer::source(), program_begin_, program_end);
    if (config_.verbose) {
        say("rank " + std::to_string(world_rank_) + ": the profile holds " + std::to_string(profile_->tree().size()) +
            " call paths in " + std::to_string(profile_->memory_bytes()) + " bytes");
    }
    LocalDefinitions local{regions_.definitions(), comms_.records(), hostname(), 0, source_groups_.sets(),
                           io_.files(), io_.handles(), {}, {}, rma_.windows()};
    const TransferredDefinitions transferred = unify_across_ranks(local, tool_comm_);
    if (transferred.failed) {
        if (world_rank_ == 0) say(transferred.failure + "; no profile is written");
        return;
    }
    const RankProfile mine = rank_profile(*profile_, rate > 0 ? 1.0 / static_cast<double>(rate) : 0.0);
    const std::vector<std::vector<std::byte>> parts = gather_to_rank_0(serialize(mine), tool_comm_);
    if (world_rank_ != 0) return;
    try {
        std::vector<RankProfile> ranks;
        for (std::size_t r = 0; r < parts.size(); ++r) ranks.push_back(deserialize_profile(parts[r], static_cast<int>(r)));
        const std::filesystem::path report = write_profile_files(dir_, transferred.unified, ranks);
        if (!config_.quiet) say("profile of " + std::to_string(world_size_) + " ranks written to " + absolute_path(report));
    } catch (const Error& e) {
        say(std::string(e.what()) + "; the profile is incomplete");
    }
}

}  // namespace hindsight::collect
