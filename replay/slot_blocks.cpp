#include "replay/slot_blocks.hpp"

#include <algorithm>
#include <utility>

namespace hindsight::replay {

std::uint32_t checked_u32(const trace::LocalTrace& trace, std::size_t bytes) {
    if (bytes > 0xffffffffu) throw Error(trace.anchor_path, "a replay pass exchanges more than 4 GiB with one rank");
    return static_cast<std::uint32_t>(bytes);
}

PayloadBlocks::PayloadBlocks(const trace::LocalTrace& trace, std::span<const std::uint32_t> slots)
    : trace_(trace), slots_(slots), blocks_(slots.size()) {}

void PayloadBlocks::add(int peer, std::uint32_t slot, std::span<const std::byte> payload) {
    const auto p = static_cast<std::size_t>(peer);
    ByteBlock& block = blocks_.at(p);
    const std::size_t count = slots_[p];
    if (slot >= count) throw Error(trace_.anchor_path, "a replay payload has no slot");
    const std::uint32_t size = checked_u32(trace_, payload.size());
    if (size == kPayloadTable) throw Error(trace_.anchor_path, "a replay payload of 4 GiB");
    if (block.empty()) {
        // The first payload sets the size; the block is laid out for all.
        block.resize(checked_u32(trace_, sizeof(std::uint32_t) + count * size));
        write_u32(block, 0, size);
    }
    const std::uint32_t layout = read_u32(block, 0);
    if (layout == size) {
        std::copy(payload.begin(), payload.end(), block.begin() + static_cast<std::ptrdiff_t>(sizeof(std::uint32_t) + std::size_t{slot} * size));
        return;
    }
    if (layout != kPayloadTable) to_table(p);
    const std::size_t entry = sizeof(std::uint32_t) + slot * kSlotEntry;
    write_u32(block, entry, checked_u32(trace_, block.size()));
    write_u32(block, entry + sizeof(std::uint32_t), size);
    checked_u32(trace_, block.size() + payload.size());
    block.insert(block.end(), payload.begin(), payload.end());
}

void PayloadBlocks::to_table(std::size_t peer) {
    ByteBlock& block = blocks_[peer];
    const std::size_t count = slots_[peer];
    const std::uint32_t size = read_u32(block, 0);
    // Every slot points into the uniform part, which moves behind the table
    // as it is; the slots packed later get their own entries then.
    const std::size_t base = sizeof(std::uint32_t) + count * kSlotEntry;
    ByteBlock table(base);
    table.reserve(checked_u32(trace_, base + (block.size() - sizeof(std::uint32_t))));
    write_u32(table, 0, kPayloadTable);
    for (std::size_t slot = 0; slot < count; ++slot) {
        const std::size_t entry = sizeof(std::uint32_t) + slot * kSlotEntry;
        write_u32(table, entry, static_cast<std::uint32_t>(base + slot * size));
        write_u32(table, entry + sizeof(std::uint32_t), size);
    }
    table.insert(table.end(), block.begin() + sizeof(std::uint32_t), block.end());
    block = std::move(table);
}

std::span<const std::byte> payload_at(const trace::LocalTrace& trace, std::span<const std::byte> block, std::uint32_t slot) {
    const auto malformed = [&] { return Error(trace.anchor_path, "a bulk payload block is malformed"); };
    if (block.size() < sizeof(std::uint32_t)) throw malformed();
    const std::uint32_t size = read_u32(block, 0);
    if (size != kPayloadTable) {
        const std::size_t offset = sizeof(std::uint32_t) + std::size_t{slot} * size;
        if (offset + size > block.size()) throw malformed();
        return block.subspan(offset, size);
    }
    const std::size_t entry = sizeof(std::uint32_t) + std::size_t{slot} * kSlotEntry;
    if (entry + kSlotEntry > block.size()) throw malformed();
    const std::size_t offset = read_u32(block, entry);
    const std::size_t length = read_u32(block, entry + sizeof(std::uint32_t));
    if (offset + length > block.size()) throw malformed();
    return block.subspan(offset, length);
}

void EntryBlocks::add(const trace::LocalTrace& trace, int peer, std::uint32_t slot, std::span<const std::byte> data) {
    auto& block = blocks_.at(static_cast<std::size_t>(peer));
    const std::size_t at = block.size();
    checked_u32(trace, at + kSlotEntry + data.size());
    block.resize(at + kSlotEntry);
    write_u32(block, at, slot);
    write_u32(block, at + sizeof(std::uint32_t), static_cast<std::uint32_t>(data.size()));
    block.insert(block.end(), data.begin(), data.end());
}

}  // namespace hindsight::replay
