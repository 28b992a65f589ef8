// Payload round trips, the payload frame that the observers of a pass
// share, and the dense id map.
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "common/error.hpp"
#include "trace/id_map.hpp"
#include "replay/payload.hpp"
#include "replay/payload_frame.hpp"

using namespace hindsight::replay;
using namespace hindsight::trace;

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

TEST_CASE("a writer grows past its buffer and starts afresh after take() and a move", "[payload]") {
    PayloadWriter w;
    // 10,000 values: the buffer grows many times, and every value survives.
    for (std::uint32_t k = 0; k < 10000; ++k) w.put(k);
    REQUIRE(w.size() == 40000);
    {
        PayloadReader r(w.bytes());
        for (std::uint32_t k = 0; k < 10000; ++k) REQUIRE(r.get<std::uint32_t>() == k);
    }
    const std::vector<std::byte> taken = w.take();
    CHECK(taken.size() == 40000);
    CHECK(w.size() == 0);
    w.put<std::uint16_t>(7);
    CHECK(w.size() == 2);

    PayloadWriter moved(std::move(w));
    CHECK(moved.size() == 2);
    CHECK(w.size() == 0);  // NOLINT(bugprone-use-after-move): a moved-from writer is empty and usable
    w.put<std::uint64_t>(9);
    PayloadReader again(w.bytes());
    CHECK(again.get<std::uint64_t>() == 9);
    CHECK(again.empty());
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

namespace {

// Writes its number (and, as note, ten times it) where told to; records
// what it reads.
class PartObserver final : public ReplayObserver {
public:
    PartObserver(std::int32_t id, bool writes, bool notes) : id_(id), writes_(writes), notes_(notes) {}
    std::vector<std::int32_t> read;
    int empty = 0;

    Participation participation() const override {
        return {.payloads = Payloads::FromPass, .replies = true, .notes = notes_};
    }
    void pack(const EventView&, PayloadWriter& w) override {
        if (writes_) w.put(id_);
    }
    void unpack(const EventView&, PayloadReader& r) override { take(r); }
    bool needs_reply(const EventView&) const override { return writes_; }
    void pack_reply(const EventView&, PayloadWriter& w) override { w.put(id_); }
    void unpack_reply(const EventView&, PayloadReader& r) override { take(r); }
    void write_note(const EventView&, PayloadWriter& w) override {
        if (writes_) w.put(10 * id_);
    }
    void read_note(const EventView&, PayloadReader& r) override { take(r); }

private:
    void take(PayloadReader& r) {
        if (r.empty())
            ++empty;
        else
            read.push_back(r.get<std::int32_t>());
    }
    std::int32_t id_;
    bool writes_, notes_;
};

}  // namespace

TEST_CASE("payload frame: each observer reads its own part, or an empty reader", "[payload][frame]") {
    LocalTrace trace;
    const EventView view(trace, 0);  // the observers above never look at it
    PartObserver writer(1, true, true), silent(2, false, true), other(3, true, false);
    std::array<ReplayObserver*, 3> observers{&writer, &silent, &other};
    const PassObservers pass(trace, observers);
    const PayloadFrame frame(trace, pass);
    PayloadWriter out;

    frame.pack_trace_data(view, out);
    frame.unpack_trace_data(view, out.bytes());
    CHECK(writer.read == std::vector<std::int32_t>{1});
    CHECK(silent.empty == 1);
    CHECK(other.read == std::vector<std::int32_t>{3});

    const ObserverMask asked = frame.pack(view, out);
    CHECK(asked == (observer_bit(0) | observer_bit(2)));
    CHECK(frame.unpack(view, out.bytes()) == asked);
    frame.pack_reply(view, asked, out);
    frame.unpack_reply(view, asked, out.bytes());
    CHECK(writer.read == std::vector<std::int32_t>{1, 1, 1});
    // A reply holding a part of an observer that did not ask is refused.
    CHECK_THROWS_AS(frame.unpack_reply(view, observer_bit(0), out.bytes()), hindsight::Error);

    // Notes: only the note writers, and only those that wrote get read_note().
    REQUIRE(frame.write_note(view, out));
    frame.read_note(view, out.bytes());
    CHECK(writer.read.back() == 10);
    CHECK(silent.read.empty());
    CHECK(other.read == std::vector<std::int32_t>{3, 3, 3});

    // A payload with bytes nobody reads is refused.
    frame.pack_trace_data(view, out);
    out.put<std::int32_t>(99);
    CHECK_THROWS_AS(frame.unpack_trace_data(view, out.bytes()), hindsight::Error);
}

TEST_CASE("payload frame: a message without notes writes none", "[payload][frame]") {
    LocalTrace trace;
    const EventView view(trace, 0);
    PartObserver silent(2, false, true), no_notes(3, true, false);
    std::array<ReplayObserver*, 2> observers{&silent, &no_notes};
    const PassObservers pass(trace, observers);
    const PayloadFrame frame(trace, pass);
    CHECK(frame.writes_notes());
    PayloadWriter out;
    CHECK_FALSE(frame.write_note(view, out));
    CHECK(out.bytes().empty());

    std::array<ReplayObserver*, 1> none{&no_notes};
    const PassObservers without_notes(trace, none);
    CHECK_FALSE(PayloadFrame(trace, without_notes).writes_notes());
}
