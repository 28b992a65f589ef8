// Waiting without hanging. The replay never blocks in MPI: it tests its
// requests in a loop that yields the core between tests (analysis ranks may
// outnumber cores) and gives up when nothing has completed for `timeout`,
// naming what it waited for. An inconsistent trace then ends in a clear
// error rather than a hang.
#pragma once

#include <chrono>
#include <string>

#include <mpi.h>

namespace hindsight::replay {

class ProgressWatch {
public:
    explicit ProgressWatch(std::chrono::duration<double> timeout);

    // Calls `done` until it returns true. Throws hindsight::Error with
    // "replay made no progress for N s: " + what() after the timeout.
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

    std::chrono::duration<double> timeout() const { return timeout_; }

private:
    void begin_wait();
    bool pause();  // yields; true once the timeout has passed
    [[noreturn]] void stalled(const std::string& what) const;

    std::chrono::duration<double> timeout_;
    std::chrono::steady_clock::time_point since_{};
    unsigned spins_ = 0;
};

}  // namespace hindsight::replay
