// The analyzer's large allocations in transparent huge pages: the global
// operator new and delete of hindsight-analyze (linked into the executable
// alone, so that the libraries and their tests keep the standard ones).
//
// Memory costs time before it holds anything: every first write to a page
// faults, and the kernel (on a virtual machine, the host too) provides and
// clears the page. The event store, the message tables, the replay's payload
// blocks and the backward analyses' tables take tens of bytes per event, so
// at millions of events per rank their 4 KiB faults weigh as much as decoding
// the trace. Blocks of at least two huge pages are advised to the kernel as
// huge-page memory (MADV_HUGEPAGE): one fault per 2 MiB instead of one per
// 4 KiB where the kernel offers huge pages (its `enabled` setting `madvise`
// or `always`). The contents are the same either way; only whole 2 MiB
// pages inside a block are advised, so nothing outside it changes.
//
// Some virtual machines back a fresh huge page more slowly than 512 small
// ones; there HINDSIGHT_HUGE_PAGES=no leaves every page at the system's
// choice (doc/analyzer.md, Loading, has the measurements).
#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <string_view>

#include "analyzer/options.hpp"
#include "common/yes_no.hpp"

namespace {

using hindsight::analyzer::kHugePagesVariable;
using hindsight::parse_yes_no;

constexpr std::uintptr_t kHugePage = std::uintptr_t{2} << 20;
constexpr std::size_t kLargeBlock = 2 * kHugePage;

bool huge_pages_wanted() {
    static const bool wanted = [] {
        // Unset or empty: the default. An unknown word is refused with the
        // options (options.cpp); until then it counts as the default too.
        const char* setting = std::getenv(kHugePagesVariable);
        return setting == nullptr || parse_yes_no(setting).value_or(true);
    }();
    return wanted;
}

void advise_huge_pages(void* block, std::size_t bytes) {
    const auto begin = (reinterpret_cast<std::uintptr_t>(block) + kHugePage - 1) & ~(kHugePage - 1);
    const auto end = (reinterpret_cast<std::uintptr_t>(block) + bytes) & ~(kHugePage - 1);
    // Only advice: without transparent huge pages it fails, harmlessly.
    if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
}

// Memory for `bytes` bytes aligned to `alignment` (at least malloc's),
// advised as huge pages when it is large; nullptr when there is none.
void* allocate(std::size_t bytes, std::size_t alignment) noexcept {
    if (bytes == 0) bytes = 1;
    void* block = nullptr;
    if (alignment <= alignof(std::max_align_t)) {
        block = std::malloc(bytes);
    } else {
        const std::size_t rounded = (bytes + alignment - 1) / alignment * alignment;
        block = rounded < bytes ? nullptr : std::aligned_alloc(alignment, rounded);
    }
    if (block != nullptr && bytes >= kLargeBlock && huge_pages_wanted()) advise_huge_pages(block, bytes);
    return block;
}

void* allocate_or_throw(std::size_t bytes, std::size_t alignment) {
    void* block = allocate(bytes, alignment);
    if (block == nullptr) throw std::bad_alloc();
    return block;
}

constexpr std::size_t kPlain = alignof(std::max_align_t);
std::size_t to_size(std::align_val_t alignment) { return static_cast<std::size_t>(alignment); }

}  // namespace

// Every form, so that whatever allocates (this file, the standard library,
// a sanitizer's interceptors) the matching delete frees with free().
void* operator new(std::size_t bytes) { return allocate_or_throw(bytes, kPlain); }
void* operator new[](std::size_t bytes) { return allocate_or_throw(bytes, kPlain); }
void* operator new(std::size_t bytes, const std::nothrow_t&) noexcept { return allocate(bytes, kPlain); }
void* operator new[](std::size_t bytes, const std::nothrow_t&) noexcept { return allocate(bytes, kPlain); }
void* operator new(std::size_t bytes, std::align_val_t a) { return allocate_or_throw(bytes, to_size(a)); }
void* operator new[](std::size_t bytes, std::align_val_t a) { return allocate_or_throw(bytes, to_size(a)); }
void* operator new(std::size_t bytes, std::align_val_t a, const std::nothrow_t&) noexcept {
    return allocate(bytes, to_size(a));
}
void* operator new[](std::size_t bytes, std::align_val_t a, const std::nothrow_t&) noexcept {
    return allocate(bytes, to_size(a));
}
void operator delete(void* block) noexcept { std::free(block); }
void operator delete[](void* block) noexcept { std::free(block); }
void operator delete(void* block, std::size_t) noexcept { std::free(block); }
void operator delete[](void* block, std::size_t) noexcept { std::free(block); }
void operator delete(void* block, const std::nothrow_t&) noexcept { std::free(block); }
void operator delete[](void* block, const std::nothrow_t&) noexcept { std::free(block); }
void operator delete(void* block, std::align_val_t) noexcept { std::free(block); }
void operator delete[](void* block, std::align_val_t) noexcept { std::free(block); }
void operator delete(void* block, std::size_t, std::align_val_t) noexcept { std::free(block); }
void operator delete[](void* block, std::size_t, std::align_val_t) noexcept { std::free(block); }
void operator delete(void* block, std::align_val_t, const std::nothrow_t&) noexcept { std::free(block); }
void operator delete[](void* block, std::align_val_t, const std::nothrow_t&) noexcept { std::free(block); }
