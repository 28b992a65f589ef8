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

#include <cstdint>
#include <cstdlib>
#include <new>
#include <string_view>

namespace {

constexpr std::uintptr_t kHugePage = std::uintptr_t{2} << 20;
constexpr std::size_t kLargeBlock = 2 * kHugePage;

bool huge_pages_wanted() {
    static const bool wanted = [] {
        const char* setting = std::getenv("HINDSIGHT_HUGE_PAGES");
        const std::string_view value = setting == nullptr ? "" : setting;
        return value != "no" && value != "0" && value != "off";
    }();
    return wanted;
}

void advise_huge_pages(void* block, std::size_t bytes) {
    const auto begin = (reinterpret_cast<std::uintptr_t>(block) + kHugePage - 1) & ~(kHugePage - 1);
    const auto end = (reinterpret_cast<std::uintptr_t>(block) + bytes) & ~(kHugePage - 1);
    // Only advice: without transparent huge pages it fails, harmlessly.
    if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
}

void* allocate(std::size_t bytes) {
    void* block = std::malloc(bytes == 0 ? 1 : bytes);
    if (block == nullptr) throw std::bad_alloc();
    if (bytes >= kLargeBlock && huge_pages_wanted()) advise_huge_pages(block, bytes);
    return block;
}

}  // namespace

void* operator new(std::size_t bytes) { return allocate(bytes); }
void* operator new[](std::size_t bytes) { return allocate(bytes); }
void operator delete(void* block) noexcept { std::free(block); }
void operator delete[](void* block) noexcept { std::free(block); }
void operator delete(void* block, std::size_t) noexcept { std::free(block); }
void operator delete[](void* block, std::size_t) noexcept { std::free(block); }
