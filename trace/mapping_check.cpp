#include "trace/mapping_check.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace hindsight::trace {
namespace {

const char* kind_name(OTF2_MappingType type) {
    switch (type) {
    case OTF2_MAPPING_STRING: return "string";
    case OTF2_MAPPING_REGION: return "region";
    case OTF2_MAPPING_COMM: return "communicator";
    case OTF2_MAPPING_LOCATION: return "location";
    case OTF2_MAPPING_GROUP: return "group";
    case OTF2_MAPPING_ATTRIBUTE: return "attribute";
    case OTF2_MAPPING_METRIC: return "metric";
    case OTF2_MAPPING_PARAMETER: return "parameter";
    default: return "definition";
    }
}

// Whether the global definitions hold `id` of the kind; kinds the analyzer
// does not read pass.
bool defined(const TraceDefinitions& defs, OTF2_MappingType type, std::uint64_t id) {
    switch (type) {
    case OTF2_MAPPING_STRING: return defs.string_ids.find(id).has_value();
    case OTF2_MAPPING_REGION: return defs.region_ids.find(id).has_value();
    case OTF2_MAPPING_COMM: return defs.comm_ids.find(id).has_value();
    case OTF2_MAPPING_LOCATION:
        return std::any_of(defs.definitions.locations.begin(), defs.definitions.locations.end(),
                           [&](const Location& l) { return l.id == id; });
    default: return true;
    }
}

}  // namespace

std::optional<std::string> mapping_table_problem(const TraceDefinitions& defs, OTF2_MappingType type,
                                                 const OTF2_IdMap* map) {
    // (global, local) pairs, sorted by global id to find a global id twice.
    std::vector<std::pair<std::uint64_t, std::uint64_t>> pairs;
    OTF2_IdMap_Traverse(
        map,
        [](std::uint64_t local, std::uint64_t global, void* ud) {
            static_cast<decltype(pairs)*>(ud)->emplace_back(global, local);
        },
        &pairs);
    const std::string kind = kind_name(type);
    for (const auto& [global, local] : pairs)
        if (!defined(defs, type, global))
            return "the " + kind + " mapping table maps local id " + std::to_string(local) + " to " + kind + " " +
                   std::to_string(global) + ", which the global definitions lack (damaged local definitions)";
    std::sort(pairs.begin(), pairs.end());
    const auto twice = std::adjacent_find(pairs.begin(), pairs.end(),
                                          [](const auto& a, const auto& b) { return a.first == b.first; });
    if (twice != pairs.end())
        return "the " + kind + " mapping table maps local ids " + std::to_string(twice->second) + " and " +
               std::to_string(std::next(twice)->second) + " both to " + kind + " " + std::to_string(twice->first) +
               " (damaged local definitions)";
    return std::nullopt;
}

}  // namespace hindsight::trace
