// The one reading of Hindsight's yes/no environment variables
// (HINDSIGHT_FORCE, HINDSIGHT_VERBOSE, HINDSIGHT_QUIET of the collector,
// HINDSIGHT_HUGE_PAGES of the analyzer), so that every tool accepts the same
// words and refuses the same typos. Header-only, for the collector as well.
#pragma once

#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <string_view>

#include "common/error.hpp"
#include "common/shortened.hpp"

namespace hindsight {

// "1", "true", "yes", "on" / "0", "false", "no", "off", in any case;
// nothing for any other text, the empty one included. Allocates nothing:
// the analyzer's operator new asks it.
inline std::optional<bool> parse_yes_no(std::string_view text) noexcept {
    const auto is = [&](std::string_view word) {
        return text.size() == word.size() &&
               std::equal(text.begin(), text.end(), word.begin(),
                          [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; });
    };
    if (is("1") || is("true") || is("yes") || is("on")) return true;
    if (is("0") || is("false") || is("no") || is("off")) return false;
    return std::nullopt;
}

// The value of the yes/no variable `name` whose text is `value` (getenv's
// answer): `unset` when it is not set or set to the empty string (as a
// shell's `NAME=` leaves it, meaning "no setting"); throws hindsight::Error
// naming the variable for any text parse_yes_no does not know.
inline bool yes_no_variable(const char* name, const char* value, bool unset) {
    if (value == nullptr || *value == '\0') return unset;
    if (const std::optional<bool> flag = parse_yes_no(value)) return *flag;
    throw Error(name, "'" + shortened(value) + "' is not a yes/no value (1/0, yes/no, true/false, on/off)");
}

}  // namespace hindsight
