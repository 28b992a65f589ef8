#include "common/text_fields.hpp"

#include <cmath>
#include <cstdio>

#include "common/utf8.hpp"

namespace hindsight {


std::string json_string(std::string_view text) {
    const std::string valid = valid_utf8(text);
    std::string out = "\"";
    for (const char ch : valid) {
        const auto byte = static_cast<unsigned char>(ch);
        switch (ch) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\t': out += "\\t"; break;
            case '\r': out += "\\r"; break;
            // Never "</script>" or "<!--" in a page, whatever the name says.
            case '<': out += "\\u003c"; break;
            default:
                if (byte < 0x20) {
                    char escaped[8];
                    std::snprintf(escaped, sizeof escaped, "\\u%04x", byte);
                    out += escaped;
                } else {
                    out += ch;
                }
        }
    }
    return out + "\"";
}

std::string json_number(double value) {
    if (!std::isfinite(value)) return "null";
    char text[32];
    // 17 significant digits bring every double back exactly.
    std::snprintf(text, sizeof text, "%.17g", value);
    return text;
}


std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
    std::string quoted = "\"";
    for (const char c : s) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

}  // namespace hindsight
