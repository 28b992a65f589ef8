// The files the analyzer writes beside its report: common/side_files.hpp.
#pragma once

#include "common/side_files.hpp"

namespace hindsight::analyzer {

using hindsight::side_file_path;
using hindsight::write_text_file;

}  // namespace hindsight::analyzer
