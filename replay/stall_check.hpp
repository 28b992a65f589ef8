// Whether every rank waits, or only some. A rank that has waited for the
// others for the whole timeout cannot tell alone a replay that can never
// go on (a trace whose messages or collectives do not fit together) from
// another rank that is busy: rank 0 writing the report of a trace with a
// million regions, a rank with ten times the events of the others. So
// before it gives up it asks every other rank, with a zero-byte message on
// a communicator of its own, whether it waits too, and for how long; a rank
// answers from its wait loop only, so one that is working answers nothing.
// Only when every rank answers that it has waited for the timeout as well
// is the run stuck: each rank was then waiting at the moment of the
// question, and none of them can wake the others. The rank that finds so
// tells the others, so that every rank gives up, not only the first.
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

#include <mpi.h>

#include "replay/mpi_handles.hpp"

namespace hindsight::replay {

class StallCheck {
public:
    using Clock = std::chrono::steady_clock;

    // Collective over `comm` (it is duplicated).
    explicit StallCheck(MPI_Comm comm);
    ~StallCheck();
    StallCheck(const StallCheck&) = delete;
    StallCheck& operator=(const StallCheck&) = delete;

    // Called from a wait loop: answers the questions that have come in,
    // telling whether this rank has waited for `timeout` by now, and takes
    // the answers to this rank's question.
    void serve(bool waited_for_timeout);

    enum class Verdict {
        Undecided,     // answers still missing
        OthersWork,    // some rank works, or has not been waiting as long
        EveryoneWaits  // the run is stuck
    };
    // Called once this rank has waited for `timeout`: asks the others
    // (unless a question is out already) and says what their answers tell
    // so far. A question that has gone unanswered for `timeout` means a
    // rank is working.
    Verdict ask(std::chrono::duration<double> timeout);
    // This rank's wait is over: answers to an open question no longer
    // matter (they arrive late and are ignored).
    void close_question() { open_ = false; }
    // Whether a rank (this one or another) found the run stuck.
    bool stuck() const { return stuck_; }

private:
    void send(int rank, int tag);

    mpi::Comm comm_;
    int rank_ = 0;
    int size_ = 1;
    // The question's number, in its tag and its answers' tags.
    std::uint32_t question_ = 0;
    bool open_ = false;
    Clock::time_point asked_at_{};
    int waiting_answers_ = 0;
    bool someone_works_ = false;
    bool stuck_ = false;
    std::vector<MPI_Request> sends_;  // zero-byte, so no buffers to keep
};

}  // namespace hindsight::replay
