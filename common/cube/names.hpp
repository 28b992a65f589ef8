// The words CUBE files use for region paradigms and roles (the spelling
// Score-P's CUBE output uses, so that the Cube browser groups our regions
// the same way), and back.
#pragma once

#include <string_view>

#include "common/definitions.hpp"

namespace hindsight::cube {

std::string_view paradigm_name(Paradigm paradigm);
std::string_view role_name(RegionRole role);
// Unknown words map to Paradigm::Unknown / RegionRole::Unknown.
Paradigm paradigm_from_name(std::string_view name);
RegionRole role_from_name(std::string_view name);

}  // namespace hindsight::cube
