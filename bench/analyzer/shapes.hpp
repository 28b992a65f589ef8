// The communication patterns generate_trace writes, one iteration of one
// rank at a time. Every iteration of every shape begins with the compute
// region; what follows it differs.
#pragma once

#include <cstdint>
#include <string_view>

#include "bench/analyzer/synthetic_events.hpp"

namespace hindsight::bench {

// One iteration of one rank. It owns the ticks [base, base + body) of its
// shape on every rank, so that each iteration's receives end after their
// sends began (no clock-condition violations).
struct Step {
    int rank = 0;
    int ranks = 1;
    std::uint64_t iteration = 0;
    OTF2_TimeStamp base = 0;
    unsigned wait_percent = 0;
    // How many back-to-back calls the compute region is split into: the ranks
    // that communicate less in an iteration (the ends of a pipeline) write
    // more calls, so that every rank ends near the requested event count.
    std::uint64_t work_calls = 1;
    // The pairs shape: the share of iterations whose messages the receiver
    // never receives (a trace of which part does not pair up).
    unsigned unmatched_percent = 0;
};

struct Shape {
    const char* name;
    // Ticks one iteration takes before the allreduce that may follow it.
    OTF2_TimeStamp (*body)(int ranks);
    void (*write)(Events& events, const Step& step);
};

// nullptr for an unknown name.
const Shape* find_shape(std::string_view name);
// The names, separated by '|', for the usage line.
const char* shape_names();

}  // namespace hindsight::bench
