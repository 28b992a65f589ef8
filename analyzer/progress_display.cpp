#include "analyzer/progress_display.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>

#include "analyzer/terminal.hpp"
#include "common/whole_line.hpp"

namespace hindsight::analyzer {
namespace {

constexpr const char* kPrefix = "hindsight-analyze: ";
// Returns the cursor to the line's start / clears the rest of the line.
constexpr const char* kLineStart = "\r";
constexpr const char* kClearToEnd = "\x1b[K";
// Keeps the status line within 80 columns: a wrapped line cannot be
// rewritten in place.
constexpr int kBarWidth = 16;

double seconds(ProgressDisplay::Clock::duration d) { return std::chrono::duration<double>(d).count(); }

std::string format_seconds(double s) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f s", s);
    return text;
}

}  // namespace

std::string time_left(double elapsed_seconds, double fraction_done) {
    if (elapsed_seconds < 1.0 || !(fraction_done > 0.0)) return "";
    const auto left = static_cast<long long>(std::lround(elapsed_seconds * (1.0 - std::min(fraction_done, 1.0)) /
                                                         fraction_done));
    char text[48];
    if (left >= 3600)
        std::snprintf(text, sizeof text, "%lld:%02lld:%02lld left", left / 3600, left / 60 % 60, left % 60);
    else
        std::snprintf(text, sizeof text, "%lld:%02lld left", left / 60, left % 60);
    return text;
}

std::string progress_bar(double fraction_done, int width) {
    const auto filled = static_cast<int>(std::clamp(fraction_done, 0.0, 1.0) * width);
    return "[" + std::string(static_cast<std::size_t>(filled), '#') +
           std::string(static_cast<std::size_t>(width - filled), ' ') + "]";
}

ProgressDisplay::Mode ProgressDisplay::mode_for(bool quiet) {
    if (quiet) return Mode::Silent;
    return stderr_reaches_terminal() ? Mode::Bar : Mode::Lines;
}

ProgressDisplay::ProgressDisplay(std::ostream& out, Mode mode, Clock::duration refresh)
    : out_(out), mode_(mode), refresh_(refresh) {}

ProgressDisplay::~ProgressDisplay() { interrupt(); }

void ProgressDisplay::phase(std::string_view name) {
    if (mode_ == Mode::Silent) return;
    end_phase();
    phase_ = name;
    phase_start_ = Clock::now();
    draw(phase_start_);
}

void ProgressDisplay::finish() {
    if (mode_ == Mode::Silent) return;
    end_phase();
}

void ProgressDisplay::interrupt() {
    if (!status_shown_) return;
    write_whole(out_, std::string(kLineStart) + kClearToEnd);
    status_shown_ = false;
}

void ProgressDisplay::end_phase() {
    if (phase_.empty()) return;
    const std::string line = kPrefix + phase_ + " " + format_seconds(seconds(Clock::now() - phase_start_)) +
                             (passes_.empty() ? "" : " (" + passes_.substr(2) + ")");
    write_whole(out_, mode_ == Mode::Bar ? kLineStart + line + kClearToEnd + '\n' : line + '\n');
    status_shown_ = false;
    phase_.clear();
    passes_.clear();
}

void ProgressDisplay::pass_begins(const char* name, std::uint64_t events) {
    pass_ = name;
    pass_start_ = Clock::now();
    pass_events_ = events;
    pass_done_ = 0;
    draw(pass_start_);
}

void ProgressDisplay::events_done(std::uint64_t done) {
    if (mode_ != Mode::Bar) return;
    const Clock::time_point now = Clock::now();
    if (now - drawn_ < refresh_) return;
    pass_done_ = done;
    draw(now);
}

void ProgressDisplay::pass_ends() {
    const Clock::time_point now = Clock::now();
    passes_ += std::string(", ") + pass_ + " " + format_seconds(seconds(now - pass_start_));
    pass_ = nullptr;
    draw(now);
}

void ProgressDisplay::draw(Clock::time_point now) {
    if (mode_ != Mode::Bar || phase_.empty()) return;
    drawn_ = now;
    std::string status = kPrefix + phase_;
    if (pass_ != nullptr) {
        const double fraction = pass_events_ > 0 ? static_cast<double>(pass_done_) / static_cast<double>(pass_events_) : 0.0;
        char percent[8];
        std::snprintf(percent, sizeof percent, "%3d%%", static_cast<int>(fraction * 100));
        status += std::string(" ") + pass_ + " " + percent + " " + progress_bar(fraction, kBarWidth);
        const std::string left = time_left(seconds(now - pass_start_), fraction);
        if (!left.empty()) status += " " + left;
    }
    write_whole(out_, kLineStart + status + kClearToEnd);
    status_shown_ = true;
}

}  // namespace hindsight::analyzer
