// The layouts of the blocks a pass ships in bulk (block_all_to_all.hpp), all
// built on the message slots (message_slots.hpp) both sides agree on:
//  - a payload block, with a payload for every slot of the pass. Mostly
//    the payloads have one size S (the analyses write the same fields at
//    every message), and the block is a uint32 S followed by the payloads
//    in slot order. Otherwise it is the uint32 kPayloadTable, per slot the
//    payload's offset and size (two uint32), then the payloads.
//  - an entry block: for some messages only, one entry each: slot and size
//    as two uint32, then the data (notes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "common/error.hpp"
#include "replay/block_all_to_all.hpp"
#include "trace/local_trace.hpp"

namespace hindsight::replay {

inline constexpr std::size_t kSlotEntry = 2 * sizeof(std::uint32_t);

inline std::uint32_t read_u32(std::span<const std::byte> bytes, std::size_t at) {
    std::uint32_t v = 0;
    std::memcpy(&v, bytes.data() + at, sizeof v);
    return v;
}

inline void write_u32(ByteBlock& bytes, std::size_t at, std::uint32_t v) {
    std::memcpy(bytes.data() + at, &v, sizeof v);
}

// `bytes` as a block offset or size; `trace` names the file should a block
// outgrow 32 bits.
std::uint32_t checked_u32(const trace::LocalTrace& trace, std::size_t bytes);

inline constexpr std::uint32_t kPayloadTable = 0xffffffffu;

// Outgoing payload blocks, one per peer; payloads come in any slot order.
class PayloadBlocks {
public:
    // `trace` names the file in errors; slots[p]: the number of slots with
    // peer p.
    PayloadBlocks(const trace::LocalTrace& trace, std::span<const std::uint32_t> slots);

    void add(int peer, std::uint32_t slot, std::span<const std::byte> payload);
    const std::vector<ByteBlock>& blocks() const { return blocks_; }

private:
    // The first payload of another size: the uniform layout becomes a table.
    void to_table(std::size_t peer);

    const trace::LocalTrace& trace_;
    std::span<const std::uint32_t> slots_;
    std::vector<ByteBlock> blocks_;
};

// The payload at `slot` of a received payload block; a malformed block is
// an error naming `trace`'s file.
std::span<const std::byte> payload_at(const trace::LocalTrace& trace, std::span<const std::byte> block, std::uint32_t slot);

// Outgoing entry blocks, one per peer.
class EntryBlocks {
public:
    explicit EntryBlocks(std::size_t peers = 0) : blocks_(peers) {}

    void add(const trace::LocalTrace& trace, int peer, std::uint32_t slot, std::span<const std::byte> data);
    const std::vector<ByteBlock>& blocks() const { return blocks_; }

private:
    std::vector<ByteBlock> blocks_;
};

// Calls visit(slot, data) for every entry of a received entry block, in
// block order; a malformed block is an error naming `trace`'s file.
template <typename Visit>
void for_each_entry(const trace::LocalTrace& trace, std::span<const std::byte> block, Visit visit) {
    for (std::size_t at = 0; at < block.size();) {
        if (at + kSlotEntry > block.size()) throw Error(trace.anchor_path, "a bulk entry block is malformed");
        const std::uint32_t slot = read_u32(block, at);
        const std::size_t size = read_u32(block, at + sizeof(std::uint32_t));
        at += kSlotEntry;
        if (at + size > block.size()) throw Error(trace.anchor_path, "a bulk entry block is malformed");
        visit(slot, block.subspan(at, size));
        at += size;
    }
}

}  // namespace hindsight::replay
