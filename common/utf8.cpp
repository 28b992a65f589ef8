#include "common/utf8.hpp"

#include <cstddef>
#include <cstdint>

namespace hindsight {

namespace {

bool is_noncharacter(std::uint32_t code_point) {
    return (code_point >= 0xFDD0 && code_point <= 0xFDEF) || (code_point & 0xFFFE) == 0xFFFE;
}

struct Sequence {
    std::size_t length = 0;  // 0: text[at] starts no well-formed sequence
    bool acceptable = false;  // well-formed and not a noncharacter
};

// The sequence at text[at], well-formed as Unicode's table 3-7 defines it:
// no overlong forms, no surrogates, nothing beyond U+10FFFF.
Sequence sequence_at(std::string_view text, std::size_t at) {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[at + i]); };
    const unsigned char lead = byte(0);
    if (lead < 0x80) return {1, true};
    std::size_t length = 0;
    std::uint32_t code_point = 0;
    unsigned char low = 0x80, high = 0xBF;  // allowed range of the second byte
    if (lead >= 0xC2 && lead <= 0xDF) {
        length = 2;
        code_point = lead & 0x1Fu;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        length = 3;
        code_point = lead & 0x0Fu;
        if (lead == 0xE0) low = 0xA0;   // overlong
        if (lead == 0xED) high = 0x9F;  // surrogates
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4;
        code_point = lead & 0x07u;
        if (lead == 0xF0) low = 0x90;   // overlong
        if (lead == 0xF4) high = 0x8F;  // beyond U+10FFFF
    } else {
        return {};
    }
    if (text.size() - at < length) return {};
    for (std::size_t i = 1; i < length; ++i) {
        const unsigned char b = byte(i);
        if (b < (i == 1 ? low : 0x80) || b > (i == 1 ? high : 0xBF)) return {};
        code_point = (code_point << 6) | (b & 0x3Fu);
    }
    return {length, !is_noncharacter(code_point)};
}

}  // namespace

std::string valid_utf8(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t at = 0; at < text.size();) {
        const Sequence sequence = sequence_at(text, at);
        // A damaged byte is replaced alone, so that the bytes after it
        // still count; a noncharacter as a whole.
        const std::size_t length = sequence.length ? sequence.length : 1;
        if (sequence.acceptable)
            out.append(text, at, length);
        else
            out += kReplacementCharacter;
        at += length;
    }
    return out;
}

bool is_valid_utf8(std::string_view text) {
    for (std::size_t at = 0; at < text.size();) {
        const Sequence sequence = sequence_at(text, at);
        if (!sequence.acceptable) return false;
        at += sequence.length;
    }
    return true;
}

}  // namespace hindsight
