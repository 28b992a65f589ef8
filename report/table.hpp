// What the text mode prints: rows of named columns, shown as an indented
// table on a terminal, or as CSV or JSON for scripts.
#pragma once

#include <iosfwd>
#include <string>
#include <variant>
#include <vector>

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
// depth, numbers with 6 significant digits. CSV (RFC 4180) and JSON (an
// array of objects keyed by column) carry numbers in full precision.
void print_table(std::ostream& out, const Table& table, Format format);

// One CSV field (RFC 4180): quoted when it holds a separator, a quote or a
// line break.
std::string csv_field(const std::string& text);

}  // namespace hindsight::report
