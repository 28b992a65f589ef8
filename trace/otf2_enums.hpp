// OTF2's enumerations in Hindsight's terms.
#pragma once

#include <cstdint>
#include <optional>

#include <otf2/otf2.h>

#include "common/definitions.hpp"
#include "trace/event.hpp"

namespace hindsight::trace {

Paradigm paradigm_from_otf2(OTF2_Paradigm paradigm);
RegionRole role_from_otf2(OTF2_RegionRole role);
GroupType group_type_from_otf2(OTF2_GroupType type);
CollectiveOp collective_op_from_otf2(OTF2_CollectiveOp op);
// The collective window operation an RMA_COLLECTIVE_END of `op` ends;
// nullopt for one no MPI window call records.
std::optional<CollectiveOp> rma_window_operation(OTF2_CollectiveOp op);

// Whether a completed file operation of `mode` moved the `bytes` its
// IO_OPERATION_COMPLETE reports: reads and writes do, where the writer
// could tell them (else it leaves them undefined); flushes move none.
inline bool moved_file_bytes(OTF2_IoOperationMode mode, std::uint64_t bytes) {
    return (mode == OTF2_IO_OPERATION_MODE_READ || mode == OTF2_IO_OPERATION_MODE_WRITE) &&
           bytes != OTF2_UNDEFINED_UINT64;
}

}  // namespace hindsight::trace
