#include "collector/next_mpi.hpp"

#include <dlfcn.h>

#include <cstdio>
#include <string>

#include "collector/measurement.hpp"

namespace hindsight::collect {

namespace {

// The names looked up in vain, for the message of a call that needs one.
std::string& missing_names() {
    static std::string names;
    return names;
}

// Whether `address` lies in the collector's own library.
bool in_this_library(void* address) {
    Dl_info found{};
    Dl_info self{};
    return dladdr(address, &found) != 0 &&
           dladdr(reinterpret_cast<void*>(&in_this_library), &self) != 0 && found.dli_fbase == self.dli_fbase;
}

}  // namespace

void* next_mpi_symbol(const char* name) noexcept {
    // Preloaded or linked before MPI, the collector comes first: the MPI
    // library's definition is the next one.
    if (void* next = dlsym(RTLD_NEXT, name)) return next;
    // Linked after MPI, the first definition is MPI's own.
    void* first = dlsym(RTLD_DEFAULT, name);
    if (first && !in_this_library(first)) return first;
    try {
        std::string& names = missing_names();
        names += (names.empty() ? "" : ", ") + std::string(name);
    } catch (...) {  // only the message gets shorter
    }
    return nullptr;
}

int missing_mpi_function() noexcept {
    static bool said = false;
    if (!said) {
        said = true;
        std::fprintf(stderr, "%sthe MPI library lacks %s, which the collector intercepts; calls of it fail\n",
                     kMessagePrefix, missing_names().c_str());
    }
    return MPI_ERR_OTHER;
}

}  // namespace hindsight::collect
