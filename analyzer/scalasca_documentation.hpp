// Where Scalasca documents the metrics Hindsight shares with it: the links
// its reports carry for them, so that the Cube browser's "Online
// description" and the report page lead to the same explanation for both
// tools' reports.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hindsight::analyzer {

// The bases a CUBE reader puts in place of "@mirror@" in a metric's URL:
// Scalasca's pattern documentation of the release whose reports we compare
// with (2.6), then the newest, as Scalasca 2.6's reports list them.
const std::vector<std::string>& scalasca_mirrors();

// "@mirror@scalasca_patterns.html#NAME" for a metric Scalasca's pattern
// documentation describes; empty for one of Hindsight's own.
std::string scalasca_pattern_url(std::string_view unique_name);

}  // namespace hindsight::analyzer
