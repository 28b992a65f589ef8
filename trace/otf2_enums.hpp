// OTF2's enumerations in Hindsight's terms.
#pragma once

#include <otf2/otf2.h>

#include "common/definitions.hpp"
#include "trace/event.hpp"

namespace hindsight::trace {

Paradigm paradigm_from_otf2(OTF2_Paradigm paradigm);
RegionRole role_from_otf2(OTF2_RegionRole role);
GroupType group_type_from_otf2(OTF2_GroupType type);
CollectiveOp collective_op_from_otf2(OTF2_CollectiveOp op);

}  // namespace hindsight::trace
