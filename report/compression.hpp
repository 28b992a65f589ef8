// The page carries its data gzip-compressed and base64-encoded: browsers
// decompress gzip natively (DecompressionStream), and base64 is plain text
// that no HTML parser can mistake for markup.
#pragma once

#include <string>
#include <string_view>

namespace hindsight::report {

// `bytes` as a gzip member (RFC 1952), at zlib's default level: on the
// benchmark's report the best level took four times as long for 0.5 % less.
std::string gzip(std::string_view bytes);

// `bytes` in base64 (RFC 4648, with padding, no line breaks).
std::string base64(std::string_view bytes);

}  // namespace hindsight::report
