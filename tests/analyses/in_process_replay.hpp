// A replay engine for tests: every rank of a trace replays in its own thread
// of one process, messages travel through shared mailboxes, collective
// channels meet at shared rendezvous points and the rounds' bulk exchanges
// at a shared one. It follows the contract of replay/engine.hpp (payloads
// laid out by replay/payload_frame.hpp, replies completed lazily as the MPI
// engine does, collective channels, rounds) without MPI, so that the
// analyses can be tested on exact scenarios.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "replay/engine.hpp"

namespace hindsight::testing {

class InProcessReplay {
public:
    // `traces[r]` is rank r's trace; they must outlive this object.
    explicit InProcessReplay(const std::vector<trace::LocalTrace>& traces);
    ~InProcessReplay();
    InProcessReplay(const InProcessReplay&) = delete;
    InProcessReplay& operator=(const InProcessReplay&) = delete;

    int size() const;
    // The engine of one rank; use it from that rank's thread only.
    replay::ReplayEngine& engine(int rank);

    // Runs body(rank) for every rank concurrently and waits for all; the
    // first exception of any rank is rethrown (the others are released
    // from their waits so that they end too).
    void run_ranks(const std::function<void(int rank)>& body);

    class Shared;  // mailboxes and rendezvous points of all ranks

private:
    std::unique_ptr<Shared> shared_;
    std::vector<std::unique_ptr<replay::ReplayEngine>> engines_;
};

}  // namespace hindsight::testing
