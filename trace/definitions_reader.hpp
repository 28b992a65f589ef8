// Reads an archive's global definitions into Hindsight's definitions model,
// with dense ids (see id_map.hpp) and OTF2's enumerations mapped to ours.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/definitions.hpp"
#include "trace/id_map.hpp"
#include "trace/otf2_handles.hpp"

namespace hindsight::trace {

struct TraceDefinitions {
    Definitions definitions;
    // Trace id -> index in `definitions`, for the references in events.
    IdMap region_ids;
    IdMap comm_ids;
    IdMap group_ids;
    // The string table, for names events refer to (PROGRAM_BEGIN).
    IdMap string_ids;
    std::vector<std::string> strings;
    // The attribute that names the members a collective received data from
    // (common/receive_sources.hpp), when the trace defines it with its type.
    std::optional<std::uint64_t> sources_attribute;

    const std::string& string(std::uint64_t trace_id) const;
    // Index of MPI_COMM_WORLD: the communicator of that name, or else the
    // first MPI communicator whose group holds every rank in order.
    CommId world_comm() const;
};

TraceDefinitions read_global_definitions(const otf2::Reader& reader);

}  // namespace hindsight::trace
