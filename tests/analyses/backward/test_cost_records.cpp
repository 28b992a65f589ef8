// The delay analysis's records (analyses/delay/cost_records.hpp): each one
// read back equals what was written, every shorter piece of it is an error
// of the reader, and the bytes are the layout the rounds have always sent.
#include <catch2/catch.hpp>

#include <cstddef>
#include <span>
#include <vector>

#include "analyses/delay/cost_records.hpp"

using namespace hindsight;
using namespace hindsight::analyses;
using namespace hindsight::analyses::cost_records;

namespace {

constexpr OperationId kOperation = 0x0102030405060708;

template <typename Body>
std::vector<std::byte> written(const Body& body) {
    ByteWriter out;
    write_record(out, kOperation, body);
    return out.take();
}

// Reads a record as DelayCostAnalysis::receive() does: the head, then the
// body its kind names.
template <typename Read>
Read read_record(std::span<const std::byte> bytes, Kind kind) {
    ByteReader in(bytes);
    const Head head = Head::read(in);
    CHECK(head.kind == kind);
    CHECK(head.operation == kOperation);
    Read body = Read::read(in);
    CHECK(in.empty());
    return body;
}

// Every piece shorter than the record is rejected, not read as something.
template <typename Read>
void check_truncations(const std::vector<std::byte>& bytes) {
    for (std::size_t n = 0; n < bytes.size(); ++n) {
        INFO("the first " << n << " of " << bytes.size() << " bytes");
        CHECK_THROWS_AS(
            [&] {
                ByteReader in(std::span<const std::byte>(bytes).first(n));
                Head::read(in);
                Read::read(in);
            }(),
            Error);
    }
}

// Costs in which only the patterns `p` hold a value: each distinct.
PatternCosts costs_at(std::initializer_list<std::size_t> patterns, double base) {
    PatternCosts costs{};
    for (const std::size_t p : patterns) costs.at(p) = base + static_cast<double>(p);
    return costs;
}

CostDivision division() {
    return {true, costs_at({0, 2}, 10.0), 2.5, 0.25, costs_at({1}, 20.0), {0.0, 1.5, 3.0}};
}

constexpr std::size_t kHead = 1 + 8;                      // kind, operation
constexpr std::size_t kProfileOf3 = 8 + 3 * 4 + 8 + 3 * 8;  // paths, values
constexpr std::size_t kDivision = 1 + (2 + 2 * 8) + 8 + 8 + (2 + 8) + (8 + 3 * 8);

}  // namespace

TEST_CASE("cost records: a claim is its head alone", "[delay][records]") {
    const auto bytes = written(Claim{});
    CHECK(bytes.size() == kHead);
    CHECK(read_record<Claim>(bytes, Kind::Claim) == Claim{});
    check_truncations<Claim>(bytes);
}

TEST_CASE("cost records: the delayer's interval in either kind", "[delay][records]") {
    const SparseProfile profile{{4, 7, 9}, {1.0, 2.0, 0.5}};
    SECTION("to a Late Receiver's sender") {
        const auto bytes = written(LateReceiverProfile<const SparseProfile&>{3.5, profile});
        CHECK(bytes.size() == kHead + 8 + kProfileOf3);
        CHECK(read_record<LateReceiverProfile<>>(bytes, Kind::LateReceiverProfile) ==
              LateReceiverProfile<>{3.5, profile});
        check_truncations<LateReceiverProfile<>>(bytes);
    }
    SECTION("to a collective's waiting member") {
        const auto bytes = written(CollectiveInterval<const SparseProfile&>{3.5, profile});
        CHECK(read_record<CollectiveInterval<>>(bytes, Kind::CollectiveInterval) ==
              CollectiveInterval<>{3.5, profile});
        check_truncations<CollectiveInterval<>>(bytes);
    }
}

TEST_CASE("cost records: a profile whose lengths differ is malformed", "[delay][records]") {
    // Written by hand: a body with 2 call paths and 1 value.
    ByteWriter out;
    Head{Kind::LateReceiverProfile, kOperation}.write(out);
    out.put<double>(1.0);
    out.put_span<CallPathId>(std::vector<CallPathId>{1, 2});
    out.put_span<double>(std::vector<double>{1.0});
    ByteReader in(out.bytes());
    Head::read(in);
    CHECK_THROWS_WITH(LateReceiverProfile<>::read(in), Catch::Contains("malformed profile"));
}

TEST_CASE("cost records: a Late Sender's costs", "[delay][records]") {
    const SparseProfile waiter{{1, 2, 3}, {0.5, 0.25, 4.0}};
    const PatternCosts long_cost = costs_at({1, 3}, 7.0);
    const auto bytes =
        written(CostsToDivide<const SparseProfile&>{CostPattern::LateSender, 6.0, long_cost, waiter});
    // The pattern's byte, the short-term cost, the mask and the two
    // non-zero long-term costs, the profile.
    CHECK(bytes.size() == kHead + 1 + 8 + (2 + 2 * 8) + kProfileOf3);
    CHECK(read_record<CostsToDivide<>>(bytes, Kind::CostsToDivide) ==
          CostsToDivide<>{CostPattern::LateSender, 6.0, long_cost, waiter});
    check_truncations<CostsToDivide<>>(bytes);
}

TEST_CASE("cost records: a one-sided epoch's wait names its pattern", "[delay][records]") {
    const auto bytes = written(
        CostsToDivide<const SparseProfile&>{CostPattern::RmaLockContention, 2.0, PatternCosts{}, SparseProfile{}});
    CHECK(read_record<CostsToDivide<>>(bytes, Kind::CostsToDivide).pattern == CostPattern::RmaLockContention);
    // A pattern beyond the known ones is a damaged record.
    std::vector<std::byte> damaged = bytes;
    damaged[kHead] = std::byte{0xff};
    ByteReader in(damaged);
    Head::read(in);
    CHECK_THROWS_WITH(CostsToDivide<>::read(in), Catch::Contains("unknown pattern"));
}

TEST_CASE("cost records: zero costs travel as their mask alone", "[delay][records]") {
    const auto bytes =
        written(CostsToDivide<const SparseProfile&>{CostPattern::LateSender, 1.0, PatternCosts{}, SparseProfile{}});
    CHECK(bytes.size() == kHead + 1 + 8 + 2 + 8 + 8);
    CHECK(std::to_integer<int>(bytes[kHead + 9]) == 0);
    CHECK(std::to_integer<int>(bytes[kHead + 10]) == 0);
    CHECK(read_record<CostsToDivide<>>(bytes, Kind::CostsToDivide) ==
          CostsToDivide<>{CostPattern::LateSender, 1.0, PatternCosts{}, SparseProfile{}});
}

TEST_CASE("cost records: a Late Sender's answer", "[delay][records]") {
    const auto bytes = written(IndirectAnswer{1.25});
    CHECK(bytes.size() == kHead + 8);
    CHECK(read_record<IndirectAnswer>(bytes, Kind::IndirectAnswer) == IndirectAnswer{1.25});
    check_truncations<IndirectAnswer>(bytes);
}

TEST_CASE("cost records: a Late Receiver's answer with and without a division", "[delay][records]") {
    SECTION("the sender recorded the wait") {
        const auto bytes = written(LateReceiverAnswer{division()});
        CHECK(bytes.size() == kHead + 1 + kDivision);
        CHECK(read_record<LateReceiverAnswer>(bytes, Kind::LateReceiverAnswer) == LateReceiverAnswer{division()});
        check_truncations<LateReceiverAnswer>(bytes);
    }
    SECTION("the sender recorded none") {
        const auto bytes = written(LateReceiverAnswer{});
        CHECK(bytes.size() == kHead + 1);
        CHECK(std::to_integer<int>(bytes[kHead]) == 0);
        CHECK(read_record<LateReceiverAnswer>(bytes, Kind::LateReceiverAnswer) == LateReceiverAnswer{});
        check_truncations<LateReceiverAnswer>(bytes);
    }
}

TEST_CASE("cost records: a collective's answer", "[delay][records]") {
    const auto bytes = written(CollectiveAnswer{division()});
    CHECK(bytes.size() == kHead + kDivision);
    const CollectiveAnswer back = read_record<CollectiveAnswer>(bytes, Kind::CollectiveAnswer);
    CHECK(back == CollectiveAnswer{division()});
    // The scales the delayer charges with are the waiting rank's.
    const CostScales scales = back.division.scales();
    CHECK(scales.explained);
    CHECK(scales.short_term == 0.25);
    CHECK(scales.long_term == costs_at({1}, 20.0));
    check_truncations<CollectiveAnswer>(bytes);
}

TEST_CASE("cost records: records follow each other in one block", "[delay][records]") {
    // What one round carries to a rank: several records back to back, read
    // in turn until the block is empty.
    ByteWriter out;
    write_record(out, 1, Claim{});
    write_record(out, 2, IndirectAnswer{0.5});
    write_record(out, 3, CollectiveAnswer{division()});
    ByteReader in(out.bytes());
    CHECK(Head::read(in) == Head{Kind::Claim, 1});
    CHECK(Head::read(in) == Head{Kind::IndirectAnswer, 2});
    CHECK(IndirectAnswer::read(in) == IndirectAnswer{0.5});
    CHECK(Head::read(in) == Head{Kind::CollectiveAnswer, 3});
    CHECK(CollectiveAnswer::read(in) == CollectiveAnswer{division()});
    CHECK(in.empty());
}
