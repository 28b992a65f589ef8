// Long inputs in messages: a path or value of thousands of bytes (a
// generated directory name, a runaway variable) would bury the one line
// that says what is wrong with it. Header-only, for the collector as well.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace hindsight {

// `text` itself when it has at most 160 bytes; else its first and last 70
// bytes around "…", which keep a path recognisable by where it starts and
// the name it ends in. Cuts fall between UTF-8 characters.
inline std::string shortened(std::string_view text) {
    constexpr std::size_t kLongest = 160, kKept = 70;
    if (text.size() <= kLongest) return std::string(text);
    const auto continuation = [&](std::size_t i) { return (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80; };
    std::size_t head = kKept;
    while (head > 0 && continuation(head)) --head;
    std::size_t tail = text.size() - kKept;
    while (tail < text.size() && continuation(tail)) ++tail;
    return std::string(text.substr(0, head)) + "…" + std::string(text.substr(tail));
}

}  // namespace hindsight
