#include "trace/huge_page_allocator.hpp"

#include <sys/mman.h>

#include <cstdlib>

namespace hindsight::trace::huge_pages {
namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;

bool is_large(std::size_t bytes) { return bytes >= kHugePage; }

std::size_t rounded_up(std::size_t bytes) { return (bytes + kHugePage - 1) / kHugePage * kHugePage; }

}  // namespace

void* allocate(std::size_t bytes) {
    if (!is_large(bytes)) {
        void* memory = std::malloc(bytes == 0 ? 1 : bytes);
        if (!memory) throw std::bad_alloc();
        return memory;
    }
    // Huge-page aligned, so that the whole range can be backed by huge
    // pages; madvise() is only advice and may fail harmlessly (no THP).
    void* memory = std::aligned_alloc(kHugePage, rounded_up(bytes));
    if (!memory) throw std::bad_alloc();
    madvise(memory, rounded_up(bytes), MADV_HUGEPAGE);
    return memory;
}

void deallocate(void* memory) noexcept { std::free(memory); }

}  // namespace hindsight::trace::huge_pages
