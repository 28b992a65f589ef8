// What hindsight-analyze shows of its progress, on rank 0's standard error
// (standard output keeps the summary alone, also when redirected).
//  - On a terminal (Mode::Bar): a status line rewritten in place, at most
//    four times a second: the phase, and in the replay the pass with a bar
//    and the time left; each phase that ends leaves its line of Mode::Lines.
//  - In a log (Mode::Lines): one plain line per phase when it ends, with its
//    time, e.g. "hindsight-analyze: load 0.52 s"; the replay's line adds
//    its passes' times.
// The replay's progress is rank 0's own position in each pass. Rank 0 sees
// it for free, and in the passes that take long (message by message) it
// cannot run far ahead of the others: each of its receives and collectives
// waits for the ranks it depends on. Asking the others for their positions
// would cost communication in the middle of the replay.
#pragma once

#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>

#include "replay/pass_progress.hpp"

namespace hindsight::analyzer {

class ProgressDisplay final : public replay::PassProgress {
public:
    enum class Mode { Silent, Lines, Bar };
    using Clock = std::chrono::steady_clock;

    // Bar on a terminal, Lines otherwise, Silent when `quiet`.
    static Mode mode_for(bool quiet);

    // `refresh`: the shortest time between two redraws of the status line.
    ProgressDisplay(std::ostream& out, Mode mode,
                    Clock::duration refresh = std::chrono::milliseconds(250));
    ~ProgressDisplay() override;  // clears a status line left behind
    ProgressDisplay(const ProgressDisplay&) = delete;
    ProgressDisplay& operator=(const ProgressDisplay&) = delete;

    bool silent() const { return mode_ == Mode::Silent; }
    // Ends the current phase (its line) and begins `name`.
    void phase(std::string_view name);
    // Ends the last phase.
    void finish();
    // Clears the status line, so that an error message starts on a line of
    // its own.
    void interrupt();

    void pass_begins(const char* name, std::uint64_t events) override;
    void events_done(std::uint64_t done) override;
    void pass_ends() override;

private:
    void draw(Clock::time_point now);
    void end_phase();

    std::ostream& out_;
    Mode mode_;
    Clock::duration refresh_;
    bool status_shown_ = false;  // a status line without its newline is on the terminal
    Clock::time_point drawn_{};

    std::string phase_;  // empty: none running
    Clock::time_point phase_start_{};
    std::string passes_;  // ", forward pass 0.41 s" for the phase's line

    const char* pass_ = nullptr;  // the pass running, or null
    Clock::time_point pass_start_{};
    std::uint64_t pass_events_ = 0;
    std::uint64_t pass_done_ = 0;
};

// "0:41 left", "1:02:03 left"; empty while nothing can be estimated (less
// than a second or no event behind).
std::string time_left(double elapsed_seconds, double fraction_done);
// "[#########           ]", `width` characters inside the brackets.
std::string progress_bar(double fraction_done, int width);

}  // namespace hindsight::analyzer
