// A replay pass: walks one rank's events forward or backward in time, calls
// the observers for each, and re-enacts the recorded communication so that
// the observers' payloads and collective channel operations reach the right peers.
// The MPI implementation (mpi_engine.hpp) is the one the analyzer uses; the
// interface keeps the analyses free of MPI.
#pragma once

#include <span>

#include "replay/observer.hpp"
#include "trace/message_slots.hpp"

namespace hindsight::replay {

class ReplayEngine {
public:
    virtual ~ReplayEngine() = default;
    // Runs one pass over the local trace with the observers, in their order
    // (that order decides how payload parts are laid out, the same on every
    // rank). All ranks must run the same passes with the same observer kinds,
    // which declare the same participation (observer.hpp).
    virtual void run(Direction direction, std::span<ReplayObserver* const> observers) = 0;

    // The slots by which the engine matches the trace's messages
    // (trace/message_slots.hpp), for observers that name a message to its
    // peer in their own bulk exchanges.
    virtual const trace::MessageSlots& message_slots() const = 0;
};

}  // namespace hindsight::replay
