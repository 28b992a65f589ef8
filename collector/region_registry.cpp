#include "collector/region_registry.hpp"

namespace hindsight::collect {

OTF2_RegionRef RegionRegistry::add(RegionDef def) {
    defs_.push_back(std::move(def));
    return static_cast<OTF2_RegionRef>(defs_.size() - 1);
}

OTF2_RegionRef RegionRegistry::define_mpi(MpiFunction f) {
    const OTF2_RegionRef id = add({info(f).name, info(f).name, info(f).role, OTF2_PARADIGM_MPI, "MPI"});
    mpi_ids_[static_cast<std::size_t>(f)] = id;
    return id;
}

OTF2_RegionRef RegionRegistry::named(std::string_view name, RegionDef def) {
    // Keyed by paradigm too: a user region may share a function's name.
    std::string key = std::to_string(static_cast<int>(def.paradigm)) + ':' + std::string(name);
    const auto it = by_name_.find(key);
    if (it != by_name_.end()) return it->second;
    const OTF2_RegionRef id = add(std::move(def));
    by_name_.emplace(std::move(key), id);
    return id;
}

OTF2_RegionRef RegionRegistry::user(std::string_view name) {
    return named(name, {std::string(name), std::string(name), OTF2_REGION_ROLE_FUNCTION,
                        OTF2_PARADIGM_USER, ""});
}

OTF2_RegionRef RegionRegistry::compiler(std::string_view name, std::string_view mangled) {
    return named(mangled, {std::string(name), std::string(mangled), OTF2_REGION_ROLE_FUNCTION,
                           OTF2_PARADIGM_COMPILER, ""});
}

OTF2_RegionRef RegionRegistry::buffer_flush() {
    return named("TRACE BUFFER FLUSH", {"TRACE BUFFER FLUSH", "TRACE BUFFER FLUSH",
                                        OTF2_REGION_ROLE_ARTIFICIAL,
                                        OTF2_PARADIGM_MEASUREMENT_SYSTEM, ""});
}

OTF2_RegionRef RegionRegistry::program(std::string_view path, const std::vector<std::string>& arguments) {
    const std::string_view name = path.substr(path.find_last_of('/') + 1);  // npos + 1 == 0
    std::string call(path);
    for (const std::string& argument : arguments) call += ' ' + argument;
    return named(call, {std::string(name), call, OTF2_REGION_ROLE_ARTIFICIAL, OTF2_PARADIGM_MEASUREMENT_SYSTEM, ""});
}

}  // namespace hindsight::collect
