// Whether a trace can go into a directory, found without changing anything:
// the launcher asks this before it starts the program, the library (rank 0,
// output_directory.hpp) again before it creates the directory.
#pragma once

#include <string>

namespace hindsight::collect {

// The first part of an OTF2 archive found in `dir` ("traces.otf2",
// "traces.def" or "traces", whose event files are all an aborted run
// leaves, and OTF2 refuses to write where it exists); nullptr when none.
const char* existing_archive_part(const std::string& dir);

// Empty when `dir` can take a trace: an existing directory that holds no
// archive (or `force`) and can be written, or a missing one whose nearest
// existing ancestor is a directory that can be written. Its path must leave
// room below it for the archive's files within PATH_MAX, and each of its
// names fit the file system (NAME_MAX, or what pathconf says for the names
// still to be created). Any failure to look at a part of the path other than
// its absence (a loop of links, a link leading nowhere, no permission to
// search) refuses. Otherwise the problem, "DIR: reason", with long paths
// shortened (common/shortened.hpp).
std::string check_output_directory(const std::string& dir, bool force);

}  // namespace hindsight::collect
