// The operations on the collective channels of a pass of trace data only,
// run together instead of one collective at a time (in the other passes:
// those of the observers at one collective event, completed there). At each
// collective event the engine starts the observers' tasks
// (collective_task.hpp); a channel operation they await is kept. Then, per communicator, the kept
// operations of the same kind (and reduction, and root) run as one
// non-blocking MPI call on their data laid end to end, and the tasks
// resume: each round completes one operation of every waiting task, so a
// task that awaits k operations one after another ends in k rounds.
// Thousands of collectives cost a few MPI calls per round instead of a few
// each.
//
// Every member of a communicator sees the same collectives on it in the
// same order, and at each the same observers await the same operations
// (the contract of collective_channel.hpp), so all members keep the same
// operations in the same order and issue the same calls. A communicator's rounds run when
// kMaxWaiting of its collectives wait (which bounds the memory of suspended
// tasks; all members reach that point at the same collective, where the
// traced program itself called a collective on it) and at the end of the
// pass, communicator by communicator in the order of their ids.
// Non-blocking operations stand where they complete, and two ranks may
// complete operations of two communicators in opposite orders: were both
// to reach a limit there, each would wait in the rounds of another
// communicator than the other (the progress watch ends such a replay). So
// the limit is higher where a non-blocking operation completes, and is
// reached there only by communicators that see nothing but non-blocking
// operations for thousands of them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <span>
#include <vector>

#include "replay/communicator_mirror.hpp"
#include "replay/pass_observers.hpp"
#include "replay/progress_watch.hpp"

namespace hindsight::replay {

class BatchedCollectives {
public:
    // A waiting collective holds its observers' suspended tasks, about
    // 800 bytes: 4096 of them are a few MB, and a trace of all-to-alls on 8
    // ranks takes 22 rounds instead of the 76 that 1024 took, which cost
    // scheduler hand-overs where ranks share cores.
    static constexpr std::size_t kMaxWaiting = 4096;
    static constexpr std::size_t kMaxWaitingNonBlocking = 4 * kMaxWaiting;

    // `mirror` and `watch` must outlive this object.
    BatchedCollectives(const CommunicatorMirror& mirror, ProgressWatch& watch);
    ~BatchedCollectives();
    BatchedCollectives(const BatchedCollectives&) = delete;
    BatchedCollectives& operator=(const BatchedCollectives&) = delete;

    // Starts the task of every observer of the collectives part at
    // collective event `view`.
    void add(const trace::EventView& view, std::span<const PassMember> observers);
    // Runs the rounds of every communicator until all tasks have ended.
    void finish();
    // How many rounds ran, over all communicators (statistics).
    std::uint64_t rounds() const { return rounds_; }

private:
    class Channel;     // the channel one collective's tasks await
    struct Pending;    // a collective event whose tasks have not all ended
    struct Waiting;    // an operation kept for the next round
    struct Batch;      // one communicator's waiting collectives
    Batch& batch(CommId comm);
    void run_rounds(Batch& batch);
    void run_round(Batch& batch);

    const CommunicatorMirror& mirror_;
    ProgressWatch& watch_;
    std::vector<std::unique_ptr<Batch>> batches_;  // by communicator
    std::uint64_t rounds_ = 0;
};

}  // namespace hindsight::replay
