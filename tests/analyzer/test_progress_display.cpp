// The progress display's text: the bar, the time left, the status line on a
// terminal and the plain lines of a log.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <sstream>
#include <streambuf>
#include <vector>
#include <string>

#include "analyzer/progress_display.hpp"

using hindsight::analyzer::ProgressDisplay;
using hindsight::analyzer::progress_bar;
using hindsight::analyzer::time_left;

namespace {

// Each write the stream passes on, one string each: std::cerr is
// unbuffered, so these are the writes a launcher that merges the ranks'
// output streams sees.
class WriteLog : public std::streambuf {
public:
    std::vector<std::string> writes;

protected:
    std::streamsize xsputn(const char* text, std::streamsize n) override {
        writes.emplace_back(text, static_cast<std::size_t>(n));
        return n;
    }
    int_type overflow(int_type c) override {
        if (c != traits_type::eof()) writes.emplace_back(1, traits_type::to_char_type(c));
        return c;
    }
};

// `text` with every time the display prints (digits, a point, two digits)
// replaced by "T", for comparing lines whose times vary from run to run.
std::string with_times_masked(const std::string& text) {
    const auto digit = [&](std::size_t i) { return i < text.size() && text[i] >= '0' && text[i] <= '9'; };
    std::string masked;
    for (std::size_t i = 0; i < text.size();) {
        std::size_t end = i;
        while (digit(end)) ++end;
        if (end > i && end < text.size() && text[end] == '.' && digit(end + 1) && digit(end + 2) && !digit(end + 3)) {
            masked += 'T';
            i = end + 3;
        } else if (end > i) {
            masked.append(text, i, end - i);
            i = end;
        } else {
            masked += text[i++];
        }
    }
    return masked;
}

bool has_control_characters(const std::string& text) {
    for (const char c : text)
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n') return true;
    return false;
}

}  // namespace

TEST_CASE("the bar fills in proportion, within its width") {
    CHECK(progress_bar(0.0, 4) == "[    ]");
    CHECK(progress_bar(0.5, 4) == "[##  ]");
    CHECK(progress_bar(0.99, 4) == "[### ]");
    CHECK(progress_bar(1.0, 4) == "[####]");
    CHECK(progress_bar(1.5, 4) == "[####]");
}

TEST_CASE("the time left extrapolates the pass's rate so far") {
    CHECK(time_left(10.0, 0.5) == "0:10 left");
    CHECK(time_left(30.0, 0.25) == "1:30 left");
    CHECK(time_left(1800.0, 0.25) == "1:30:00 left");
    // Nothing to estimate from yet.
    CHECK(time_left(0.5, 0.5).empty());
    CHECK(time_left(10.0, 0.0).empty());
}

TEST_CASE("every line, and every redraw of the status line, is one write") {
    for (const auto mode : {ProgressDisplay::Mode::Lines, ProgressDisplay::Mode::Bar}) {
        WriteLog log;
        std::ostream out(&log);
        {
            ProgressDisplay display(out, mode, std::chrono::seconds(0));
            display.phase("load");
            display.phase("replay");
            display.pass_begins("forward pass", 100);
            display.events_done(50);
            display.pass_ends();
            display.phase("report");
            display.finish();
        }
        REQUIRE(log.writes.size() >= 3);
        for (const std::string& write : log.writes) {
            INFO(write);
            if (mode == ProgressDisplay::Mode::Lines) {
                CHECK(write.find('\n') == write.size() - 1);  // a whole line, and only one
            } else {
                CHECK(write.front() == '\r');  // a whole redraw of the status line
            }
        }
    }
}

TEST_CASE("in a log, each phase is one plain line with its time; the replay's names its passes") {
    std::ostringstream out;
    {
        ProgressDisplay display(out, ProgressDisplay::Mode::Lines);
        display.phase("load");
        display.phase("replay");
        display.pass_begins("forward pass", 100000);
        display.events_done(50000);
        display.pass_ends();
        display.pass_begins("backward pass", 100000);
        display.pass_ends();
        display.phase("report");
        display.finish();
    }
    CHECK(with_times_masked(out.str()) ==
          "hindsight-analyze: load T s\n"
          "hindsight-analyze: replay T s (forward pass T s, backward pass T s)\n"
          "hindsight-analyze: report T s\n");
    CHECK_FALSE(has_control_characters(out.str()));
}

TEST_CASE("on a terminal, the status line shows the pass's share done and is rewritten in place") {
    std::ostringstream out;
    ProgressDisplay display(out, ProgressDisplay::Mode::Bar, std::chrono::nanoseconds(0));
    display.phase("replay");
    display.pass_begins("backward pass", 8192);
    display.events_done(4096);
    const std::string shown = out.str();
    CHECK(shown.find("\rhindsight-analyze: replay backward pass   0% [                ]\x1b[K") != std::string::npos);
    CHECK(shown.find("\rhindsight-analyze: replay backward pass  50% [########        ]\x1b[K") != std::string::npos);
    // A status line stays within 80 columns, the longest time left included.
    CHECK(std::string("hindsight-analyze: replay backward pass 100% [################] 99:59:59 left").size() < 80);

    display.pass_ends();
    display.finish();
    const std::string ended = out.str().substr(shown.size());
    const std::string last = "\rhindsight-analyze: replay T s (backward pass T s)\x1b[K\n";
    const std::string masked = with_times_masked(ended);
    CHECK(masked.size() >= last.size());
    CHECK(masked.substr(masked.size() - std::min(masked.size(), last.size())) == last);
}

TEST_CASE("on a terminal, redraws wait for the refresh interval") {
    std::ostringstream out;
    ProgressDisplay display(out, ProgressDisplay::Mode::Bar, std::chrono::hours(1));
    display.phase("replay");
    display.pass_begins("forward pass", 8192);
    const std::string before = out.str();
    display.events_done(4096);
    CHECK(out.str() == before);
}

TEST_CASE("an interrupted status line is cleared, so that an error starts a line of its own") {
    std::ostringstream out;
    ProgressDisplay display(out, ProgressDisplay::Mode::Bar);
    display.phase("load");
    display.interrupt();
    CHECK(out.str() == "\rhindsight-analyze: load\x1b[K\r\x1b[K");
    display.interrupt();  // nothing left to clear
    CHECK(out.str() == "\rhindsight-analyze: load\x1b[K\r\x1b[K");
}

TEST_CASE("a silent display writes nothing") {
    std::ostringstream out;
    ProgressDisplay display(out, ProgressDisplay::Mode::Silent);
    display.phase("load");
    display.phase("replay");
    display.pass_begins("forward pass", 10);
    display.pass_ends();
    display.finish();
    CHECK(out.str().empty());
}
