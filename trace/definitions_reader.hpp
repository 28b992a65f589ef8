// Reads an archive's global definitions into Hindsight's definitions model,
// with dense ids (see id_map.hpp) and OTF2's enumerations mapped to ours.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
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
    // The communicator each I/O handle was opened on (OTF2's IoHandle
    // definition: the communicator of MPI_File_open), as the trace's comm
    // reference; OTF2_UNDEFINED_COMM for a handle without one (POSIX I/O, or
    // a writer that does not say). A collective I/O operation synchronizes
    // this communicator.
    std::unordered_map<std::uint64_t, std::uint64_t> io_handle_comms;
    // The communicator each RMA window was created on (OTF2's RmaWin
    // definition), as the trace's comm reference: the window's collective
    // operations synchronize it, its ranks name targets.
    std::unordered_map<std::uint64_t, std::uint64_t> rma_win_comms;

    const std::string& string(std::uint64_t trace_id) const;
    // The communicator I/O handle `handle` was opened on (io_handle_comms),
    // or RMA window `win` created on (rma_win_comms); none where the trace
    // names none.
    std::optional<CommId> io_handle_comm(std::uint64_t handle) const;
    std::optional<CommId> rma_win_comm(std::uint64_t win) const;
    // Index of MPI_COMM_WORLD: the communicator of that name, or else the
    // first MPI communicator whose group holds every rank in order.
    CommId world_comm() const;
};

TraceDefinitions read_global_definitions(const otf2::Reader& reader);

}  // namespace hindsight::trace
