// The order in which a rank's analyses run, derived from what each one
// declares to read and to produce (the declarations are pipeline.cpp's), so
// that nobody keeps the order by hand and a new analysis only says what it
// needs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace hindsight::analyses {

// What an analysis leaves for later ones, or for the analyzer.
enum class Product : std::uint8_t {
    ExclusiveTimes,         // the profile's exclusive ticks by call path
    ForwardFacts,           // the forward pass's facts (forward_facts.hpp)
    CommunicationFindings,  // the profile per communicator and the rank's row of the matrix
    CriticalPathMetrics,    // the cube's critical-path metrics, its imbalance among them
    DelayCostMetrics,       // the cube's delay-cost metrics
    GraphFindings,          // the activity graph's longest path and what-ifs
    TimelineLanes,          // the rank's lanes of the timeline's windows
    ThreadMetrics,          // the worker threads' cubes, the OpenMP metrics of every thread
    RmaEpochMetrics,        // the cube's wait states of one-sided epochs (general active target, locks)
    RmaEpochWaits,          // those waits with the partners' calls that ended them (rma_waits.hpp)
    WorkerMpiMetrics,       // the counts and waits of what worker threads took part in outside the replay
};

struct StageDeclaration {
    std::string_view name;
    // What the stage cannot run without: an enabled stage must produce each.
    std::vector<Product> reads;
    // What the stage reads when an enabled stage produces it, and does
    // without otherwise.
    std::vector<Product> reads_if_produced;
    std::vector<Product> produces;
};

// The positions in `stages` (those that run) in the order to run them: each
// after the producers of what it reads; stages that do not depend on each
// other in the order given. Contradicting declarations are a programming
// error (std::logic_error naming the stage): a stage reading what no stage
// produces, a product of two stages, stages that read each other's products
// in a cycle.
std::vector<std::size_t> stage_order(std::span<const StageDeclaration> stages);

}  // namespace hindsight::analyses
