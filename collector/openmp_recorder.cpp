#include "collector/openmp_recorder.hpp"

#include <dlfcn.h>
#include <sched.h>

#include <algorithm>
#include <cstdio>
#include <iterator>

#include "collector/definition_unification.hpp"
#include "collector/measurement.hpp"
#include "collector/timer.hpp"
#include "collector/trace_archive.hpp"

namespace hindsight::collect::openmp {

namespace {

struct ConstructInfo {
    const char* name;
    OTF2_RegionRole role;
};

ConstructInfo info(Construct c) {
    switch (c) {
    case Construct::Parallel: return {"!$omp parallel", OTF2_REGION_ROLE_PARALLEL};
    case Construct::ImplicitBarrier: return {"!$omp implicit barrier", OTF2_REGION_ROLE_IMPLICIT_BARRIER};
    case Construct::Barrier: return {"!$omp barrier", OTF2_REGION_ROLE_BARRIER};
    case Construct::Taskwait: return {"!$omp taskwait", OTF2_REGION_ROLE_TASK_WAIT};
    case Construct::Taskgroup: return {"!$omp taskgroup", OTF2_REGION_ROLE_TASK_WAIT};
    case Construct::Task: return {"!$omp task", OTF2_REGION_ROLE_TASK};
    case Construct::UntiedTask: return {"!$omp untied task", OTF2_REGION_ROLE_TASK_UNTIED};
    case Construct::Loop: return {"!$omp for", OTF2_REGION_ROLE_LOOP};
    case Construct::Taskloop: return {"!$omp taskloop", OTF2_REGION_ROLE_LOOP};
    case Construct::Sections: return {"!$omp sections", OTF2_REGION_ROLE_SECTIONS};
    case Construct::Single: return {"!$omp single", OTF2_REGION_ROLE_SINGLE};
    case Construct::Workshare: return {"!$omp workshare", OTF2_REGION_ROLE_WORKSHARE};
    case Construct::Masked: return {"!$omp master", OTF2_REGION_ROLE_MASTER};
    case Construct::Critical: return {"!$omp critical", OTF2_REGION_ROLE_CRITICAL};
    case Construct::CriticalSblock: return {"!$omp critical sblock", OTF2_REGION_ROLE_CRITICAL_SBLOCK};
    case Construct::Ordered: return {"!$omp ordered", OTF2_REGION_ROLE_ORDERED};
    case Construct::OrderedSblock: return {"!$omp ordered sblock", OTF2_REGION_ROLE_ORDERED_SBLOCK};
    case Construct::SetLock: return {"omp_set_lock", OTF2_REGION_ROLE_FUNCTION};
    case Construct::UnsetLock: return {"omp_unset_lock", OTF2_REGION_ROLE_FUNCTION};
    case Construct::TestLock: return {"omp_test_lock", OTF2_REGION_ROLE_FUNCTION};
    case Construct::SetNestLock: return {"omp_set_nest_lock", OTF2_REGION_ROLE_FUNCTION};
    case Construct::UnsetNestLock: return {"omp_unset_nest_lock", OTF2_REGION_ROLE_FUNCTION};
    case Construct::TestNestLock: return {"omp_test_nest_lock", OTF2_REGION_ROLE_FUNCTION};
    }
    return {"!$omp", OTF2_REGION_ROLE_UNKNOWN};
}

bool is_lock_function(Construct c) { return c >= Construct::SetLock; }

// A construct's definition. Its source position is the return address the
// runtime reports, as the object file and the offset in it: the same in
// every rank of one program (unification goes by name), and what
// `addr2line -e FILE OFFSET` turns into file:line.
RegionDef definition(Construct construct, const void* codeptr) {
    const ConstructInfo c = info(construct);
    RegionDef def{c.name, c.name, c.role, OTF2_PARADIGM_OPENMP, ""};
    Dl_info where{};
    if (is_lock_function(construct) || !codeptr || dladdr(codeptr, &where) == 0 || !where.dli_fname) return def;
    const std::string file = where.dli_fname;
    const auto offset = static_cast<std::uintptr_t>(static_cast<const char*>(codeptr) -
                                                    static_cast<const char*>(where.dli_fbase));
    char hex[32];
    std::snprintf(hex, sizeof hex, "+0x%zx", static_cast<std::size_t>(offset));
    def.name += " @" + file.substr(file.find_last_of('/') + 1) + hex;
    def.canonical_name = def.name;
    def.file = file;
    return def;
}

std::uint64_t region_key(Construct construct, const void* codeptr) {
    // Code addresses leave the top byte free on x86-64 and AArch64.
    return (static_cast<std::uint64_t>(construct) << 56) ^ reinterpret_cast<std::uintptr_t>(codeptr);
}

}  // namespace

Recorder& Recorder::instance() {
    // Never destroyed: a thread's callback may run while the process exits.
    static Recorder* recorder = new Recorder();
    return *recorder;
}

void Recorder::start(Measurement& measurement, TraceArchive& archive, int world_rank) {
    const std::lock_guard lock(mutex_);
    measurement_ = &measurement;
    archive_ = &archive;
    world_rank_ = world_rank;
    owned_.push_back(std::make_unique<ThreadRecord>());
    current_ = owned_.back().get();
    threads_[0].store(current_, std::memory_order_release);
    thread_count_.store(1, std::memory_order_relaxed);
    active_.store(true, std::memory_order_seq_cst);
}

ThreadRecord* Recorder::thread_here(unsigned thread_num) {
    if (current_) return current_;
    if (!active()) return nullptr;
    const std::lock_guard lock(mutex_);
    if (!active()) return nullptr;
    const auto free = [&](std::size_t t) { return !threads_[t].load(std::memory_order_relaxed); };
    std::size_t number = thread_num < kMaxThreads && free(thread_num) ? thread_num : 0;
    for (std::size_t t = 1; number == 0 && t < kMaxThreads; ++t)
        if (free(t)) number = t;
    if (number == 0) {
        threads_left_out_.fetch_add(1, std::memory_order_relaxed);
        return nullptr;
    }
    OTF2_EvtWriter* writer =
        archive_->thread_events(thread_location(static_cast<std::uint64_t>(world_rank_), number));
    if (!writer) {
        threads_left_out_.fetch_add(1, std::memory_order_relaxed);
        return nullptr;
    }
    auto record = std::make_unique<ThreadRecord>();
    record->thread = static_cast<std::uint32_t>(number);
    record->writer = writer;
    record->open.reserve(16);
    current_ = record.get();
    owned_.push_back(std::move(record));
    threads_[number].store(current_, std::memory_order_release);
    thread_count_.store(std::max<std::uint32_t>(thread_count_.load(std::memory_order_relaxed),
                                                static_cast<std::uint32_t>(number + 1)),
                        std::memory_order_release);
    return current_;
}

OTF2_RegionRef Recorder::region(ThreadRecord& thread, Construct construct, const void* codeptr) {
    const std::uint64_t key = region_key(construct, codeptr);
    ThreadRecord::CachedRegion& recent = thread.recent[(key ^ (key >> 6) ^ (key >> 56)) % thread.recent.size()];
    if (recent.key == key) return recent.region;
    const auto cached = thread.regions.find(key);
    if (cached != thread.regions.end()) {
        recent = {key, cached->second};
        return cached->second;
    }
    OTF2_RegionRef id;
    {
        const std::lock_guard lock(mutex_);
        const auto [it, added] = region_ids_.emplace(key, kRegionBase + region_defs_.size());
        if (added) region_defs_.push_back(definition(construct, codeptr));
        id = it->second;
    }
    thread.regions.emplace(key, id);
    recent = {key, id};
    return id;
}

const void* Recorder::taskloop_site(const void* codeptr) {
    if (!codeptr || !call_site_.in_runtime(codeptr)) return codeptr;
    taskloop_address_.store(codeptr, std::memory_order_relaxed);
    const void* caller = call_site_.program_caller();
    return caller ? caller : codeptr;
}

std::pair<std::uint32_t, std::atomic<std::uint32_t>*> Recorder::lock(ThreadRecord& thread, std::uint64_t wait_id) {
    if (wait_id == thread.last_wait_id && thread.last_lock.second) return thread.last_lock;
    thread.last_wait_id = wait_id;
    const auto cached = thread.locks.find(wait_id);
    if (cached != thread.locks.end()) return thread.last_lock = cached->second;
    std::pair<std::uint32_t, std::atomic<std::uint32_t>*> found;
    {
        const std::lock_guard lock(mutex_);
        const auto [it, added] = lock_ids_.emplace(wait_id, static_cast<std::uint32_t>(lock_orders_.size()));
        if (added) lock_orders_.push_back(std::make_unique<std::atomic<std::uint32_t>>(0));
        found = {it->second, lock_orders_[it->second].get()};
    }
    thread.locks.emplace(wait_id, found);
    return thread.last_lock = found;
}

OTF2_CommRef Recorder::team(std::uint32_t size) {
    const std::uint32_t clamped = std::min(size, kMaxThreads);
    teams_[clamped].store(true, std::memory_order_relaxed);
    return kTeamBase + clamped;
}

void Recorder::write_master(OTF2_ErrorCode (*write)(OTF2_EvtWriter*, void*), void* context) {
    measurement_->record_with(write, context);
}

void Recorder::enter(ThreadRecord& thread, OTF2_RegionRef region, std::uint64_t time) {
    thread.open.push_back(region);
    write(thread, [&](OTF2_EvtWriter* w) { return OTF2_EvtWriter_Enter(w, nullptr, time, region); });
}

void Recorder::leave(ThreadRecord& thread, std::uint64_t time) {
    if (thread.open.empty()) return;
    const OTF2_RegionRef region = thread.open.back();
    thread.open.pop_back();
    write(thread, [&](OTF2_EvtWriter* w) { return OTF2_EvtWriter_Leave(w, nullptr, time, region); });
}

namespace {

std::vector<ThreadRecord::RunningTask>::iterator running(ThreadRecord& thread, const void* task) {
    return std::ranges::find_if(thread.tasks, [&](const ThreadRecord::RunningTask& t) { return t.task == task; });
}

// Leaves the regions of the tasks from `first` on, and what they left open.
void leave_tasks(Recorder& recorder, ThreadRecord& thread, std::vector<ThreadRecord::RunningTask>::iterator first,
                 std::uint64_t time) {
    while (thread.open.size() > first->open_below) recorder.leave(thread, time);
    thread.tasks.erase(first, thread.tasks.end());
}

}  // namespace

void Recorder::run_task(ThreadRecord& thread, const void* task, Construct construct, const void* codeptr,
                        std::uint64_t time) {
    if (const auto it = running(thread, task); it != thread.tasks.end()) {
        // It resumes; tasks still above it ended without a word from the
        // runtime.
        if (std::next(it) != thread.tasks.end()) leave_tasks(*this, thread, std::next(it), time);
        return;
    }
    thread.tasks.push_back({task, thread.open.size()});
    enter(thread, region(thread, construct, codeptr), time);
}

void Recorder::stop_task(ThreadRecord& thread, const void* task, std::uint64_t time) {
    if (const auto it = running(thread, task); it != thread.tasks.end()) leave_tasks(*this, thread, it, time);
}

void Recorder::leave_all(ThreadRecord& thread, std::uint64_t time) {
    while (!thread.open.empty()) leave(thread, time);
    thread.tasks.clear();
    thread.taskloops.clear();
}

void Recorder::close_workers(std::uint64_t time) {
    const std::uint32_t count = thread_count_.load(std::memory_order_acquire);
    for (std::uint32_t t = 1; t < count; ++t) {
        ThreadRecord* worker = threads_[t].load(std::memory_order_acquire);
        if (!worker || !worker->in_region.exchange(false, std::memory_order_seq_cst)) continue;
        // A callback of the worker that saw the region still open (e.g. its
        // own end of the region, come early) writes first; the region then
        // ends after its last event.
        std::uint64_t end = time;
        if (worker->busy.load(std::memory_order_seq_cst)) {
            while (worker->busy.load(std::memory_order_seq_cst)) sched_yield();
            end = std::max(time, timestamp());
        }
        leave_all(*worker, end);
        const OTF2_CommRef team = worker->team;
        write(*worker, [&](OTF2_EvtWriter* w) { return OTF2_EvtWriter_ThreadTeamEnd(w, nullptr, end, team); });
    }
}

void Recorder::deactivate() {
    {
        const std::lock_guard lock(mutex_);
        active_.store(false, std::memory_order_seq_cst);
    }
    const std::uint32_t count = thread_count_.load(std::memory_order_acquire);
    for (std::uint32_t t = 0; t < count; ++t) {
        const ThreadRecord* thread = threads_[t].load(std::memory_order_acquire);
        if (thread && thread != current_)
            while (thread->busy.load(std::memory_order_seq_cst)) sched_yield();
    }
}

bool Recorder::close_open(std::uint64_t time) {
    ThreadRecord* master = threads_[0].load(std::memory_order_acquire);
    if (!master || !master->in_region.load(std::memory_order_acquire)) return false;
    close_workers(time);
    leave_all(*master, time);
    const OTF2_CommRef team = master->team;
    write(*master, [&](OTF2_EvtWriter* w) { return OTF2_EvtWriter_ThreadTeamEnd(w, nullptr, time, team); });
    write(*master, [&](OTF2_EvtWriter* w) { return OTF2_EvtWriter_ThreadJoin(w, nullptr, time, OTF2_PARADIGM_OPENMP); });
    master->in_region.store(false, std::memory_order_release);
    return true;
}

ThreadDefinitions Recorder::stop(std::string& said) {
    ThreadDefinitions out;
    {
        const std::lock_guard lock(mutex_);
        active_.store(false, std::memory_order_seq_cst);
    }
    const std::uint32_t count = thread_count_.load(std::memory_order_acquire);
    std::uint64_t unclosed = 0;
    for (std::uint32_t t = 1; t < count; ++t) {
        ThreadRecord* worker = threads_[t].load(std::memory_order_acquire);
        if (!worker) {
            // A number skipped (taken by no thread): an empty location keeps
            // the numbering dense.
            out.thread_events.push_back(0);
            out.locations.push_back(thread_location(static_cast<std::uint64_t>(world_rank_), t));
            continue;
        }
        // A callback that saw the recorder active finishes first.
        while (worker->busy.load(std::memory_order_seq_cst)) sched_yield();
        if (worker->in_region.load(std::memory_order_acquire)) ++unclosed;
        std::uint64_t events = 0;
        try {
            events = archive_->close_thread_events(worker->writer);
        } catch (const std::exception&) {
            // The master's close reports the archive's error.
        }
        out.thread_events.push_back(events);
        out.locations.push_back(thread_location(static_cast<std::uint64_t>(world_rank_), t));
    }
    for (std::uint32_t size = 0; size <= kMaxThreads; ++size)
        if (teams_[size].load(std::memory_order_relaxed)) out.team_sizes.push_back(size);
    out.regions = region_defs_;
    const std::uint64_t left_out = threads_left_out_.load(std::memory_order_relaxed);
    if (left_out > 0) {
        said = std::to_string(left_out) + " OpenMP threads beyond " + std::to_string(kMaxThreads) +
               " were not recorded";
    } else if (unclosed > 0) {
        said = std::to_string(unclosed) + " OpenMP threads were inside a parallel region at MPI_Finalize; "
               "their regions there are left open";
    }
    if (const std::uint64_t nested = nested_left_out_.load(std::memory_order_relaxed); nested > 0)
        said += (said.empty() ? "" : "; ") + std::to_string(nested) +
                " nested parallel regions were not recorded (only the outermost level is)";
    if (const std::uint64_t leagues = leagues_left_out_.load(std::memory_order_relaxed); leagues > 0)
        said += (said.empty() ? "" : "; ") + std::to_string(leagues) +
                " teams constructs on the host were not recorded, nor the regions inside them";
    return out;
}

}  // namespace hindsight::collect::openmp
