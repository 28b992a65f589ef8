// What one rank keeps of its events in one timeline window: a lane of the
// timeline, with a lane of its own for each OpenMP worker thread. Ranks cut
// their lanes themselves (lane_cutter.hpp) and send them to rank 0 as bytes,
// written and read here side by side.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "analyses/patterns.hpp"
#include "common/byte_codec.hpp"
#include "common/call_tree.hpp"
#include "common/clock.hpp"
#include "common/definitions.hpp"

namespace hindsight::analyses {

// A visit of a call path, clipped to the lane; depth 0 is the outermost.
struct LaneBar {
    Ticks start = 0;
    Ticks end = 0;
    std::uint32_t depth = 0;
    CallPathId path = kNoCallPath;
};

// A send (peer: the receiver) or receive (peer: the sender); the n-th send
// of rank s to rank r is the receive of r from s with the same slot
// (trace/message_slots.hpp).
struct LaneMessage {
    Ticks time = 0;
    std::int32_t peer = -1;  // world rank
    std::uint32_t slot = 0;
};

// A collective call; the members of one operation name the same
// communicator and number (its count on that communicator).
struct LaneCollective {
    Ticks enter = 0;
    Ticks leave = 0;
    CommId comm = 0;
    std::uint32_t number = 0;
};

struct LaneWait {
    Ticks start = 0;
    Ticks end = 0;
    WaitPattern pattern = WaitPattern::None;
};

struct LaneInterval {
    Ticks from = 0;
    Ticks to = 0;
};

// An OpenMP worker thread's part of its rank's lane: its region visits.
// Outside parallel regions a worker has none (it idles); the rank's
// messages, collectives and waits are on the master's part.
struct ThreadLane {
    std::uint32_t thread = 0;  // the thread's number (1, 2, ...)
    Ticks from = 0;            // what the kept events cover, as Lane's
    Ticks to = 0;
    std::vector<LaneBar> bars;  // in order of their start
};

struct Lane {
    // What the kept events cover: the window, or less of it where the rank
    // had more events there than a lane may hold.
    Ticks from = 0;
    Ticks to = 0;
    std::vector<LaneBar> bars;  // in order of their start
    std::vector<LaneMessage> sends;
    std::vector<LaneMessage> receives;
    std::vector<LaneCollective> collectives;
    std::vector<LaneWait> waits;
    std::vector<LaneInterval> critical;  // where the critical path ran
    std::vector<ThreadLane> threads;     // the worker threads', in their order

    void write(ByteWriter& out) const {
        out.put(from);
        out.put(to);
        out.put_span<LaneBar>(bars);
        out.put_span<LaneMessage>(sends);
        out.put_span<LaneMessage>(receives);
        out.put_span<LaneCollective>(collectives);
        out.put_span<LaneWait>(waits);
        out.put_span<LaneInterval>(critical);
        out.put(static_cast<std::uint32_t>(threads.size()));
        for (const ThreadLane& t : threads) {
            out.put(t.thread);
            out.put(t.from);
            out.put(t.to);
            out.put_span<LaneBar>(t.bars);
        }
    }
    static Lane read(ByteReader& in) {
        Lane lane;
        lane.from = in.get<Ticks>();
        lane.to = in.get<Ticks>();
        lane.bars = in.get_vector<LaneBar>();
        lane.sends = in.get_vector<LaneMessage>();
        lane.receives = in.get_vector<LaneMessage>();
        lane.collectives = in.get_vector<LaneCollective>();
        lane.waits = in.get_vector<LaneWait>();
        lane.critical = in.get_vector<LaneInterval>();
        const auto threads = in.get<std::uint32_t>();
        for (std::uint32_t k = 0; k < threads; ++k) {
            ThreadLane t;
            t.thread = in.get<std::uint32_t>();
            t.from = in.get<Ticks>();
            t.to = in.get<Ticks>();
            t.bars = in.get_vector<LaneBar>();
            lane.threads.push_back(std::move(t));
        }
        return lane;
    }
};

}  // namespace hindsight::analyses
