// The trace argument of hindsight-analyze: an archive's .otf2 anchor file,
// or the directory that holds it (what hindsight-collect and Score-P name).
#pragma once

#include <string>

namespace hindsight::analyzer {

// `given` itself unless it is a directory; of a directory, its traces.otf2
// (the name hindsight-collect and Score-P write) or else its only *.otf2
// file. Throws hindsight::Error naming the directory when it holds no
// anchor or several without a traces.otf2 among them.
std::string anchor_file(const std::string& given);

}  // namespace hindsight::analyzer
