// zlib inflation for the compressed data members of CUBE files (ZCUBEX.DATA).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace hindsight::cube {

// Appends the inflated zlib stream `compressed` to `out`. Throws Error("", ...)
// when the stream is damaged or incomplete, or when `out` would grow beyond
// `limit` bytes.
void inflate_into(std::string& out, std::string_view compressed, std::size_t limit);

}  // namespace hindsight::cube
