// What the text mode prints: rows of named columns, shown as an indented
// table on a terminal, or as CSV or JSON for scripts.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "common/text_fields.hpp"

namespace hindsight::report {

enum class Format { Text, Csv, Json };

struct Table {
    using Cell = std::variant<std::string, double, long long>;
    struct Row {
        std::vector<Cell> cells;  // one per column
        int depth = 0;            // indentation of the first column on a terminal
    };
    std::vector<std::string> columns;
    std::vector<Row> rows;
};

// Text: aligned columns under a header line, the first column indented by
// depth (at most kMaxIndent levels, so that a deep tree's table stays linear
// in its size), numbers with 6 significant digits, names made printable. CSV (RFC 4180) and JSON (an
// array of objects keyed by column) carry numbers in full precision.
void print_table(std::ostream& out, const Table& table, Format format);
inline constexpr int kMaxIndent = 32;

// `text` as valid UTF-8 on one line: control characters (line breaks, tabs,
// escape sequences a terminal would obey, DEL and the C1 controls) become
// visible escapes such as \n, \t and \x1b.
std::string printable(std::string_view text);

// One CSV field (RFC 4180), common/text_fields.hpp.
using hindsight::csv_field;

}  // namespace hindsight::report
