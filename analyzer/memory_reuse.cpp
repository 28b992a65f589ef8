#include "analyzer/memory_reuse.hpp"

#include <malloc.h>

namespace hindsight::analyzer {

void reuse_freed_memory() {
    constexpr int kLimit = 1 << 30;  // bytes
    mallopt(M_MMAP_THRESHOLD, kLimit);
    mallopt(M_TRIM_THRESHOLD, kLimit);
}

}  // namespace hindsight::analyzer
