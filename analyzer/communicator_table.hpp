// The profile per communicator of a trace (common/communicator_lines.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analyses/communication/communicator_profile.hpp"
#include "common/communicator_lines.hpp"
#include "common/definitions.hpp"

namespace hindsight::analyzer {

// Every communicator of `defs` with its operations, largest time first
// (communicators without members, like MPI_COMM_SELF, only when they have
// operations). Throws hindsight::Error (context `trace_path`) for a
// communicator with operations whose members are unknown or not ranks of
// the trace; such a communicator without operations is left out.
std::vector<CommunicatorLine> communicator_table(const Definitions& defs, const analyses::CommunicatorProfile& profile,
                                                 const std::string& trace_path);

}  // namespace hindsight::analyzer
