// This process's region definitions. Ids are local and dense, assigned on
// first use; MPI_Finalize unifies them across ranks (definition_transfer.hpp)
// and maps the local ids to global ones with OTF2 mapping tables.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <otf2/otf2.h>

#include "collector/mpi_functions.hpp"

namespace hindsight::collect {

struct RegionDef {
    std::string name;            // display name
    std::string canonical_name;  // e.g. the mangled name
    OTF2_RegionRole role = OTF2_REGION_ROLE_FUNCTION;
    OTF2_Paradigm paradigm = OTF2_PARADIGM_USER;
    std::string file;            // "MPI" for MPI functions, else empty when unknown
};

class RegionRegistry {
public:
    RegionRegistry() { mpi_ids_.fill(kUnset); }

    // Every wrapper asks: a table lookup, the definition only on first use.
    OTF2_RegionRef mpi(MpiFunction f) {
        const OTF2_RegionRef id = mpi_ids_[static_cast<std::size_t>(f)];
        return id != kUnset ? id : define_mpi(f);
    }
    // A region named by the program (hindsight_region_begin, Scope).
    OTF2_RegionRef user(std::string_view name);
    // A function entered through compiler instrumentation.
    OTF2_RegionRef compiler(std::string_view name, std::string_view mangled);
    // The region a trace buffer flush is recorded as (Score-P's name and kind).
    OTF2_RegionRef buffer_flush();
    // The program itself, as Score-P defines it: an artificial region named
    // after the executable, with its path and the arguments that
    // PROGRAM_BEGIN names, each after a space, as canonical name (Scalasca's
    // readers find the program's region by that name). PROGRAM_BEGIN and
    // PROGRAM_END delimit it, so the analysis shows it as the root of the
    // call tree, holding the time outside every other region.
    OTF2_RegionRef program(std::string_view path, const std::vector<std::string>& arguments);

    const std::vector<RegionDef>& definitions() const { return defs_; }

private:
    static constexpr OTF2_RegionRef kUnset = OTF2_UNDEFINED_REGION;
    OTF2_RegionRef add(RegionDef def);
    OTF2_RegionRef define_mpi(MpiFunction f);
    OTF2_RegionRef named(std::string_view name, RegionDef def);

    std::array<OTF2_RegionRef, kMpiFunctionCount> mpi_ids_{};
    std::unordered_map<std::string, OTF2_RegionRef> by_name_;
    std::vector<RegionDef> defs_;
};

}  // namespace hindsight::collect
