// The records of the critical path's hand-off search
// (analyses/critical_path/hand_off_records.hpp), through the exchange they
// travel by (replay/exchange_records.hpp): read back equal to what was
// written, and a block cut short is an error, not a record.
#include <catch2/catch.hpp>

#include <cstddef>
#include <vector>

#include "analyses/critical_path/hand_off_records.hpp"
#include "replay/exchange_records.hpp"

using namespace hindsight;
using namespace hindsight::analyses::hand_off_records;
using hindsight::replay::ByteBlocks;
using hindsight::replay::RecordLists;

namespace {

// One rank, which receives what it sends, less `cut` bytes at the end of
// every non-empty block.
class Loopback final : public replay::Exchange {
public:
    explicit Loopback(std::size_t cut = 0) : cut_(cut) {}
    int rank() const override { return 0; }
    int size() const override { return 1; }
    ByteBlocks all_to_all(const ByteBlocks& outgoing) override {
        count_round();
        ByteBlocks incoming = outgoing.empty() ? ByteBlocks(1) : outgoing;
        for (auto& block : incoming) block.resize(block.size() - std::min(cut_, block.size()));
        return incoming;
    }
    void sum(std::span<double>) override { count_round(); }
    bool any(bool value) override {
        count_round();
        return value;
    }
    replay::RankedValue max_loc(double value) override {
        count_round();
        return {value, 0};
    }

private:
    std::size_t cut_;
};

template <typename Record>
void check_round_trip(const std::vector<Record>& records) {
    Loopback exchange;
    const RecordLists<Record> sent{records};
    CHECK(replay::exchange_records(exchange, sent, "test") == sent);
}

template <typename Record>
void check_truncations(const std::vector<Record>& records) {
    for (std::size_t cut = 1; cut < sizeof(Record); ++cut) {
        INFO("the last " << cut << " bytes cut");
        Loopback exchange(cut);
        CHECK_THROWS_WITH(replay::exchange_records(exchange, RecordLists<Record>{records}, "test"),
                          Catch::Contains("not whole records"));
    }
}

}  // namespace

TEST_CASE("hand-off records: requests of every kind", "[critical-path][records]") {
    // Every field distinct, the time beyond 32 bits.
    const std::vector<Request> requests{
        {Kind::LateSender, 7, 0, 0, 1'000'000'000'123},
        {Kind::LateReceiver, 8, 0, 0, 42},
        {Kind::Collective, 3, 11, 0, 99},
    };
    // Four 32-bit fields and the time: nothing else travels.
    CHECK(sizeof(Request) == 4 * 4 + 8);
    check_round_trip(requests);
    check_truncations(requests);
}

TEST_CASE("hand-off records: requests for the path back", "[critical-path][records]") {
    const std::vector<PathBack> asking{{5}, {0}, {4'000'000'000u}};
    CHECK(sizeof(PathBack) == 4);
    check_round_trip(asking);
    check_truncations(asking);
}
