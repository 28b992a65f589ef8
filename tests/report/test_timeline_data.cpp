// The timeline windows for the page: where they are looked for beside a
// report, the checks of their text, and how the page embeds them
// (report/timeline_data.hpp).
#include <fstream>
#include <string>

#include <catch2/catch.hpp>

#include "common/error.hpp"
#include "report/page.hpp"
#include "report/timeline_data.hpp"
#include "tests/report/report_fixture.hpp"
#include "tests/support/scratch_dir.hpp"

using namespace hindsight;
using namespace hindsight::report;

namespace {

void write(const std::filesystem::path& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

// A region whose name would end the page's script if it were embedded as it is.
const std::string kDocument =
    R"({"schema": "hindsight-timeline", "version": 1, "ranks": 1, "patterns": {}, )"
    R"("paths": {"0": {"name": "</script><script>alert(1)</script>", "path": "main", "mpi": false}}, )"
    R"("communicators": {}, "windows": []})";

}  // namespace

TEST_CASE("the timeline windows are looked for beside the report, by its stem", "[report]") {
    CHECK(timeline_json_path("run/analysis.cubex") == "run/analysis.timeline.json");
    CHECK(timeline_json_path("a.b.cubex") == "a.b.timeline.json");
    testing::ScratchDir dir;
    CHECK_FALSE(find_timeline_json(dir.path() / "analysis.cubex"));
    // The communication structure beside it is not the timeline.
    write(dir.path() / "analysis.communication.json", R"({"schema": "hindsight-communication", "version": 1})");
    CHECK_FALSE(find_timeline_json(dir.path() / "analysis.cubex"));
    write(dir.path() / "analysis.timeline.json", kDocument);
    CHECK(find_timeline_json(dir.path() / "analysis.cubex") == kDocument);
}

TEST_CASE("a file that is not the timeline windows is refused with its name and problem", "[report]") {
    testing::ScratchDir dir;
    const auto path = dir.path() / "analysis.timeline.json";
    const auto refused = [&](const std::string& text, const std::string& problem) {
        write(path, text);
        try {
            find_timeline_json(dir.path() / "analysis.cubex");
            FAIL("accepted: " << text);
        } catch (const Error& e) {
            CHECK(e.file() == path.string());
            CHECK_THAT(e.problem(), Catch::Contains(problem));
        }
    };
    refused("", "not JSON: byte 0: unexpected end");
    refused(R"({"schema": "hindsight-timeline", "version": 1, "windows": [)", "not JSON: byte 59: unexpected end");
    refused(R"({"schema": "hindsight-communication", "version": 1})",
            "not a timeline file (schema 'hindsight-communication')");
    refused(R"(["hindsight-timeline", 1])", "not a timeline file (schema '')");
    refused(R"({"schema": "hindsight-timeline"})", "timeline file version , this page reads version 1");
    refused(R"({"schema": "hindsight-timeline", "version": 2})", "timeline file version 2, this page reads version 1");
    CHECK_THROWS_AS(read_timeline_json(dir.path() / "missing.timeline.json"), Error);
}

TEST_CASE("the page embeds the timeline windows compressed, so names cannot end its script", "[report]") {
    const cube::Report r = testing::tiny_report();
    const std::string without = page_html(r, "t");
    const std::string with = page_html(r, "t", {}, kDocument);
    CHECK(with.find("alert") == std::string::npos);
    CHECK(with.size() > without.size());
    // Without the windows their element is empty: the page shows no view.
    CHECK(without.find(R"(id="timeline-data"></script>)") != std::string::npos);
    CHECK(with.find(R"(id="timeline-data"></script>)") == std::string::npos);
    // The communication structure's element stays empty.
    CHECK(with.find(R"(id="communication-data"></script>)") != std::string::npos);
}
