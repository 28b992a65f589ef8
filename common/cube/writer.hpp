// Writes a report as a .cubex file that the Cube browser and the CubeLib
// tools (cube_dump, cube_stat, ...) open.
#pragma once

#include <filesystem>

#include "common/cube/report.hpp"

namespace hindsight::cube {

// The archive holds anchor.xml and, per metric, <id>.index and <id>.data.
// Stored values include their sub-metrics (converted from own shares if the
// report holds those) and stay exclusive along the call tree. The file
// appears complete or not at all. Throws hindsight::Error naming `path` when
// the report cannot be expressed in CUBE (e.g. it has no call path) or the
// file cannot be written.
void write_cubex(const Report& report, const std::filesystem::path& path);

}  // namespace hindsight::cube
