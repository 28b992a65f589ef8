// The allocator of the event store and of the other tables and buffers that
// grow with the trace (the message table, the bulk exchanges' blocks): they
// are mapped in 2 MiB transparent huge pages where the kernel offers them,
// so that filling them costs one page fault per 2 MiB instead of one per 4 KiB.
// At 1e7 events per rank the 4 KiB faults (and the kernel zeroing page after
// page behind them) took about a third of the loading time. Small
// allocations, and machines without transparent huge pages, get ordinary
// memory; the store's contents are the same either way.
#pragma once

#include <cstddef>
#include <new>

namespace hindsight::trace {

namespace huge_pages {
// Memory for `bytes` bytes, aligned for any object; huge-page backed when
// `bytes` is at least one huge page. Throws std::bad_alloc.
void* allocate(std::size_t bytes);
void deallocate(void* memory) noexcept;
}  // namespace huge_pages

template <typename T>
class HugePageAllocator {
public:
    using value_type = T;

    HugePageAllocator() = default;
    template <typename U>
    HugePageAllocator(const HugePageAllocator<U>&) noexcept {}

    T* allocate(std::size_t n) {
        if (n > static_cast<std::size_t>(-1) / sizeof(T)) throw std::bad_array_new_length();
        return static_cast<T*>(huge_pages::allocate(n * sizeof(T)));
    }
    void deallocate(T* p, std::size_t) noexcept { huge_pages::deallocate(p); }

    template <typename U>
    bool operator==(const HugePageAllocator<U>&) const noexcept {
        return true;
    }
};

}  // namespace hindsight::trace
