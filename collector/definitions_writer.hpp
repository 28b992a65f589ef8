// Writing the unified definitions: the global definition file (rank 0) and
// each rank's table from its local ids to the global ones.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <otf2/otf2.h>

#include "collector/definition_unification.hpp"

namespace hindsight::collect {

struct ClockWindow {
    std::uint64_t ticks_per_second = 1'000'000'000u;
    std::uint64_t global_offset = 0;
    std::uint64_t length = 0;
    std::uint64_t realtime = OTF2_UNDEFINED_TIMESTAMP;
};

// Writes the global definitions; `program` is the executable's path, which
// PROGRAM_BEGIN events refer to as string kProgramNameString.
void write_global_definitions(OTF2_GlobalDefWriter* writer, const UnifiedDefinitions& defs,
                              const ClockWindow& clock, const std::string& program);

inline constexpr OTF2_StringRef kEmptyString = 0;
inline constexpr OTF2_StringRef kProgramNameString = 1;
// Hindsight's receive-sources attribute (common/receive_sources.hpp), the
// same id in every rank's events and the global definitions.
inline constexpr OTF2_AttributeRef kReceiveSourcesAttributeId = 0;

// Writes a local-to-global id mapping table unless it is the identity.
void write_mapping(OTF2_DefWriter* writer, OTF2_MappingType type, const std::vector<std::uint64_t>& map);

}  // namespace hindsight::collect
