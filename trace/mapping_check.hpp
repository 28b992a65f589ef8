// Checks a location's mapping tables, which OTF2 applies to the ids in its
// events (local definitions: local id -> global id). The tables are plain
// numbers with no checksum, so damage to them would silently turn one
// region, communicator or name into another. What can be told: a writer
// maps distinct local definitions to distinct global ones, and only to
// global definitions that exist. A table that maps two local ids to one
// global id, or to an id the global definitions lack, is damaged. A wrong
// id that is well-formed (distinct, and defined) cannot be told from the
// table; the event store's checks (a LEAVE must match its ENTER, messages
// and collectives must use communicators the rank belongs to, ...) catch
// what it breaks there.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <otf2/otf2.h>

#include "trace/definitions_reader.hpp"

namespace hindsight::trace {

// The problem of one mapping table, or nullopt when it is fine.
std::optional<std::string> mapping_table_problem(const TraceDefinitions& defs, OTF2_MappingType type,
                                                 const OTF2_IdMap* map);

}  // namespace hindsight::trace
