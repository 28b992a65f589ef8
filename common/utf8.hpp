// Names from traces and reports are bytes: a Latin-1 region name given to
// the user-region API, or a damaged definition, is not UTF-8. Every report
// and page declares UTF-8, so names pass through here on their way out.
#pragma once

#include <string>
#include <string_view>

namespace hindsight {

inline constexpr std::string_view kReplacementCharacter = "\xEF\xBF\xBD";  // U+FFFD

// `text` with every byte that does not start a well-formed UTF-8 sequence,
// every surrogate and every noncharacter (U+FDD0..U+FDEF and the last two
// code points of each plane, U+FFFE and U+FFFF among them) replaced by
// U+FFFD, so that the damage stays visible; valid text comes back unchanged.
std::string valid_utf8(std::string_view text);

// Whether valid_utf8(text) == text.
bool is_valid_utf8(std::string_view text);

}  // namespace hindsight
