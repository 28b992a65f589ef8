// JSON text for the page's data and for `hindsight-report --json`: the
// writers of common/text_fields.hpp, under the report's names.
#pragma once

#include "common/text_fields.hpp"

namespace hindsight::report {

using hindsight::json_number;
using hindsight::json_string;

}  // namespace hindsight::report
