// OpenMP threads as locations of their own: the rank-wide state behind the
// OMPT tool (openmp_tool.cpp), in Score-P's conventions (doc/collector.md,
// "OpenMP").
//
// Every thread records into an event writer of its own, the master into
// the measurement's stream (it is the thread that makes the MPI calls), a
// worker into one made for location (thread << 32) | rank at its first
// event. The event path takes no lock: each thread touches only its own
// ThreadRecord. Locks are taken where a thread meets something new (its
// registration, a construct or an OpenMP lock seen for the first time),
// once per thread and construct.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include <otf2/otf2.h>

#include "collector/region_registry.hpp"
#include "collector/runtime_call_site.hpp"

namespace hindsight::collect {

class Measurement;
class TraceArchive;

namespace openmp {

// Local ids outside the dense ranges of the MPI regions and communicators:
// the mapping tables at MPI_Finalize name them one by one.
inline constexpr OTF2_RegionRef kRegionBase = 0x40000000u;
inline constexpr OTF2_CommRef kTeamBase = 0x40000000u;  // + the team's size
// Threads of a rank that get a location; more are left out (one warning).
inline constexpr std::uint32_t kMaxThreads = 1024;

// The OpenMP constructs recorded as regions, Score-P's names and roles.
enum class Construct : std::uint8_t {
    Parallel,
    ImplicitBarrier,
    Barrier,
    Taskwait,
    Taskgroup,
    Task,        // an explicit task's run
    UntiedTask,  // an untied task's run up to where it was suspended
    Loop,
    Taskloop,
    Sections,
    Single,
    Workshare,
    Masked,
    Critical,
    CriticalSblock,
    Ordered,
    OrderedSblock,
    SetLock,
    UnsetLock,
    TestLock,
    SetNestLock,
    UnsetNestLock,
    TestNestLock,
};

// One thread's recording state; only its own thread touches it, except the
// master, which closes a worker's region at the join (the worker waits in
// the runtime's barrier then) and its writer at MPI_Finalize.
struct ThreadRecord {
    std::uint32_t thread = 0;         // location (thread << 32) | rank
    OTF2_EvtWriter* writer = nullptr;  // none for the master (the measurement's)
    bool failed = false;               // OTF2 refused an event: the thread stops
    // Set while a callback runs, so that MPI_Finalize waits for it before
    // it closes the writer.
    std::atomic<bool> busy{false};
    int depth = 0;  // nesting of implicit tasks and leagues (only depth 1 is recorded)
    // Inside a recorded parallel region (the master clears it at the join).
    std::atomic<bool> in_region{false};
    OTF2_CommRef team = OTF2_UNDEFINED_COMM;
    const void* parallel = nullptr;  // the codeptr of the region's construct
    std::vector<OTF2_RegionRef> open;  // regions entered, innermost last
    // The explicit tasks running on this thread, innermost last: a tied
    // task suspended at a scheduling point stays below the ones it runs
    // there (libomp runs them on the suspended task's stack).
    struct RunningTask {
        const void* task;        // the runtime's data of the task: its identity
        std::size_t open_below;  // open.size() before its region was entered
    };
    std::vector<RunningTask> tasks;
    // The addresses that name the taskloops this thread is creating the
    // tasks of, innermost last (Recorder::taskloop_site).
    std::vector<const void*> taskloops;
    struct HeldLock {
        std::uint64_t wait_id;
        std::uint32_t lock;
        std::uint32_t order;
    };
    std::vector<HeldLock> held;
    // The acquisition under way: its mutex kind and when it began. A lock's
    // region is written once the lock is taken (an omp_test_lock that
    // fails reports its start and nothing more).
    int pending_lock_kind = 0;
    std::uint64_t pending_lock_since = 0;
    // Constructs and locks this thread has met: no lock the second time.
    // The constructs of a loop body hit a small direct-mapped cache first
    // (a hash lookup costs as much as the event).
    struct CachedRegion {
        std::uint64_t key = ~std::uint64_t{0};
        OTF2_RegionRef region = OTF2_UNDEFINED_REGION;
    };
    std::array<CachedRegion, 64> recent{};
    std::unordered_map<std::uint64_t, OTF2_RegionRef> regions;
    std::unordered_map<std::uint64_t, std::pair<std::uint32_t, std::atomic<std::uint32_t>*>> locks;
    std::uint64_t last_wait_id = 0;  // the lock taken last (0: none yet)
    std::pair<std::uint32_t, std::atomic<std::uint32_t>*> last_lock{0, nullptr};
};

// What MPI_Finalize needs for the definitions.
struct ThreadDefinitions {
    std::vector<RegionDef> regions;             // local id kRegionBase + i
    std::vector<std::uint64_t> thread_events;   // thread t at index t - 1
    std::vector<std::uint32_t> team_sizes;      // team comm kTeamBase + size, ascending
    std::vector<OTF2_LocationRef> locations;    // of the threads after the master
};

class Recorder {
public:
    // The rank's recorder; exists for the whole process, so that a callback
    // of a thread that runs late never touches freed memory.
    static Recorder& instance();

    // Starts recording on the calling thread (the master); after MPI_Init.
    void start(Measurement& measurement, TraceArchive& archive, int world_rank);
    // Stops recording (MPI_Finalize, on the master): waits for callbacks in
    // progress, closes the threads' writers and returns what the
    // definitions need. `said`: the one warning line of what was left out.
    ThreadDefinitions stop(std::string& said);
    bool active() const { return active_.load(std::memory_order_acquire); }
    // A parallel region forked inside a recorded one: not recorded (only
    // the outermost level is), counted for stop()'s warning.
    void nested_region_left_out() { nested_left_out_.fetch_add(1, std::memory_order_relaxed); }
    // A teams construct on the host: not recorded, nor anything inside it.
    void league_left_out() { leagues_left_out_.fetch_add(1, std::memory_order_relaxed); }
    // A program without MPI ends at exit(), which any thread may call, also
    // inside a parallel region: recording stops and the callbacks in
    // progress on every thread (the master's too) finish; then
    // close_open() ends, at `time`, the parallel region every thread is
    // still in (true when there was one), before stop() closes the writers.
    void deactivate();
    bool close_open(std::uint64_t time);

    // The calling thread's record, registered as thread `thread_num` of its
    // first team (another free number when that one is taken); nullptr
    // when not recording or no location is left.
    ThreadRecord* thread_here(unsigned thread_num);
    // The registered record of the calling thread, or nullptr.
    static ThreadRecord* known_thread() { return current_; }

    // The OpenMP runtime the program runs on: `runtime_address` is any
    // address in its code; before the first callback.
    void found_runtime(const void* runtime_address) { call_site_ = RuntimeCallSite(runtime_address); }
    // The address that names a taskloop the runtime reported at `codeptr`:
    // that address, or where the program called the runtime when the
    // runtime reported an address of its own (libomp 14), which it then
    // reports for the taskloop's tasks too (is_taskloop_address).
    const void* taskloop_site(const void* codeptr);
    bool is_taskloop_address(const void* codeptr) const {
        return codeptr && codeptr == taskloop_address_.load(std::memory_order_relaxed);
    }

    // The region of `construct` at `codeptr` (cached per thread).
    OTF2_RegionRef region(ThreadRecord& thread, Construct construct, const void* codeptr);
    // The lock id of OpenMP lock or critical section `wait_id` and its
    // acquisition counter (per rank).
    std::pair<std::uint32_t, std::atomic<std::uint32_t>*> lock(ThreadRecord& thread, std::uint64_t wait_id);
    // A team of `size` threads: its local communicator.
    OTF2_CommRef team(std::uint32_t size);

    // Writes an event of `thread`: `write` gets the writer and returns
    // OTF2's code.
    template <typename Write>
    void write(ThreadRecord& thread, Write&& write);
    void enter(ThreadRecord& thread, OTF2_RegionRef region, std::uint64_t time);
    void leave(ThreadRecord& thread, std::uint64_t time);  // the innermost open region
    void leave_all(ThreadRecord& thread, std::uint64_t time);  // every open region, task and taskloop
    // An explicit task begins or resumes running on `thread`: a task
    // already innermost resumes (the one it ran meanwhile ended), any other
    // enters the region of `construct` (Construct::Task or UntiedTask) at
    // `codeptr`, the task construct's address.
    void run_task(ThreadRecord& thread, const void* task, Construct construct, const void* codeptr, std::uint64_t time);
    // `task` stops running on `thread` (it ended, or an untied task was
    // suspended): its region and what it left open are left, and the tasks
    // above it, had any stayed open.
    void stop_task(ThreadRecord& thread, const void* task, std::uint64_t time);
    // The master at the join: every worker still in the region leaves its
    // open regions and the team at `time` (libomp mostly reports a
    // worker's end of the closing barrier only when the next region
    // starts); one inside a callback first finishes it.
    void close_workers(std::uint64_t time);

private:
    Recorder() = default;
    void write_master(OTF2_ErrorCode (*write)(OTF2_EvtWriter*, void*), void* context);

    std::atomic<bool> active_{false};
    Measurement* measurement_ = nullptr;
    TraceArchive* archive_ = nullptr;
    int world_rank_ = 0;
    static inline thread_local ThreadRecord* current_ = nullptr;

    std::mutex mutex_;  // registration and first meetings only
    std::vector<std::unique_ptr<ThreadRecord>> owned_;
    // By thread number; the master reads them at every join while threads
    // register.
    std::vector<std::atomic<ThreadRecord*>> threads_ = std::vector<std::atomic<ThreadRecord*>>(kMaxThreads);
    std::atomic<std::uint32_t> thread_count_{0};
    std::atomic<std::uint64_t> threads_left_out_{0};
    std::atomic<std::uint64_t> nested_left_out_{0};
    std::atomic<std::uint64_t> leagues_left_out_{0};
    RuntimeCallSite call_site_;
    // The runtime's own address it reports for taskloops, once one was met.
    std::atomic<const void*> taskloop_address_{nullptr};
    std::unordered_map<std::uint64_t, OTF2_RegionRef> region_ids_;
    std::vector<RegionDef> region_defs_;
    std::unordered_map<std::uint64_t, std::uint32_t> lock_ids_;
    std::vector<std::unique_ptr<std::atomic<std::uint32_t>>> lock_orders_;
    std::vector<std::atomic<bool>> teams_ = std::vector<std::atomic<bool>>(kMaxThreads + 1);
};

template <typename Write>
void Recorder::write(ThreadRecord& thread, Write&& write) {
    if (thread.failed) return;
    if (!thread.writer) {
        using Fn = std::remove_reference_t<Write>;
        write_master([](OTF2_EvtWriter* w, void* f) { return (*static_cast<Fn*>(f))(w); },
                     const_cast<void*>(static_cast<const void*>(std::addressof(write))));
        return;
    }
    if (write(thread.writer) != OTF2_SUCCESS) [[unlikely]] thread.failed = true;
}

}  // namespace openmp
}  // namespace hindsight::collect
