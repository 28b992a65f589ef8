// Where the program called into its OpenMP runtime. The construct address
// (codeptr_ra) that OMPT reports names a construct's region; libomp 14
// reports for a taskloop, and for the tasks it creates, an address inside
// its own code, the same for every taskloop of the program. The program's
// call into the runtime is then found on the calling thread's stack: the
// first frame outside the runtime above the runtime's frames.
#pragma once

#include <cstdint>

namespace hindsight::collect::openmp {

class RuntimeCallSite {
public:
    RuntimeCallSite() = default;
    // `runtime_address`: any address in the runtime's code (the lookup
    // function it gave the tool).
    explicit RuntimeCallSite(const void* runtime_address);

    // Whether `address` lies in the runtime's object (its loaded segments).
    bool in_runtime(const void* address) const;
    // The return address of the program's call into the runtime that the
    // calling thread is in now (a callback's thread), or nullptr when the
    // stack shows none. Costs a stack walk: once per construct, not per
    // task.
    const void* program_caller() const;

private:
    std::uintptr_t begin_ = 0, end_ = 0;  // the runtime's segments; empty when unknown
};

}  // namespace hindsight::collect::openmp
