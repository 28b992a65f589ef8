// Text for a stream in one write. std::cerr is unbuffered: every << is a
// write of its own, and an MPI launcher that forwards a rank's standard
// output and error through one terminal or file (mpiexec ... 2>&1) may put
// the other stream's text between two pieces of a line ("report 0.03 s"
// then the summary, then the newline).
#pragma once

#include <ostream>
#include <string>

namespace hindsight {

// Writes `text` (a whole line with its newline, or a status line that
// ends in a carriage return) at once, and flushes it.
inline void write_whole(std::ostream& out, const std::string& text) { out << text << std::flush; }

}  // namespace hindsight
