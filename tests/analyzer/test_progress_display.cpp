// The progress display's text: the bar, the time left, the status line on a
// terminal and the plain lines of a log.
#include <catch2/catch.hpp>

#include <chrono>
#include <regex>
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
    const std::regex expected(
        "hindsight-analyze: load \\d+\\.\\d\\d s\n"
        "hindsight-analyze: replay \\d+\\.\\d\\d s \\(forward pass \\d+\\.\\d\\d s, backward pass \\d+\\.\\d\\d s\\)\n"
        "hindsight-analyze: report \\d+\\.\\d\\d s\n");
    CHECK(std::regex_match(out.str(), expected));
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
    CHECK(std::regex_search(ended, std::regex("\rhindsight-analyze: replay \\d+\\.\\d\\d s \\(backward pass "
                                              "\\d+\\.\\d\\d s\\)\x1b\\[K\n$")));
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
