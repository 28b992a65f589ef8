// Payload round trips and the dense id map.
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>

#include "common/error.hpp"
#include "replay/id_map.hpp"
#include "replay/payload.hpp"

using namespace hindsight::replay;

TEST_CASE("a payload reads back what was written, in order", "[payload]") {
    PayloadWriter w;
    w.put<std::int32_t>(-5);
    w.put<double>(2.5);
    const std::array<std::uint16_t, 3> values{1, 2, 65535};
    w.put_span<std::uint16_t>(values);
    w.put<char>('x');
    CHECK(w.bytes().size() == 4 + 8 + 8 + 3 * 2 + 1);

    PayloadReader r(w.bytes());
    CHECK(r.get<std::int32_t>() == -5);
    CHECK(r.get<double>() == 2.5);
    CHECK(r.get_vector<std::uint16_t>() == std::vector<std::uint16_t>{1, 2, 65535});
    CHECK(r.get<char>() == 'x');
    CHECK(r.empty());
    CHECK_THROWS_AS(r.get<std::uint8_t>(), hindsight::Error);
}

TEST_CASE("a payload that claims more than it holds is refused", "[payload]") {
    PayloadWriter w;
    w.put<std::uint64_t>(1000);  // a length prefix with nothing behind it
    PayloadReader r(w.bytes());
    CHECK_THROWS_AS(r.get_vector<double>(), hindsight::Error);
}

TEST_CASE("IdMap numbers ids densely, identity while ids are", "[ids]") {
    IdMap dense;
    CHECK(dense.add(0) == 0u);
    CHECK(dense.add(1) == 1u);
    CHECK(dense.find(1) == 1u);
    CHECK_FALSE(dense.find(2));
    CHECK_FALSE(dense.add(1));  // defined twice

    IdMap sparse;
    CHECK(sparse.add(0) == 0u);
    CHECK(sparse.add(10) == 1u);
    CHECK(sparse.add(7) == 2u);
    CHECK(sparse.find(0) == 0u);
    CHECK(sparse.find(10) == 1u);
    CHECK(sparse.find(7) == 2u);
    CHECK_FALSE(sparse.find(1));
    CHECK(sparse.size() == 3);
}
