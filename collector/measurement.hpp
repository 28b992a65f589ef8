// The measurement of this process: the one piece of global state of the
// collector. It exists from MPI_Init to MPI_Finalize (or to a failure) and
// owns everything the wrappers record into: the OTF2 archive (or, in
// profile mode, the call-path profile instead), the local definitions and
// the outstanding requests.
//
// Every thread records into a stream of its own: the thread that loaded the
// library (the MPI "master" thread) into its rank's location, another thread
// that calls MPI (MPI_THREAD_SERIALIZED or MULTIPLE) into its OpenMP
// location (openmp_recorder.hpp). With MPI_THREAD_MULTIPLE the shared
// registries (regions, communicators, requests, messages, files) are used
// under one lock (RegistryLock); otherwise no lock is taken.
#pragma once

#include <pthread.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <mpi.h>

#include "collector/call_path_profile.hpp"
#include "collector/clock_sync.hpp"
#include "collector/comm_registry.hpp"
#include "collector/config.hpp"
#include "collector/definition_transfer.hpp"
#include "collector/definitions_writer.hpp"
#include "collector/message_registry.hpp"
#include "collector/openmp_recorder.hpp"
#include "collector/mpi_functions.hpp"
#include "collector/region_filter.hpp"
#include "collector/region_registry.hpp"
#include "collector/request_registry.hpp"
#include "collector/io_registry.hpp"
#include "collector/rma_registry.hpp"
#include "collector/source_groups.hpp"
#include "collector/timer.hpp"
#include "collector/trace_archive.hpp"

namespace hindsight::collect {

// Prefix of every message the collector prints.
inline constexpr const char* kMessagePrefix = "hindsight-collect: ";

// Hidden: nothing outside the library uses it, and its static members and
// inline functions are then reached without a detour through the GOT/PLT.
class __attribute__((visibility("hidden"))) Measurement {
public:
    // The measurement, when there is one and the caller is the master thread.
    static Measurement* live_here() noexcept {
        Measurement* m = live_;
        return m && pthread_equal(pthread_self(), master_thread_) ? m : nullptr;
    }
    // The measurement for an MPI call of the program, on the calling
    // thread's stream; none for MPI calls made while another one is in
    // progress on this thread: the collector's own, and those the MPI
    // library makes itself through the PMPI_* names (MPICH's MPI-IO calls
    // PMPI_Allreduce & co.), which the collector intercepts too; they belong
    // to the call that makes them. Calls of threads that cannot be recorded
    // (profile mode, no location left) are counted, so that the trace does
    // not pass for the whole program unremarked (finish() says how many).
    static Measurement* enter_mpi() noexcept {
        Measurement* m = live_;
        if (!m) return nullptr;
        if (!stream_) [[unlikely]] {
            if (!m->adopt_thread()) {
                other_thread_calls_.fetch_add(1, std::memory_order_relaxed);
                return nullptr;
            }
        }
        if (inside_mpi_) return nullptr;
        inside_mpi_ = true;
        return m;
    }
    // Ends what enter_mpi() began.
    static void leave_mpi() noexcept { inside_mpi_ = false; }
    // Marks the MPI calls the collector makes outside every wrapper (while it
    // starts and ends the measurement) as its own.
    class InsideMpi {
    public:
        InsideMpi() noexcept : outer_(inside_mpi_) { inside_mpi_ = true; }
        ~InsideMpi() { inside_mpi_ = outer_; }
        InsideMpi(const InsideMpi&) = delete;
        InsideMpi& operator=(const InsideMpi&) = delete;

    private:
        bool outer_;
    };
    // Holds the lock of the shared registries while a handler of a thread's
    // MPI call uses them, when MPI calls of several threads can race
    // (MPI_THREAD_MULTIPLE); nested handlers take it once.
    class RegistryLock {
    public:
        explicit RegistryLock(Measurement& m) noexcept : m_(m.multiple_ && !holding_ ? &m : nullptr) {
            if (!m_) return;
            m_->registry_mutex_.lock();
            holding_ = true;
        }
        ~RegistryLock() {
            if (!m_) return;
            holding_ = false;
            m_->registry_mutex_.unlock();
        }
        RegistryLock(const RegistryLock&) = delete;
        RegistryLock& operator=(const RegistryLock&) = delete;

    private:
        Measurement* m_;
        static inline thread_local bool holding_ __attribute__((tls_model("initial-exec"))) = false;
    };
    // Remembers the thread that loads the library as the master thread.
    static void set_master_thread(pthread_t thread) noexcept { master_thread_ = thread; }

    // Starts measuring right after PMPI_Init(_thread) returned; collective.
    // When the configuration or the output directory is unusable it prints
    // why and leaves the program unmeasured.
    static void start(MpiFunction init, std::uint64_t init_enter);
    // Writes the trace; collective, called by MPI_Finalize before PMPI_Finalize.
    static void finish(std::uint64_t finalize_enter);
    // Saves what can be saved without the other ranks (MPI_Abort, exit
    // without MPI_Finalize) and stops measuring.
    static void abandon(const std::string& why);
    // A program without MPI (without_mpi.hpp) is measured as rank 0 of 1
    // from the start of its OpenMP runtime (openmp_tool.cpp) to its exit,
    // when finish_without_mpi() writes the trace; nothing here talks to
    // MPI, and MPI calls are not recorded (no measurement is live for them).
    static void start_without_mpi();
    static void finish_without_mpi();

    Measurement(const Measurement&) = delete;
    Measurement& operator=(const Measurement&) = delete;
    ~Measurement();

    // True while events are recorded (MPI_Pcontrol may pause recording).
    bool recording() const noexcept { return recording_; }
    void set_recording(bool on);

    RegionRegistry& regions() { return regions_; }
    // The region of MPI function `f` (a table lookup once defined).
    OTF2_RegionRef mpi_region(MpiFunction f) {
        const RegistryLock lock(*this);
        return regions_.mpi(f);
    }
    CommRegistry& comms() { return comms_; }
    IoRegistry& io() { return io_; }
    RmaRegistry& rma() { return rma_; }
    RequestRegistry& requests() { return requests_; }
    MessageRegistry& messages() { return messages_; }
    const RegionFilter& filter() const { return filter_; }
    int world_rank() const { return world_rank_; }
    bool verbose() const { return config_.verbose; }

    // Scratch space for the completion handlers (no allocation per call).
    std::vector<MPI_Request>& scratch_requests() { return stream_->scratch_requests; }
    std::vector<MPI_Status>& scratch_statuses() { return stream_->scratch_statuses; }

    // --- events (timestamped now) ------------------------------------------
    // ENTER and LEAVE are what every wrapper writes: inline, so that the
    // wrapper's added cost is two timer readings and two OTF2 records.
    void enter(OTF2_RegionRef region) { enter_at(region, timestamp()); }
    void leave(OTF2_RegionRef region) { leave_at(region, timestamp()); }
    // In profile mode they add to the call-path profile instead.
    void enter_at(OTF2_RegionRef region, std::uint64_t time) {
        if (profile_) profile_->enter(region, time);
        else if (!failed_) record(OTF2_EvtWriter_Enter(writer(), nullptr, time, region));
    }
    void leave_at(OTF2_RegionRef region, std::uint64_t time) {
        if (profile_) profile_->leave(time);
        else if (!failed_) record(OTF2_EvtWriter_Leave(writer(), nullptr, time, region));
    }

    // --- runs of unsuccessful tests ------------------------------------------
    // A polling loop calls MPI_Test (Testany, Testall, Testsome, Iprobe) on
    // the same requests until one completes. The first unsuccessful call of
    // such a run is recorded in full; the calls after it that are just as
    // unsuccessful, on the same requests, with nothing recorded in between,
    // are summed into one region of that function that ends when the last of
    // them left and lasts as long as they did together. The time inside the
    // calls stays exact, their number is not; the run is closed by the next
    // event this location records.
    //
    // After an unsuccessful test of `region` on requests hashed to
    // `signature` was recorded (its LEAVE written): later ones may join it.
    // A profile counts every call: it never sums tests into one.
    void arm_test_run(OTF2_RegionRef region, std::uint64_t signature) {
        if (profile_) return;
        stream_->test_run = TestRun{true, region, signature, 0, 0, 0};
    }
    // An unsuccessful test entered at `entered`: true when it joined the
    // run and is therefore not to be recorded on its own.
    bool join_test_run(OTF2_RegionRef region, std::uint64_t signature, std::uint64_t entered) {
        TestRun& run = stream_->test_run;
        if (!run.open || run.region != region || run.signature != signature) return false;
        const std::uint64_t now = timestamp();
        run.inside += now - entered;
        run.last_leave = now;
        ++run.joined;
        return true;
    }
    void mpi_send(std::uint32_t peer, OTF2_CommRef comm, std::uint32_t tag, std::uint64_t bytes);
    void mpi_recv(std::uint32_t peer, OTF2_CommRef comm, std::uint32_t tag, std::uint64_t bytes);
    // At `time`, or right after a buffer flush recorded since: a send is
    // recorded when its call began, as Score-P does (see on_isend), though
    // its request is known only once MPI returns; so are the requests that
    // MPI_Start and MPI_Startall start with it.
    void mpi_isend_at(std::uint64_t time, std::uint32_t peer, OTF2_CommRef comm, std::uint32_t tag,
                      std::uint64_t bytes, std::uint64_t request);
    void mpi_irecv_request_at(std::uint64_t time, std::uint64_t request);
    void mpi_isend_complete(std::uint64_t request);
    void mpi_irecv_request(std::uint64_t request);
    void mpi_irecv(std::uint32_t peer, OTF2_CommRef comm, std::uint32_t tag, std::uint64_t bytes,
                   std::uint64_t request);
    void mpi_request_test(std::uint64_t request);
    void mpi_request_cancelled(std::uint64_t request);
    void mpi_collective_begin();
    // `sources`: the local source group (source_group()) the operation
    // received data from, recorded as Hindsight's receive-sources
    // attribute; kNoSources: none recorded.
    static constexpr std::uint32_t kNoSources = UINT32_MAX;
    void mpi_collective_end(OTF2_CollectiveOp op, OTF2_CommRef comm, std::uint32_t root,
                            std::uint64_t sent, std::uint64_t received, std::uint32_t sources = kNoSources);
    void nonblocking_collective_request(OTF2_CommRef comm, std::uint64_t request);
    // `started_by`: the region of the call that started the operation.
    void nonblocking_collective_complete(OTF2_CollectiveOp op, OTF2_CommRef comm, std::uint32_t root,
                                         std::uint64_t sent, std::uint64_t received, std::uint64_t request,
                                         std::uint32_t started_by, std::uint32_t sources = kNoSources);
    // The region of the MPI call being recorded (profile mode; kNoId else).
    std::uint32_t current_region() const { return profile_ ? profile_->current_region() : kNoId; }
    // MPI-IO as Score-P records it, on local handle and file ids
    // (io_registry.hpp); paradigm 0 is MPI-IO.
    void io_create_handle(std::uint32_t handle, OTF2_IoAccessMode mode, OTF2_IoCreationFlag creation,
                          OTF2_IoStatusFlag status);
    void io_destroy_handle(std::uint32_t handle);
    void io_delete_file(std::uint32_t file);
    void io_seek(std::uint32_t handle, std::int64_t offset, OTF2_IoSeekOption whence, std::uint64_t result);
    void io_operation_begin(std::uint32_t handle, OTF2_IoOperationMode mode, OTF2_IoOperationFlag flags,
                            std::uint64_t bytes, std::uint64_t matching_id);
    void io_operation_issued(std::uint32_t handle, std::uint64_t matching_id);
    void io_operation_test(std::uint32_t handle, std::uint64_t matching_id);
    void io_operation_complete(std::uint32_t handle, std::uint64_t bytes, std::uint64_t matching_id);
    void io_operation_cancelled(std::uint32_t handle, std::uint64_t matching_id);
    // MPI RMA as Score-P records it, on local window ids (rma_registry.hpp).
    void rma_win_create(std::uint32_t win);
    void rma_win_destroy(std::uint32_t win);
    void rma_collective_begin();
    void rma_collective_end(OTF2_CollectiveOp op, OTF2_RmaSyncLevel level, std::uint32_t win);
    void rma_put(std::uint32_t win, std::uint32_t target, std::uint64_t bytes, std::uint64_t matching_id);
    void rma_get(std::uint32_t win, std::uint32_t target, std::uint64_t bytes, std::uint64_t matching_id);
    void rma_atomic(std::uint32_t win, std::uint32_t target, OTF2_RmaAtomicType type, std::uint64_t sent,
                    std::uint64_t received, std::uint64_t matching_id);
    // A transfer completed: at both ends in one synchronization
    // (RMA_OP_COMPLETE_BLOCKING), at the origin only (its request, a local
    // flush: _NON_BLOCKING), or at its target after the origin (_REMOTE).
    enum class RmaCompletion : std::uint8_t { AtBothEnds, AtOrigin, AtTarget };
    void rma_op_complete(RmaCompletion how, std::uint32_t win, std::uint64_t matching_id);
    void rma_group_sync(OTF2_RmaSyncLevel level, std::uint32_t win, std::uint32_t group);
    // Passive target: a lock on `remote` (OTF2_UNDEFINED_UINT32: on every
    // target of the window) requested at `time`, and its release (now).
    void rma_request_lock(std::uint64_t time, std::uint32_t win, std::uint32_t remote, OTF2_LockType type);
    void rma_release_lock(std::uint32_t win, std::uint32_t remote);
    // The partners of an epoch of general active target synchronization
    // (world ranks) as a local group id, in the table of the receive
    // sources, which a program's repeated epochs share as well; kNoSources
    // in a profile, which keeps no groups.
    std::uint32_t rma_group(std::vector<int> world_ranks);
    // The local source group of the peers `ranks` of `comm` (local id), as
    // MPI numbers them in the call (the remote group's ranks on an
    // inter-communicator); kNoSources for a rank the communicator lacks.
    std::uint32_t source_group(OTF2_CommRef comm, const std::vector<int>& ranks);

    // An OpenMP event of the master thread (openmp_recorder.hpp) joins its
    // stream: `write` gets the writer and returns OTF2's code.
    void record_with(OTF2_ErrorCode (*write)(OTF2_EvtWriter*, void*), void* context) {
        if (!profile_ && !failed_) record(write(writer(), context));
    }

    // --- user and compiler regions (a stack, so that begin/end stay paired
    // however recording is switched on and off in between) ------------------
    // `region` is OTF2_UNDEFINED_REGION for a filtered region.
    void user_enter(OTF2_RegionRef region, std::uint64_t time);
    void user_leave(std::uint64_t time);
    // The open recorded user and compiler regions, outermost first, as
    // "main > setup" (names communicators after where they were made).
    std::string call_path() const;

private:
    // `with_mpi` false: a program without MPI, one rank, no tool communicator.
    Measurement(Config config, RegionFilter filter, std::string dir, int world_rank, int world_size,
                bool with_mpi = true);
    // `value` reduced with `op` over the ranks (the value itself without MPI).
    template <typename T>
    T over_ranks(T value, MPI_Datatype type, MPI_Op op) {
        if (tool_comm_ == MPI_COMM_NULL) return value;
        T out{};
        PMPI_Allreduce(&value, &out, 1, type, op, tool_comm_);
        return out;
    }

    // The event writer, once a run of unsuccessful tests has been closed:
    // every event goes through here.
    OTF2_EvtWriter* writer() {
        if (stream_->test_run.open) [[unlikely]] close_test_run();
        return stream_->events;
    }
    void close_test_run();
    // Gives a thread other than the master a stream (its OpenMP location);
    // false when it cannot have one.
    bool adopt_thread();
    // Checks an OTF2 result and records a buffer flush that happened while
    // writing; after a failure the measurement stops recording.
    void record(OTF2_ErrorCode code) {
        // Buffer flushes are recorded on the master's stream only.
        if (code != OTF2_SUCCESS || (stream_ == &master_ && archive_->needs_attention())) [[unlikely]]
            after_write(code);
    }
    void after_write(OTF2_ErrorCode code);
    void fail(const std::string& problem);
    // Ends this measurement without talking to the other ranks.
    void drop();
    // Stops recording OpenMP threads and keeps their definitions.
    void stop_threads();
    void write_flush_region();
    void close_user_regions(std::uint64_t time);
    void write_trace(TimerSample program_end);
    // Profile mode: gathers the ranks' profiles and writes them (profile_files.hpp).
    void write_profile(TimerSample program_end);
    // Whether this rank is rank 0 of `comm`, which counts its collectives.
    bool first_member(OTF2_CommRef comm) const;
    void write_definitions(const TransferredDefinitions& transferred, const ClockWindow& window);

    static inline Measurement* live_ = nullptr;
    static inline pthread_t master_thread_{};
    // Whether this thread is inside an MPI call (each thread its own).
    static inline thread_local bool inside_mpi_ __attribute__((tls_model("initial-exec"))) = false;
    // MPI calls of the program made by other threads while measuring.
    static inline std::atomic<std::uint64_t> other_thread_calls_{0};

    Config config_;
    RegionFilter filter_;
    std::string dir_;
    int world_rank_;
    int world_size_;
    MPI_Comm tool_comm_ = MPI_COMM_NULL;  // private duplicate of MPI_COMM_WORLD
    std::unique_ptr<TraceArchive> archive_;  // none in profile mode
    std::unique_ptr<CallPathProfile> profile_;  // profile mode only
    OTF2_RegionRef program_region_ = OTF2_UNDEFINED_REGION;
    RegionRegistry regions_;
    CommRegistry comms_;
    IoRegistry io_;
    RmaRegistry rma_;
    RequestRegistry requests_;
    MessageRegistry messages_;
    struct TestRun {
        bool open = false;
        OTF2_RegionRef region = OTF2_UNDEFINED_REGION;
        std::uint64_t signature = 0;
        std::uint64_t joined = 0;      // calls summed after the first
        std::uint64_t inside = 0;      // their time inside MPI
        std::uint64_t last_leave = 0;  // when the last of them returned
    };
    // Holds the receive sources of the one event being written.
    struct AttributeListDelete {
        void operator()(OTF2_AttributeList* list) const { OTF2_AttributeList_Delete(list); }
    };
    // What a thread records into: its writer and its own state of the
    // events being written.
    struct Stream {
        OTF2_EvtWriter* events = nullptr;
        TestRun test_run;
        // The end of the last buffer flush recorded: events stamped with an
        // earlier time (mpi_isend_at) move after it, so that no time
        // decreases (the master's; other threads' flushes are not recorded).
        std::uint64_t flushed_until = 0;
        // Scratch space for the completion handlers (no allocation per call).
        std::vector<MPI_Request> scratch_requests;
        std::vector<MPI_Status> scratch_statuses;
        std::unique_ptr<OTF2_AttributeList, AttributeListDelete> attributes{OTF2_AttributeList_New()};
    };
    Stream master_;
    static inline thread_local Stream* stream_ __attribute__((tls_model("initial-exec"))) = nullptr;
    // Other threads' streams, made at their first MPI call.
    std::vector<std::unique_ptr<Stream>> thread_streams_;
    std::mutex thread_streams_mutex_;
    // MPI_THREAD_MULTIPLE: handlers take registry_mutex_ (RegistryLock).
    bool multiple_ = false;
    std::mutex registry_mutex_;
    // The OpenMP threads' part of the definitions, from MPI_Finalize on.
    openmp::ThreadDefinitions threads_;
    std::vector<ClockOffset> clock_offsets_;
    TimerSample program_begin_;  // also the first point of the timer's calibration
    ProgramCall program_;        // as PROGRAM_BEGIN names it (rank 0's in the definitions)
    bool recording_ = false;
    bool failed_ = false;

    struct OpenRegion {
        OTF2_RegionRef region;
        bool recorded;
    };
    std::vector<OpenRegion> user_stack_;
    SourceGroups source_groups_;
    // The attribute list of an event with the receive sources `sources`;
    // nullptr for none.
    OTF2_AttributeList* sources_attribute(std::uint32_t sources);

    friend class MeasurementTestAccess;
};

}  // namespace hindsight::collect
