// Keeps the analyzer's freed memory for reuse instead of handing it back to
// the kernel.
#pragma once

namespace hindsight::analyzer {

// glibc serves each allocation above its mmap threshold (at most 32 MiB)
// with fresh pages from the kernel and unmaps them when freed. The replay
// builds and frees many buffers of that size per pass (payload blocks,
// message slots, wait-state tables), and faulting their pages in again
// every time took about a third of a forward pass at 1e7 events per rank.
// Called once at startup: from then on large allocations come from the
// heap, which keeps what is freed. Peak memory stays the same: a freed
// buffer is only kept for a later one to use.
void reuse_freed_memory();

}  // namespace hindsight::analyzer
