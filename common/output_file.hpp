// Writing an output file (a report, a page) so that its name holds, at
// every moment, either what was there before or the whole new content, and
// never replaces something that is not a file.
//
// The content goes to a file of its own, created exclusively beside the
// target (so that two runs writing the same name never share it), and is
// renamed over the target when complete: the last run to finish wins, with
// its whole report. A symbolic link to a regular file stays a link; the
// file it points to gets the content.
#pragma once

#include <filesystem>
#include <functional>

namespace hindsight {

// Where writing `requested` would put the content: `requested` itself, or
// the file a symbolic link leads to. Throws hindsight::Error naming
// `requested` when that is a directory, a device, a FIFO or a socket (or a
// link to one), or when its directory does not exist.
std::filesystem::path output_target(const std::filesystem::path& requested);

// Checks, before any work is done, that `requested` can be written: the
// checks of output_target() and a trial creation of a file in its
// directory. Throws hindsight::Error naming `requested`.
void check_output_file(const std::filesystem::path& requested);

// Calls write(partial) with the path of a new, empty, exclusively created
// file beside the target, then renames it over the target. On failure
// (write() throwing included) the partial file is removed and
// hindsight::Error naming `requested` is thrown.
void write_output_file(const std::filesystem::path& requested,
                       const std::function<void(const std::filesystem::path& partial)>& write);

}  // namespace hindsight
