// The communication structure for the page: where it is looked for beside a
// report, the checks of its text, and how the page embeds it
// (report/communication_data.hpp, report/json_syntax.hpp).
#include <fstream>
#include <string>

#include <catch2/catch.hpp>

#include "common/error.hpp"
#include "report/communication_data.hpp"
#include "report/json_syntax.hpp"
#include "report/page.hpp"
#include "tests/report/report_fixture.hpp"
#include "tests/support/scratch_dir.hpp"

using namespace hindsight;
using namespace hindsight::report;

namespace {

void write(const std::filesystem::path& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

// A communicator whose name would end the page's script if it were embedded as it is.
const std::string kDocument =
    R"({"schema": "hindsight-communication", "version": 1, "communicators": [{"id": 0, )"
    R"("name": "</script><script>alert(1)</script>", "size": 2}], "ranks": 2, "rank_matrix": [[0, 1, 1, 1024, 0]]})";

std::size_t count(const std::string& text, const std::string& part) {
    std::size_t n = 0;
    for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
    return n;
}

}  // namespace

TEST_CASE("the communication structure is looked for beside the report, by its stem", "[report]") {
    CHECK(communication_json_path("run/analysis.cubex") == "run/analysis.communication.json");
    CHECK(communication_json_path("a.b.cubex") == "a.b.communication.json");
    testing::ScratchDir dir;
    CHECK_FALSE(find_communication_json(dir.path() / "analysis.cubex"));
    write(dir.path() / "analysis.communication.json", kDocument);
    CHECK(find_communication_json(dir.path() / "analysis.cubex") == kDocument);
}

TEST_CASE("a file that is not the communication structure is refused with its name and problem", "[report]") {
    testing::ScratchDir dir;
    const auto path = dir.path() / "analysis.communication.json";
    const auto refused = [&](const std::string& text, const std::string& problem) {
        write(path, text);
        try {
            read_communication_json(path);
            FAIL("accepted: " << text);
        } catch (const Error& e) {
            CHECK(e.file() == path.string());
            CHECK_THAT(e.problem(), Catch::Contains(problem));
        }
    };
    refused("", "not JSON: byte 0: unexpected end");
    refused(R"({"schema": "hindsight-communication", "version": 1)", "not JSON: byte 50: expected '}'");
    refused(R"({"schema": "hindsight-communication", "version": 1} x)", "more text after the value");
    refused(R"({"schema": "hindsight-communication", "version": 1, "name": "a)" "\n" R"("})", "control character");
    refused(R"({"schema": "cube", "version": 1})", "not a communication structure (schema 'cube')");
    refused(R"([1, 2])", "not a communication structure (schema '')");
    refused(R"({"schema": "hindsight-communication", "version": 2})", "version 2, this page reads version 1");
    refused(std::string(600, '[') + std::string(600, ']'), "nested too deeply");
    std::filesystem::create_directory(dir.path() / "directory.communication.json");
    CHECK_THROWS_AS(find_communication_json(dir.path() / "directory.cubex"), Error);
}

TEST_CASE("the JSON check accepts what RFC 8259 allows", "[report]") {
    for (const char* good : {"0", "-1.5e+3", "\"\\u00e9\\n\"", "[]", "{}", " [true, false, null, {\"a\": [1]}] "})
        CHECK_FALSE(json_syntax_problem(good));
    for (const char* bad : {"01x", "1.", "[1,]", "{\"a\" 1}", "\"\\x\"", "tru", "{,}"})
        CHECK(json_syntax_problem(bad));
    const JsonHeader header = json_header(R"({"a": {"schema": "inner"}, "version": 1, "schema": "outer"})");
    CHECK(header.schema == "outer");
    CHECK(header.version == "1");
}

TEST_CASE("the page embeds the communication structure compressed, so names cannot end its script", "[report]") {
    const cube::Report r = testing::tiny_report();
    const std::string without = page_html(r, "t");
    const std::string with = page_html(r, "t", kDocument);
    CHECK(count(with, "</script>") == 4);  // the template's own: three data, one code
    CHECK(with.find("alert") == std::string::npos);
    CHECK(with.size() > without.size());
    // Without the structure its element is empty: the page shows no view.
    CHECK(without.find(R"(id="communication-data"></script>)") != std::string::npos);
    CHECK(with.find(R"(id="communication-data"></script>)") == std::string::npos);
}
