// User regions (hindsight.h) and compiler instrumentation
// (-finstrument-functions): both enter and leave regions on the
// measurement's stack of open regions, or on the early stack before MPI_Init.
#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "collector/early_regions.hpp"
#include "collector/hindsight.h"
#include "collector/measurement.hpp"
#include "collector/symbol_table.hpp"
#include "collector/timer.hpp"

namespace hindsight::collect {

namespace {

// Region identity before it is resolved: a user name, or a function address.
struct RegionKey {
    std::string name;            // user region
    const void* function = nullptr;  // compiler region
};

// Measurement state outside the Measurement object: regions entered before
// MPI_Init (the measurement does not exist yet) and the caches that make
// repeated entries cheap.
struct RegionState {
    bool started = false;  // MPI_Init has happened: no more early regions
    std::vector<std::pair<RegionKey, std::uint64_t>> early;
    std::unordered_map<std::string, OTF2_RegionRef> by_name;
    std::unordered_map<const void*, OTF2_RegionRef> by_address;
    SymbolTable symbols;
};

RegionState& state() {
    static RegionState s;
    return s;
}

bool on_master_thread() {
    // Before MPI_Init there is no measurement yet, but the master thread is known.
    static const pthread_t master = pthread_self();
    return pthread_equal(pthread_self(), master) != 0;
}

OTF2_RegionRef resolve_name(Measurement& m, std::string_view name) {
    RegionState& s = state();
    const auto it = s.by_name.find(std::string(name));
    if (it != s.by_name.end()) return it->second;
    // Defined once per name; other threads define MPI regions meanwhile.
    const Measurement::RegistryLock lock(m);
    const OTF2_RegionRef region = m.filter().included(name) ? m.regions().user(name) : OTF2_UNDEFINED_REGION;
    s.by_name.emplace(std::string(name), region);
    return region;
}

OTF2_RegionRef resolve_function(Measurement& m, const void* function) {
    RegionState& s = state();
    const auto it = s.by_address.find(function);
    if (it != s.by_address.end()) return it->second;
    std::string mangled = s.symbols.name_of(function);
    if (mangled.empty()) {
        char hex[32];
        std::snprintf(hex, sizeof hex, "%p", function);
        mangled = hex;
    }
    const std::string name = demangle(mangled);
    const Measurement::RegistryLock lock(m);
    const OTF2_RegionRef region =
        m.filter().included(name, mangled) ? m.regions().compiler(name, mangled) : OTF2_UNDEFINED_REGION;
    s.by_address.emplace(function, region);
    return region;
}

void begin(RegionKey key) {
    const std::uint64_t now = timestamp();
    if (Measurement* m = Measurement::live_here()) {
        m->user_enter(key.function ? resolve_function(*m, key.function) : resolve_name(*m, key.name), now);
    } else if (!state().started && on_master_thread()) {
        state().early.emplace_back(std::move(key), now);
    }
}

void end() {
    const std::uint64_t now = timestamp();
    if (Measurement* m = Measurement::live_here()) {
        m->user_leave(now);
    } else if (!state().started && on_master_thread() && !state().early.empty()) {
        state().early.pop_back();
    }
}

}  // namespace

void replay_early_regions(Measurement& m) {
    RegionState& s = state();
    s.started = true;
    for (auto& [key, time] : s.early) {
        m.user_enter(key.function ? resolve_function(m, key.function) : resolve_name(m, key.name), time);
    }
    s.early.clear();
}

}  // namespace hindsight::collect

extern "C" {

void hindsight_region_begin(const char* name) {
    hindsight::collect::begin({name ? name : "", nullptr});
}

void hindsight_region_end(const char* /*name*/) { hindsight::collect::end(); }

// Fortran (gfortran passes the string's length as a hidden last argument).
void hindsight_region_begin_(const char* name, std::size_t length) {
    std::string_view text(name, length);
    while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
    hindsight::collect::begin({std::string(text), nullptr});
}

void hindsight_region_end_(const char* /*name*/, std::size_t /*length*/) { hindsight::collect::end(); }

// Compiler instrumentation hooks (gcc/clang -finstrument-functions).
__attribute__((no_instrument_function)) void __cyg_profile_func_enter(void* function, void* /*call_site*/) {
    hindsight::collect::begin({{}, function});
}

__attribute__((no_instrument_function)) void __cyg_profile_func_exit(void* /*function*/, void* /*call_site*/) {
    hindsight::collect::end();
}

}  // extern "C"
