// Message slots: both sides of a message must get the same number without
// talking, so the numbering follows MPI's matching order (per peer and
// direction: by communicator, then tag, then order of occurrence).
#include <catch2/catch.hpp>

#include <tuple>
#include <vector>

#include "trace/message_slots.hpp"
#include "trace/trace_loader.hpp"
#include "tests/support/scratch_dir.hpp"
#include "tests/support/trace_builder.hpp"

using namespace hindsight;
using namespace hindsight::trace;
using hindsight::testing::ScratchDir;
using hindsight::testing::TraceBuilder;

namespace {

using SlotList = std::vector<std::pair<int, std::uint32_t>>;

// The slots of this rank's messages in stream order, as (peer, slot).
SlotList slots_in_order(const LocalTrace& trace, const MessageSlots& slots) {
    SlotList out;
    for (const Event& e : trace.events)
        if (e.kind == EventKind::Send || e.kind == EventKind::Recv) out.emplace_back(slots.peer(e.ref), slots.slot(e.ref));
    return out;
}

// The same whether the loader numbered them or a pass over the finished
// trace did.
SlotList slots_in_order(const LoadedTrace& loaded) {
    const SlotList numbered = slots_in_order(loaded.trace, loaded.slots);
    CHECK(slots_in_order(loaded.trace, MessageSlots(loaded.trace)) == numbered);
    return numbered;
}

}  // namespace

TEST_CASE("message slots number each peer's messages by communicator, tag and order", "[slots]") {
    // Rank 0 sends to ranks 1 and 2 on two tags of MPI_COMM_WORLD and on a
    // communicator of ranks {0, 2} (where rank 2 is rank 1), interleaved;
    // rank 2 receives its messages in another order of tags, as MPI allows.
    TraceBuilder t(3);
    const auto pair = t.communicator({0, 2}, t.world(), "pair");
    t.rank(0)
        .enter(0, "main")
        .send(10, 11, 2, 9, 8)           // to 2, world, tag 9: world slot 1 of 2's
        .send(12, 13, 1, 5, 8)           // to 1, world, tag 5: slot 0
        .send(14, 15, 1, 5, 8, pair)     // to 2 (pair rank 1), pair: slot 3 (comms after world)
        .send(16, 17, 2, 5, 8)           // to 2, world, tag 5: slot 0
        .send(18, 19, 2, 9, 8)           // to 2, world, tag 9, second: slot 2
        .leave(100);
    t.rank(1).enter(0, "main").recv(20, 30, 0, 5, 8).leave(100);
    t.rank(2)
        .enter(0, "main")
        .recv(20, 30, 0, 5, 8)
        .recv(31, 32, 0, 5, 8, pair)  // from pair rank 0, i.e. rank 0
        .recv(33, 34, 0, 9, 8)
        .recv(35, 36, 0, 9, 8)
        .leave(100);
    ScratchDir dir;
    t.write(dir.path());

    const LoadedTrace sender = load_local_trace(dir.anchor(), 0, 3);
    CHECK(slots_in_order(sender) == SlotList{{2, 1}, {1, 0}, {2, 3}, {2, 0}, {2, 2}});
    const MessageSlots sender_slots(sender.trace);
    CHECK(sender_slots.sends() == std::vector<std::uint32_t>{0, 1, 4});
    CHECK(sender_slots.receives() == std::vector<std::uint32_t>{0, 0, 0});

    // The receivers number the same messages alike.
    const LoadedTrace one = load_local_trace(dir.anchor(), 1, 3);
    CHECK(slots_in_order(one) == SlotList{{0, 0}});
    const LoadedTrace two = load_local_trace(dir.anchor(), 2, 3);
    CHECK(slots_in_order(two) == SlotList{{0, 0}, {0, 3}, {0, 1}, {0, 2}});
    CHECK(two.slots.receives() == std::vector<std::uint32_t>{4, 0, 0});

    // Sender and receivers agree on each stream's length and sizes: a
    // stream of one direction meets the peer's of the other. Rank 0's
    // streams to rank 2 are world tag 5, world tag 9 and the pair's tag 5,
    // at slots 0, 1-2 and 3.
    using Described = std::vector<std::tuple<CommId, std::uint32_t, std::uint32_t, std::uint32_t, std::uint64_t>>;
    const auto streams = [](const MessageSlots& slots, bool send, int peer) {
        Described out;
        for (const MessageSlots::Stream& s : slots.streams())
            if (s.send == send && s.peer == peer) out.emplace_back(s.comm, s.tag, s.first_slot, s.length, s.sizes);
        return out;
    };
    CHECK(streams(sender.slots, true, 1) == streams(one.slots, false, 0));
    CHECK(streams(sender.slots, true, 2) == streams(two.slots, false, 0));
    const Described to_two = streams(sender.slots, true, 2);
    REQUIRE(to_two.size() == 3);
    CHECK(std::get<1>(to_two[0]) == 5);
    CHECK(std::get<1>(to_two[1]) == 9);
    CHECK(std::get<1>(to_two[2]) == 5);
    CHECK(std::get<0>(to_two[2]) != std::get<0>(to_two[0]));
    CHECK(std::get<2>(to_two[1]) == 1);
    CHECK(std::get<3>(to_two[1]) == 2);
    CHECK(std::get<2>(to_two[2]) == 3);
    CHECK(streams(sender.slots, false, 1).empty());
    // Each message knows its stream.
    for (std::uint32_t m = 0; m < two.trace.messages.size(); ++m) {
        const MessageSlots::Stream& s = two.slots.streams()[two.slots.stream(m)];
        CHECK(two.slots.slot(m) >= s.first_slot);
        CHECK(two.slots.slot(m) < s.first_slot + s.length);
        CHECK(two.trace.messages[m].tag == s.tag);
    }

    // Each message knows its event.
    for (const LoadedTrace* loaded : {&sender, &two}) {
        const LocalTrace* trace = &loaded->trace;
        const MessageSlots& slots = loaded->slots;
        std::size_t messages = 0;
        for (EventIndex i = 0; i < trace->events.size(); ++i) {
            const Event& e = trace->events[i];
            if (e.kind != EventKind::Send && e.kind != EventKind::Recv) continue;
            CHECK(slots.event(e.ref) == i);
            ++messages;
        }
        CHECK(messages == trace->messages.size());
    }
}
