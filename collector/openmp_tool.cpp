// The OMPT tool: an OpenMP runtime that implements the tools interface
// (LLVM's libomp) finds `ompt_start_tool` in the preloaded collector and
// reports its constructs through these callbacks, which record them as
// Score-P does (openmp_recorder.hpp has the state, doc/collector.md the
// events). Nothing is recorded while no measurement runs (before MPI_Init,
// after MPI_Finalize, in profile mode). A program without MPI is measured
// from here, when its OpenMP runtime starts, to its exit.
#include <algorithm>
#include <cstdint>
#include <utility>

#include HINDSIGHT_OMP_TOOLS_H

#include "collector/measurement.hpp"
#include "collector/openmp_recorder.hpp"
#include "collector/timer.hpp"

namespace {

using hindsight::collect::timestamp;
using hindsight::collect::openmp::Construct;
using hindsight::collect::openmp::Recorder;
using hindsight::collect::openmp::ThreadRecord;

// The calling thread's record while a callback runs: marked busy, so that
// MPI_Finalize does not close its writer under it; empty when nothing is
// recorded.
class Callback {
public:
    explicit Callback(ThreadRecord* thread) : thread_(thread) {
        if (!thread_) return;
        thread_->busy.store(true, std::memory_order_seq_cst);
        if (!Recorder::instance().active()) {
            thread_->busy.store(false, std::memory_order_release);
            thread_ = nullptr;
        }
    }
    Callback() : Callback(Recorder::known_thread()) {}
    ~Callback() {
        if (thread_) thread_->busy.store(false, std::memory_order_release);
    }
    Callback(const Callback&) = delete;
    Callback& operator=(const Callback&) = delete;

    ThreadRecord* get() const { return thread_; }
    // Inside a recorded parallel region, at its outermost level. Read
    // after `busy` was set, both sequentially consistent: a master that
    // closes this thread's region meanwhile (Recorder::close_workers) sees
    // the callback busy and waits for it, or the callback sees the region
    // closed.
    ThreadRecord* in_region() const {
        return thread_ && thread_->depth == 1 && thread_->in_region.load(std::memory_order_seq_cst) ? thread_
                                                                                                      : nullptr;
    }

private:
    ThreadRecord* thread_;
};

Recorder& recorder() { return Recorder::instance(); }

void on_parallel_begin(ompt_data_t*, const ompt_frame_t*, ompt_data_t* parallel, unsigned int requested, int flags,
                       const void* codeptr) {
    parallel->ptr = nullptr;  // not recorded, unless below
    const Callback callback;
    ThreadRecord* thread = callback.get();
    // A teams construct on the host starts a league of teams, whose masters
    // run the construct's body each in a region of its own. That forms no
    // team of the threads Score-P's conventions know: the league and
    // everything inside it is left out, and counted once.
    if (flags & ompt_parallel_league) {
        recorder().league_left_out();
        if (thread) ++thread->depth;
        return;
    }
    // Only the master's outermost regions: nested ones run inside a region
    // (forked by a thread already in one), and those inside a recorded one
    // are counted as left out.
    if (thread && thread->depth != 0 && thread->in_region.load(std::memory_order_relaxed))
        recorder().nested_region_left_out();
    if (!thread || thread->thread != 0 || thread->depth != 0) return;
    // The construct's address names the region on every thread of the team;
    // without one, a non-null placeholder still marks it as recorded.
    parallel->ptr = codeptr ? const_cast<void*>(codeptr) : reinterpret_cast<void*>(std::uintptr_t{1});
    const std::uint64_t now = timestamp();
    recorder().write(*thread, [&](OTF2_EvtWriter* w) {
        return OTF2_EvtWriter_ThreadFork(w, nullptr, now, OTF2_PARADIGM_OPENMP, requested);
    });
}

void on_parallel_end(ompt_data_t* parallel, ompt_data_t*, int flags, const void*) {
    const Callback callback;
    ThreadRecord* thread = callback.get();
    if (flags & ompt_parallel_league) {
        if (thread && thread->depth > 0) --thread->depth;
        return;
    }
    if (!thread || thread->thread != 0 || thread->depth != 0 || !parallel || !parallel->ptr) return;
    const std::uint64_t now = timestamp();
    recorder().write(*thread, [&](OTF2_EvtWriter* w) {
        return OTF2_EvtWriter_ThreadJoin(w, nullptr, now, OTF2_PARADIGM_OPENMP);
    });
}

void on_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t* parallel, ompt_data_t* task, unsigned int team_size,
                      unsigned int thread_num, int flags) {
    if (flags & ompt_task_initial) return;
    if (endpoint == ompt_scope_begin) {
        if (task) task->value = 0;  // not an explicit task (on_task_schedule)
        const bool recorded = parallel && parallel->ptr;
        ThreadRecord* known = Recorder::known_thread();
        if (!known && recorded) known = recorder().thread_here(thread_num);
        const Callback callback(known);
        ThreadRecord* thread = callback.get();
        if (!thread) return;
        if (++thread->depth != 1 || !recorded) return;
        thread->parallel = parallel->ptr;
        thread->team = recorder().team(team_size);
        const std::uint64_t now = timestamp();
        const OTF2_CommRef team = thread->team;
        recorder().write(*thread, [&](OTF2_EvtWriter* w) {
            return OTF2_EvtWriter_ThreadTeamBegin(w, nullptr, now, team);
        });
        recorder().enter(*thread, recorder().region(*thread, Construct::Parallel, thread->parallel), now);
        thread->in_region.store(true, std::memory_order_release);
        return;
    }
    const Callback callback;
    ThreadRecord* thread = callback.get();
    if (!thread) return;
    if (thread->depth > 0) --thread->depth;
    // A worker's end mostly comes late (at the next region's start), after
    // the master closed its region at the join; whichever of the two takes
    // the region closes it.
    if (thread->depth != 0 || !thread->in_region.exchange(false, std::memory_order_seq_cst)) return;
    const std::uint64_t now = timestamp();
    if (thread->thread == 0) recorder().close_workers(now);
    recorder().leave_all(*thread, now);
    const OTF2_CommRef team = thread->team;
    recorder().write(*thread, [&](OTF2_EvtWriter* w) { return OTF2_EvtWriter_ThreadTeamEnd(w, nullptr, now, team); });
}

bool sync_construct(ompt_sync_region_t kind, Construct& construct) {
    switch (static_cast<int>(kind)) {
    case 1:  // ompt_sync_region_barrier (OpenMP 5.0's name of any barrier)
    case ompt_sync_region_barrier_explicit: construct = Construct::Barrier; return true;
    case 2:  // ompt_sync_region_barrier_implicit (libomp 14 reports these)
    case ompt_sync_region_barrier_implementation:
    case ompt_sync_region_barrier_implicit_workshare:
    case ompt_sync_region_barrier_implicit_parallel:
    case ompt_sync_region_barrier_teams: construct = Construct::ImplicitBarrier; return true;
    case ompt_sync_region_taskwait: construct = Construct::Taskwait; return true;
    case ompt_sync_region_taskgroup: construct = Construct::Taskgroup; return true;
    default: return false;  // reductions are part of their construct
    }
}

void on_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint, ompt_data_t*, ompt_data_t*,
                    const void* codeptr) {
    Construct construct{};
    if (!sync_construct(kind, construct)) return;
    const Callback callback;
    ThreadRecord* thread = callback.in_region();
    if (!thread) return;
    const std::uint64_t now = timestamp();
    if (endpoint == ompt_scope_begin) {
        // A worker's barrier closing the region comes without an address:
        // it is the master's, the region's own.
        recorder().enter(*thread, recorder().region(*thread, construct, codeptr ? codeptr : thread->parallel), now);
    } else {
        recorder().leave(*thread, now);
    }
}

void on_work(ompt_work_t kind, ompt_scope_endpoint_t endpoint, ompt_data_t*, ompt_data_t*, std::uint64_t,
             const void* codeptr) {
    Construct construct{};
    switch (kind) {
    case ompt_work_loop:
    case ompt_work_distribute: construct = Construct::Loop; break;
    case ompt_work_taskloop: construct = Construct::Taskloop; break;
    case ompt_work_sections: construct = Construct::Sections; break;
    case ompt_work_single_executor:
    case ompt_work_single_other: construct = Construct::Single; break;
    case ompt_work_workshare: construct = Construct::Workshare; break;
    default: return;
    }
    const Callback callback;
    ThreadRecord* thread = callback.in_region();
    if (!thread) return;
    const std::uint64_t now = timestamp();
    if (construct == Construct::Taskloop) {
        if (endpoint == ompt_scope_begin) {
            codeptr = recorder().taskloop_site(codeptr);
            thread->taskloops.push_back(codeptr);
        } else if (!thread->taskloops.empty()) {
            thread->taskloops.pop_back();
        }
    }
    if (endpoint == ompt_scope_begin) recorder().enter(*thread, recorder().region(*thread, construct, codeptr), now);
    else recorder().leave(*thread, now);
}

void on_masked(ompt_scope_endpoint_t endpoint, ompt_data_t*, ompt_data_t*, const void* codeptr) {
    const Callback callback;
    ThreadRecord* thread = callback.in_region();
    if (!thread) return;
    const std::uint64_t now = timestamp();
    if (endpoint == ompt_scope_begin)
        recorder().enter(*thread, recorder().region(*thread, Construct::Masked, codeptr), now);
    else recorder().leave(*thread, now);
}

// --- explicit tasks -------------------------------------------------------------

// A task's data holds the address of its construct, with the top bit set
// for an untied one (code addresses leave it free); zero for a task not
// recorded: created outside a recorded parallel region, or not explicit.
constexpr std::uintptr_t kUntied = std::uintptr_t{1} << 63;

// The address that names a task a taskloop creates, where the runtime
// reported its own (Recorder::taskloop_site): the taskloop's, which the
// creating thread knows, or, for a task that a task of the taskloop
// creates (libomp splits a large taskloop so), the creating task's.
const void* taskloop_task_site(const ThreadRecord& thread, const void* codeptr) {
    if (!thread.taskloops.empty()) return thread.taskloops.back();
    if (thread.tasks.empty()) return codeptr;
    const auto creator = static_cast<const ompt_data_t*>(thread.tasks.back().task)->value & ~kUntied;
    return creator != 0 ? reinterpret_cast<const void*>(creator) : codeptr;
}

void on_task_create(ompt_data_t*, const ompt_frame_t*, ompt_data_t* task, int flags, int, const void* codeptr) {
    if (!task) return;
    task->value = 0;
    if (!(flags & ompt_task_explicit)) return;
    const Callback callback;
    const ThreadRecord* thread = callback.in_region();
    if (!thread) return;
    if (recorder().is_taskloop_address(codeptr)) codeptr = taskloop_task_site(*thread, codeptr);
    // Without an address a non-zero placeholder still marks it recorded.
    const auto address = codeptr ? reinterpret_cast<std::uintptr_t>(codeptr) : std::uintptr_t{1};
    task->value = address | ((flags & ompt_task_untied) ? kUntied : 0);
}

// A thread switches from one task to another at a scheduling point: the
// task that ended (or an untied one suspended, which may resume on another
// thread) leaves its region; a recorded task that starts enters its own,
// nested in the region of the tied task it suspended, as libomp runs it
// on that task's stack.
void on_task_schedule(ompt_data_t* prior, ompt_task_status_t status, ompt_data_t* next) {
    const Callback callback;
    ThreadRecord* thread = callback.in_region();
    if (!thread) return;
    const std::uint64_t now = timestamp();
    if (prior && prior->value != 0) {
        const bool ended = status == ompt_task_complete || status == ompt_task_cancel || status == ompt_task_detach;
        const bool suspended = status == ompt_task_yield || status == ompt_task_switch;
        if (ended || (suspended && (prior->value & kUntied))) recorder().stop_task(*thread, prior, now);
    }
    if (next && next->value != 0) {
        const bool untied = next->value & kUntied;
        recorder().run_task(*thread, next, untied ? Construct::UntiedTask : Construct::Task,
                            reinterpret_cast<const void*>(next->value & ~kUntied), now);
    }
}

// --- critical sections, ordered regions and the lock API ----------------------------

// Locks are recorded inside parallel regions and on the master outside them.
ThreadRecord* lock_thread(const Callback& callback) {
    ThreadRecord* thread = callback.get();
    if (!thread) return nullptr;
    if (callback.in_region()) return thread;
    return thread->thread == 0 && thread->depth == 0 ? thread : nullptr;
}

// The lock API's call that took a lock of `kind`.
Construct lock_call(ompt_mutex_t kind) {
    switch (kind) {
    case ompt_mutex_nest_lock: return Construct::SetNestLock;
    case ompt_mutex_test_lock: return Construct::TestLock;
    case ompt_mutex_test_nest_lock: return Construct::TestNestLock;
    default: return Construct::SetLock;
    }
}

// When the lock API's call that took a lock at `now` began: its pending
// acquisition's start, which this ends.
std::uint64_t lock_start(ThreadRecord& thread, std::uint64_t now) {
    const int pending = std::exchange(thread.pending_lock_kind, 0);
    const bool api = pending == ompt_mutex_lock || pending == ompt_mutex_nest_lock || pending == ompt_mutex_test_lock ||
                     pending == ompt_mutex_test_nest_lock;
    return api ? std::min(thread.pending_lock_since, now) : now;
}

void on_mutex_acquire(ompt_mutex_t kind, unsigned int, unsigned int, ompt_wait_id_t, const void* codeptr) {
    const Callback callback;
    ThreadRecord* thread = lock_thread(callback);
    if (!thread) return;
    thread->pending_lock_kind = kind;
    const std::uint64_t now = timestamp();
    thread->pending_lock_since = now;
    switch (kind) {
    // The lock API's region waits for the lock to be taken: libomp starts
    // an omp_test_lock as an omp_set_lock, and one that fails ends there.
    case ompt_mutex_lock:
    case ompt_mutex_nest_lock: break;
    case ompt_mutex_critical:
        recorder().enter(*thread, recorder().region(*thread, Construct::Critical, codeptr), now);
        break;
    case ompt_mutex_ordered:
        recorder().enter(*thread, recorder().region(*thread, Construct::Ordered, codeptr), now);
        break;
    default: break;  // a test waits for nothing: recorded once it succeeds
    }
}

void on_mutex_acquired(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void* codeptr) {
    const Callback callback;
    ThreadRecord* thread = lock_thread(callback);
    if (!thread || kind == ompt_mutex_atomic) return;
    const auto [lock, counter] = recorder().lock(*thread, wait_id);
    // This thread holds the lock now: no other one counts meanwhile, so the
    // orders follow the acquisitions.
    const std::uint32_t order = counter->fetch_add(1, std::memory_order_relaxed) + 1;
    thread->held.push_back({wait_id, lock, order});
    const std::uint64_t now = timestamp();
    const auto acquire = [&](OTF2_EvtWriter* w) {
        return OTF2_EvtWriter_ThreadAcquireLock(w, nullptr, now, OTF2_PARADIGM_OPENMP, lock, order);
    };
    switch (kind) {
    case ompt_mutex_lock:
    case ompt_mutex_nest_lock:
    case ompt_mutex_test_lock:
    case ompt_mutex_test_nest_lock:
        // The region of the call, from the start of the acquisition (no
        // event of the thread came between: it waited in the runtime).
        recorder().enter(*thread, recorder().region(*thread, lock_call(kind), nullptr), lock_start(*thread, now));
        recorder().write(*thread, acquire);
        recorder().leave(*thread, now);
        break;
    default: {
        const bool critical = kind == ompt_mutex_critical;
        recorder().write(*thread, acquire);
        recorder().enter(*thread,
                         recorder().region(*thread, critical ? Construct::CriticalSblock : Construct::OrderedSblock,
                                           codeptr),
                         now);
    }
    }
}

void on_mutex_released(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void*) {
    const Callback callback;
    ThreadRecord* thread = lock_thread(callback);
    if (!thread || kind == ompt_mutex_atomic) return;
    auto& held = thread->held;
    auto it = held.end();
    for (auto h = held.begin(); h != held.end(); ++h)
        if (h->wait_id == wait_id) it = h;
    if (it == held.end()) return;  // taken before the measurement started
    const ThreadRecord::HeldLock lock = *it;
    held.erase(it);
    const std::uint64_t now = timestamp();
    const auto release = [&](OTF2_EvtWriter* w) {
        return OTF2_EvtWriter_ThreadReleaseLock(w, nullptr, now, OTF2_PARADIGM_OPENMP, lock.lock, lock.order);
    };
    if (kind == ompt_mutex_critical || kind == ompt_mutex_ordered) {
        recorder().leave(*thread, now);  // the sblock
        recorder().write(*thread, release);
        recorder().leave(*thread, now);  // the construct
        return;
    }
    const bool nest = kind == ompt_mutex_nest_lock || kind == ompt_mutex_test_nest_lock;
    recorder().enter(*thread, recorder().region(*thread, nest ? Construct::UnsetNestLock : Construct::UnsetLock, nullptr),
                     now);
    recorder().write(*thread, release);
    recorder().leave(*thread, now);
}

// A nest lock taken again by its owner, or released but still held.
void on_nest_lock(ompt_scope_endpoint_t endpoint, ompt_wait_id_t, const void*) {
    const Callback callback;
    ThreadRecord* thread = lock_thread(callback);
    if (!thread) return;
    const std::uint64_t now = timestamp();
    if (endpoint == ompt_scope_begin) {
        if (thread->pending_lock_kind == ompt_mutex_nest_lock) {
            recorder().enter(*thread, recorder().region(*thread, Construct::SetNestLock, nullptr),
                             thread->pending_lock_since);
            recorder().leave(*thread, now);
        } else {
            recorder().enter(*thread, recorder().region(*thread, Construct::TestNestLock, nullptr), now);
            recorder().leave(*thread, now);
        }
    } else {
        recorder().enter(*thread, recorder().region(*thread, Construct::UnsetNestLock, nullptr), now);
        recorder().leave(*thread, now);
    }
}

int initialize(ompt_function_lookup_t lookup, int, ompt_data_t*) {
    const auto set = reinterpret_cast<ompt_set_callback_t>(lookup("ompt_set_callback"));
    if (!set) return 0;
    recorder().found_runtime(reinterpret_cast<const void*>(lookup));
    const auto on = [&](ompt_callbacks_t event, auto callback) {
        set(event, reinterpret_cast<ompt_callback_t>(callback));
    };
    on(ompt_callback_parallel_begin, &on_parallel_begin);
    on(ompt_callback_parallel_end, &on_parallel_end);
    on(ompt_callback_implicit_task, &on_implicit_task);
    on(ompt_callback_sync_region, &on_sync_region);
    on(ompt_callback_work, &on_work);
    on(ompt_callback_masked, &on_masked);
    on(ompt_callback_task_create, &on_task_create);
    on(ompt_callback_task_schedule, &on_task_schedule);
    on(ompt_callback_mutex_acquire, &on_mutex_acquire);
    on(ompt_callback_mutex_acquired, &on_mutex_acquired);
    on(ompt_callback_mutex_released, &on_mutex_released);
    on(ompt_callback_nest_lock, &on_nest_lock);
    hindsight::collect::Measurement::start_without_mpi();
    return 1;  // keep the tool
}

void finalize(ompt_data_t*) {}

}  // namespace

// Found by the OpenMP runtime when the collector is preloaded (or named in
// OMP_TOOL_LIBRARIES).
extern "C" __attribute__((visibility("default"))) ompt_start_tool_result_t* ompt_start_tool(unsigned int,
                                                                                            const char*) {
    static ompt_start_tool_result_t result{&initialize, &finalize, ompt_data_none};
    return &result;
}
