// The layouts of the blocks a pass ships in bulk: payloads by slot (one
// size without a table, several with one) and sparse entries.
#include <catch2/catch.hpp>

#include <cstdint>
#include <map>
#include <vector>

#include "common/error.hpp"
#include "replay/slot_blocks.hpp"

using namespace hindsight::replay;
using namespace hindsight::trace;

namespace {

std::vector<std::byte> bytes_of(std::initializer_list<int> values) {
    std::vector<std::byte> out;
    for (int v : values) out.push_back(static_cast<std::byte>(v));
    return out;
}

std::vector<std::byte> copy(std::span<const std::byte> s) { return {s.begin(), s.end()}; }

}  // namespace

TEST_CASE("payload blocks: one size without a table, any slot order", "[blocks]") {
    LocalTrace trace;
    const std::vector<std::uint32_t> slots{3, 0};
    PayloadBlocks blocks(trace, slots);
    blocks.add(0, 2, bytes_of({7, 8}));
    blocks.add(0, 0, bytes_of({1, 2}));
    blocks.add(0, 1, bytes_of({4, 5}));
    const auto& block = blocks.blocks().at(0);
    CHECK(block.size() == 4 + 3 * 2);  // the size, then the payloads
    CHECK(blocks.blocks().at(1).empty());
    CHECK(copy(payload_at(trace, block, 0)) == bytes_of({1, 2}));
    CHECK(copy(payload_at(trace, block, 1)) == bytes_of({4, 5}));
    CHECK(copy(payload_at(trace, block, 2)) == bytes_of({7, 8}));
    CHECK_THROWS_AS(payload_at(trace, block, 3), hindsight::Error);
    CHECK_THROWS_AS(blocks.add(0, 3, bytes_of({1, 1})), hindsight::Error);
}

TEST_CASE("payload blocks: another size turns the block into a table", "[blocks]") {
    LocalTrace trace;
    const std::vector<std::uint32_t> slots{5};
    PayloadBlocks blocks(trace, slots);
    const std::map<std::uint32_t, std::vector<std::byte>> payloads{
        {3, bytes_of({30, 31})}, {0, bytes_of({0, 1})}, {4, bytes_of({40, 41, 42})},
        {1, bytes_of({10, 11})}, {2, bytes_of({})}};
    // Packed in this order: two of one size, one longer, then more.
    for (const std::uint32_t slot : {3u, 0u, 4u, 1u, 2u}) blocks.add(0, slot, payloads.at(slot));
    const auto& block = blocks.blocks().at(0);
    for (const auto& [slot, payload] : payloads) CHECK(copy(payload_at(trace, block, slot)) == payload);
}

TEST_CASE("payload blocks: a malformed block is an error, not a crash", "[blocks]") {
    LocalTrace trace;
    CHECK_THROWS_AS(payload_at(trace, bytes_of({1, 0}), 0), hindsight::Error);
    CHECK_THROWS_AS(payload_at(trace, bytes_of({2, 0, 0, 0, 9}), 0), hindsight::Error);
    // A table whose entry points beyond the block.
    CHECK_THROWS_AS(payload_at(trace, bytes_of({255, 255, 255, 255, 12, 0, 0, 0, 4, 0, 0, 0}), 0), hindsight::Error);
}

TEST_CASE("entry blocks: only the messages with data, read back in order", "[blocks]") {
    LocalTrace trace;
    EntryBlocks entries(2);
    entries.add(trace, 1, 9, bytes_of({1, 2, 3}));
    entries.add(trace, 1, 4, bytes_of({}));
    CHECK(entries.blocks().at(0).empty());
    std::vector<std::pair<std::uint32_t, std::vector<std::byte>>> seen;
    for_each_entry(trace, entries.blocks().at(1), [&](std::uint32_t slot, std::span<const std::byte> data) {
        seen.emplace_back(slot, copy(data));
    });
    REQUIRE(seen.size() == 2);
    CHECK(seen[0] == std::pair{9u, bytes_of({1, 2, 3})});
    CHECK(seen[1] == std::pair{4u, bytes_of({})});
    const auto truncated = bytes_of({9, 0, 0, 0, 3, 0, 0, 0, 1});
    CHECK_THROWS_AS(for_each_entry(trace, truncated, [](std::uint32_t, std::span<const std::byte>) {}),
                    hindsight::Error);
}
