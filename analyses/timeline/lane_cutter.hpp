// Cuts a rank's lane of a timeline window out of its events: the region
// visits (those open when the lane begins included), messages, collective
// calls and wait states there, and the stretches of the critical path; and
// each OpenMP worker thread's region visits. A lane (and each thread's part)
// holds at most a given number of events; where the window has more, the
// lane keeps those nearest the wait's start and says what it covers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "analyses/forward_facts.hpp"
#include "analyses/timeline/lane.hpp"
#include "analyses/timeline/timeline_windows.hpp"
#include "trace/local_trace.hpp"
#include "trace/message_slots.hpp"

namespace hindsight::analyses {

class LaneCutter {
public:
    // `critical`: where the critical path ran on this rank, in time order
    // (empty where it was not computed); `max_events`: the events the
    // rank's lane may hold (its threads' parts included). All must outlive
    // the cutter.
    LaneCutter(const trace::LocalTrace& trace, const ForwardFacts& facts, const trace::MessageSlots& slots,
               std::span<const LaneInterval> critical, std::size_t max_events);

    Lane cut(const TimelineWindow& window) const;

private:
    void open_bars(Lane& lane, trace::EventIndex next, std::vector<std::size_t>& open) const;
    ThreadLane cut_thread(std::uint32_t thread, const TimelineWindow& window) const;
    // The events a thread's part may hold: the rank's share of the window
    // divided among its threads.
    std::size_t per_thread() const;
    void add_event(Lane& lane, trace::EventIndex index, std::vector<std::size_t>& open) const;

    const trace::LocalTrace* trace_;
    const ForwardFacts* facts_;
    const trace::MessageSlots* slots_;
    std::span<const LaneInterval> critical_;
    std::size_t max_events_;
    std::vector<std::uint32_t> collective_number_;  // by collective: its count on its communicator
};

}  // namespace hindsight::analyses
