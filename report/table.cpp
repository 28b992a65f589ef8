#include "report/table.hpp"

#include <algorithm>
#include <cstdio>
#include <ostream>

#include "common/utf8.hpp"
#include "common/text_fields.hpp"

namespace hindsight::report {

namespace {

std::string number_text(double v, int digits) {
    char text[40];
    std::snprintf(text, sizeof text, "%.*g", digits, v);
    return text;
}

std::string plain(const Table::Cell& cell, int digits) {
    if (const auto* s = std::get_if<std::string>(&cell)) return valid_utf8(*s);
    if (const auto* d = std::get_if<double>(&cell)) return number_text(*d, digits);
    return std::to_string(std::get<long long>(cell));
}

// A cell for the terminal: one line, no control characters.
std::string shown(const Table::Cell& cell, int digits) {
    if (const auto* s = std::get_if<std::string>(&cell)) return printable(*s);
    return plain(cell, digits);
}

// Terminal columns a UTF-8 string takes (one per code point: good enough
// for names, which are rarely wide characters).
std::size_t width_of(const std::string& s) {
    return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
}

void print_text(std::ostream& out, const Table& table) {
    std::vector<std::vector<std::string>> lines;
    lines.push_back(table.columns);
    for (const Table::Row& row : table.rows) {
        std::vector<std::string> line;
        for (std::size_t i = 0; i < row.cells.size(); ++i)
            line.push_back((i == 0 ? std::string(2 * static_cast<std::size_t>(std::min(row.depth, kMaxIndent)), ' ')
                                   : "") +
                           shown(row.cells[i], 6));
        lines.push_back(std::move(line));
    }
    std::vector<std::size_t> widths(table.columns.size(), 0);
    for (const auto& line : lines)
        for (std::size_t i = 0; i < line.size(); ++i) widths[i] = std::max(widths[i], width_of(line[i]));
    for (std::size_t n = 0; n < lines.size(); ++n) {
        std::string text;
        for (std::size_t i = 0; i < lines[n].size(); ++i) {
            const std::string pad(widths[i] - width_of(lines[n][i]), ' ');
            // Numbers right-aligned, text left-aligned.
            const bool number = n > 0 && !std::holds_alternative<std::string>(table.rows[n - 1].cells[i]);
            if (i > 0) text += "  ";
            text += number ? pad + lines[n][i] : lines[n][i] + (i + 1 < lines[n].size() ? pad : "");
        }
        out << text << '\n';
    }
}

void print_csv(std::ostream& out, const Table& table) {
    for (std::size_t i = 0; i < table.columns.size(); ++i) out << (i ? "," : "") << csv_field(table.columns[i]);
    out << '\n';
    for (const Table::Row& row : table.rows) {
        for (std::size_t i = 0; i < row.cells.size(); ++i) out << (i ? "," : "") << csv_field(plain(row.cells[i], 17));
        out << '\n';
    }
}

void print_json(std::ostream& out, const Table& table) {
    out << "[";
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
        out << (r ? ",\n " : "\n ") << "{";
        const auto& cells = table.rows[r].cells;
        for (std::size_t i = 0; i < cells.size(); ++i) {
            out << (i ? ", " : "") << json_string(table.columns[i]) << ": ";
            if (const auto* s = std::get_if<std::string>(&cells[i])) out << json_string(*s);
            else if (const auto* d = std::get_if<double>(&cells[i])) out << json_number(*d);
            else out << std::get<long long>(cells[i]);
        }
        out << "}";
    }
    out << "\n]\n";
}

}  // namespace

std::string printable(std::string_view raw) {
    const std::string text = valid_utf8(raw);
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto byte = static_cast<unsigned char>(text[i]);
        // U+0080..U+009F (C1 controls) are 0xC2 0x80..0x9F in UTF-8.
        const bool c1 = byte == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) < 0xA0;
        if (byte >= 0x20 && byte != 0x7F && !c1) {
            out += text[i];
            continue;
        }
        switch (text[i]) {
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default: {
                char escaped[8];
                std::snprintf(escaped, sizeof escaped, c1 ? "\\u%04x" : "\\x%02x",
                              c1 ? static_cast<unsigned char>(text[++i]) : byte);
                out += escaped;
            }
        }
    }
    return out;
}

void print_table(std::ostream& out, const Table& table, Format format) {
    switch (format) {
        case Format::Text: print_text(out, table); break;
        case Format::Csv: print_csv(out, table); break;
        case Format::Json: print_json(out, table); break;
    }
}

}  // namespace hindsight::report
