// A check of JSON text (RFC 8259) for files the page embeds, so that a
// damaged file is refused with its problem instead of failing in the
// browser. It checks the syntax only and keeps no values, except the two
// members of the top-level object that identify a document.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace hindsight::report {

// Why `text` is not one JSON value ("byte 17: expected ':'"), or nothing
// when it is. Nesting deeper than 512 levels counts as a problem.
std::optional<std::string> json_syntax_problem(std::string_view text);

// The top-level members "schema" (a string, without quotes and escapes
// undone only for plain text) and "version" (the number's text) of a JSON
// object; empty where missing or of another type. `text` must have passed
// json_syntax_problem().
struct JsonHeader {
    std::string schema;
    std::string version;
};
JsonHeader json_header(std::string_view text);

}  // namespace hindsight::report
