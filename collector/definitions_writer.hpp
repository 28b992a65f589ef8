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

// The program as every rank's PROGRAM_BEGIN names it: the executable's
// path and its arguments, those of rank 0 (the ranks of an MPMD run that
// were started otherwise name no arguments).
struct ProgramCall {
    std::string path;
    std::vector<std::string> arguments;
};

// Writes the global definitions; PROGRAM_BEGIN events refer to the
// program's path as string kProgramNameString and to its arguments as
// argument_strings() says.
void write_global_definitions(OTF2_GlobalDefWriter* writer, const UnifiedDefinitions& defs,
                              const ClockWindow& clock, const ProgramCall& program);

inline constexpr OTF2_StringRef kEmptyString = 0;
inline constexpr OTF2_StringRef kProgramNameString = 1;
// Hindsight's receive-sources attribute (common/receive_sources.hpp), the
// same id in every rank's events and the global definitions.
inline constexpr OTF2_AttributeRef kReceiveSourcesAttributeId = 0;

// The string ids of the program's arguments, which the global definitions
// hold right after its path (an argument equal to an earlier string has
// that string's id), so that PROGRAM_BEGIN can name them before the
// definitions are written.
std::vector<OTF2_StringRef> argument_strings(const ProgramCall& program);

// Writes a local-to-global id mapping table unless it is the identity.
void write_mapping(OTF2_DefWriter* writer, OTF2_MappingType type, const std::vector<std::uint64_t>& map);
// The same where the last entries of `map` belong to the local ids
// `extra_local_ids` (OpenMP's, outside the dense range): a sparse table.
void write_mapping(OTF2_DefWriter* writer, OTF2_MappingType type, const std::vector<std::uint64_t>& map,
                   const std::vector<std::uint64_t>& extra_local_ids);

}  // namespace hindsight::collect
