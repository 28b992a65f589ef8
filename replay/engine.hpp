// The replay engine: the two ways analyses run on the ranks' traces.
//  - A pass walks one rank's events forward in time, calls the observers
//    for each (observer.hpp), and re-enacts the recorded communication so
//    that the observers' payloads and collective channel operations reach
//    the right peers.
//  - Rounds hand an analysis the bulk exchanges among all ranks
//    (exchange.hpp), for what it computes from the whole trace at once
//    rather than event by event (the critical path, the delay costs, the
//    activity graph's longest path).
// The MPI implementation (mpi_engine.hpp) is the one the analyzer uses; the
// interface keeps the analyses free of MPI.
#pragma once

#include <functional>
#include <span>

#include "replay/exchange.hpp"
#include "replay/observer.hpp"
#include "trace/message_slots.hpp"

namespace hindsight::replay {

class ReplayEngine {
public:
    virtual ~ReplayEngine() = default;
    // Runs one pass over the local trace with the observers, in their order
    // (that order decides how payload parts are laid out, the same on every
    // rank). All ranks must run the same passes with the same observer kinds,
    // which declare the same participation (observer.hpp). `name` says what
    // runs, as for run_rounds().
    virtual void run(const char* name, std::span<ReplayObserver* const> observers) = 0;

    // Calls rounds(exchange) once, with the exchange among all ranks. Every
    // rank must make the same calls in the same order. `name` says what runs,
    // for the progress shown and the statistics.
    virtual void run_rounds(const char* name, const std::function<void(Exchange&)>& rounds) = 0;

    // The slots by which the engine matches the trace's messages
    // (trace/message_slots.hpp), for analyses that name a message to its
    // peer in their own bulk exchanges.
    virtual const trace::MessageSlots& message_slots() const = 0;
};

}  // namespace hindsight::replay
