#include "collector/runtime_call_site.hpp"

#include <dlfcn.h>
#include <link.h>
#include <unwind.h>

#include <algorithm>
#include <cstdint>

namespace hindsight::collect::openmp {

namespace {

// The address range an object's loadable segments span.
struct ObjectRange {
    std::uintptr_t base = 0;  // where it was loaded (Dl_info::dli_fbase)
    std::uintptr_t begin = UINTPTR_MAX;
    std::uintptr_t end = 0;
};

int find_segments(dl_phdr_info* info, std::size_t, void* data) {
    auto& range = *static_cast<ObjectRange*>(data);
    for (int h = 0; h < info->dlpi_phnum; ++h) {
        const ElfW(Phdr)& header = info->dlpi_phdr[h];
        if (header.p_type != PT_LOAD) continue;
        const std::uintptr_t start = info->dlpi_addr + header.p_vaddr;
        // The object whose segments hold its own base (its ELF header).
        if (range.base < start || range.base >= start + header.p_memsz) continue;
        for (int k = 0; k < info->dlpi_phnum; ++k) {
            const ElfW(Phdr)& load = info->dlpi_phdr[k];
            if (load.p_type != PT_LOAD) continue;
            range.begin = std::min<std::uintptr_t>(range.begin, info->dlpi_addr + load.p_vaddr);
            range.end = std::max<std::uintptr_t>(range.end, info->dlpi_addr + load.p_vaddr + load.p_memsz);
        }
        return 1;
    }
    return 0;
}

// Walks the stack from the innermost frame: the first frame outside the
// runtime above one inside it.
struct Walk {
    std::uintptr_t begin, end;
    bool runtime_seen = false;
    std::uintptr_t found = 0;
};

_Unwind_Reason_Code visit_frame(_Unwind_Context* context, void* data) {
    auto& walk = *static_cast<Walk*>(data);
    const std::uintptr_t ip = _Unwind_GetIP(context);
    const bool runtime = ip >= walk.begin && ip < walk.end;
    if (walk.runtime_seen && !runtime && ip != 0) {
        walk.found = ip;
        return _URC_END_OF_STACK;
    }
    walk.runtime_seen = walk.runtime_seen || runtime;
    return _URC_NO_REASON;
}

}  // namespace

RuntimeCallSite::RuntimeCallSite(const void* runtime_address) {
    Dl_info where{};
    if (!runtime_address || dladdr(runtime_address, &where) == 0 || !where.dli_fbase) return;
    ObjectRange range;
    range.base = reinterpret_cast<std::uintptr_t>(where.dli_fbase);
    dl_iterate_phdr(&find_segments, &range);
    if (range.begin < range.end) {
        begin_ = range.begin;
        end_ = range.end;
    }
}

bool RuntimeCallSite::in_runtime(const void* address) const {
    const auto at = reinterpret_cast<std::uintptr_t>(address);
    return at >= begin_ && at < end_;
}

const void* RuntimeCallSite::program_caller() const {
    if (begin_ >= end_) return nullptr;
    // The tool's callback, then the runtime's frames, then the program's
    // (the collector may be linked into the program: only the runtime's
    // frames tell where the program begins).
    Walk walk{begin_, end_};
    _Unwind_Backtrace(&visit_frame, &walk);
    return reinterpret_cast<const void*>(walk.found);
}

}  // namespace hindsight::collect::openmp
