// Notes by rank as the blocks of an all-to-all (replay/exchange.hpp), and
// back: how an analysis hands fixed-size records to the ranks they concern
// in one bulk exchange.
#pragma once

#include <cstring>
#include <span>
#include <type_traits>
#include <vector>

#include "replay/exchange.hpp"

namespace hindsight::analyses {

template <typename Note>
    requires std::is_trivially_copyable_v<Note>
replay::ByteBlocks as_blocks(const std::vector<std::vector<Note>>& notes) {
    replay::ByteBlocks blocks(notes.size());
    for (std::size_t r = 0; r < notes.size(); ++r) {
        const auto bytes = std::as_bytes(std::span(notes[r]));
        blocks[r].assign(bytes.begin(), bytes.end());
    }
    return blocks;
}

template <typename Note>
    requires std::is_trivially_copyable_v<Note>
std::vector<Note> from_block(const std::vector<std::byte>& block) {
    std::vector<Note> notes(block.size() / sizeof(Note));
    if (!notes.empty()) std::memcpy(static_cast<void*>(notes.data()), block.data(), notes.size() * sizeof(Note));
    return notes;
}

}  // namespace hindsight::analyses
