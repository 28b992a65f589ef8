// Waiting without hanging. The analyzer never blocks in MPI: it tests its
// requests in a loop that yields the core between tests (analysis ranks may
// outnumber cores), sleeps between them once a wait lasts, and gives up
// when nothing has completed for `timeout`, naming what it waited for. An
// inconsistent trace or a rank that stopped then ends in a clear error
// rather than a hang. With detect_stalls(), a wait gives up only when every
// rank has waited that long (stall_check.hpp): a rank busy for longer than
// the timeout keeps the others waiting, not failing.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <memory>
#include <span>
#include <string>

#include <mpi.h>

#include "replay/stall_check.hpp"

namespace hindsight::replay {

// How long a wait may yield between tests before it sleeps: long enough to
// cover a peer's next step when every analysis rank has a core of its own,
// zero (a few yields only) when the ranks of this node outnumber the cores
// they may run on. Collective over `comm`.
std::chrono::microseconds spin_budget(MPI_Comm comm);

class ProgressWatch {
public:
    ProgressWatch(std::chrono::duration<double> timeout, std::chrono::microseconds spin_budget);

    // From now on, a wait that lasts the timeout asks the other ranks of
    // `comm` whether they wait too, and goes on while one of them works.
    // Collective over `comm`; every rank of it must call it.
    void detect_stalls(MPI_Comm comm);

    // Calls `done` until it returns true. Throws hindsight::Error with
    // "the analysis made no progress for N s: " + what() after the timeout.
    // `what` is called (returning a std::string) only to report a timeout.
    template <typename Done, typename What>
    void until(Done&& done, What&& what) {
        if (done()) return;  // the common case: no clock, no yield
        begin_wait();
        while (!done())
            if (pause()) stalled(what());
    }
    template <typename What>
    void wait(MPI_Request& request, What&& what, MPI_Status* status = MPI_STATUS_IGNORE) {
        until([&] {
            int flag = 0;
            MPI_Test(&request, &flag, status);
            return flag != 0;
        }, what);
    }
    template <typename What>
    void wait_all(std::span<MPI_Request> requests, What&& what) {
        until([&] {
            int all = 0;
            MPI_Testall(static_cast<int>(requests.size()), requests.data(), &all, MPI_STATUSES_IGNORE);
            return all != 0;
        }, what);
    }

    // MPI's blocking collectives busy-poll: when the analysis ranks outnumber
    // the cores, a rank spinning in MPI_Allreduce keeps its core from the
    // rank it waits for, and each collective costs a scheduler time slice.
    // So the phases around the replay start MPI's non-blocking operations,
    // `start(requests)` filling an std::array<MPI_Request, N>, and wait here
    // for all of them. Operations started together overlap their latencies.
    template <std::size_t N = 1, typename Start>
    void complete(const char* what, Start&& start) {
        std::array<MPI_Request, N> requests;
        requests.fill(MPI_REQUEST_NULL);
        start(requests);
        wait_all(requests, [what] { return std::string("waits for ") + what; });
    }

    std::chrono::duration<double> timeout() const { return timeout_; }

private:
    void begin_wait();
    bool pause();  // yields; true once the timeout has passed
    [[noreturn]] void stalled(const std::string& what) const;

    // Yields before a wait may sleep, whatever the budget (measured with the
    // batched engine beside heavy load: 4 to 16 were best).
    static constexpr unsigned kYields = 16;

    std::chrono::duration<double> timeout_;
    std::chrono::microseconds spin_budget_;
    std::chrono::steady_clock::time_point since_{};
    // When the current wait asks the others next (a timeout after its
    // beginning, or after the last answer that some rank works).
    std::chrono::steady_clock::duration check_at_{};
    unsigned yields_ = 0;
    std::unique_ptr<StallCheck> stalls_;  // null: give up after the timeout alone
};

}  // namespace hindsight::replay
