// Unit tests of what every tool's messages share: the failure that escapes
// a tool's work as one line, long inputs shortened, the yes/no variables.
#include <catch2/catch.hpp>

#include <cstdio>
#include <new>
#include <stdexcept>
#include <string>
#include <unistd.h>

#include "common/failure.hpp"
#include "common/shortened.hpp"
#include "common/yes_no.hpp"

using namespace hindsight;

namespace {

// What run_tool writes to stderr for `body`, and the status it returns.
template <typename Body>
std::pair<std::string, int> stderr_of(Body&& body) {
    std::fflush(stderr);
    const int saved = dup(fileno(stderr));
    std::FILE* capture = std::tmpfile();
    REQUIRE(capture != nullptr);
    dup2(fileno(capture), fileno(stderr));
    const int status = run_tool("tool", body, 7);
    std::fflush(stderr);
    dup2(saved, fileno(stderr));
    close(saved);
    std::rewind(capture);
    std::string text;
    for (int c; (c = std::fgetc(capture)) != EOF;) text += static_cast<char>(c);
    std::fclose(capture);
    return {text, status};
}

}  // namespace

TEST_CASE("whatever escapes a tool's work ends it with one line and a status", "[common][failure]") {
    CHECK(stderr_of([] { return 3; }) == std::pair<std::string, int>{"", 3});
    CHECK(stderr_of([]() -> int { throw std::runtime_error("x: broken"); }) ==
          std::pair<std::string, int>{"tool: x: broken\n", 7});
    CHECK(stderr_of([]() -> int { throw std::bad_alloc(); }) ==
          std::pair<std::string, int>{"tool: out of memory\n", 7});
    CHECK(stderr_of([]() -> int { throw 42; }) ==
          std::pair<std::string, int>{"tool: an unexpected failure (an exception of unknown type)\n", 7});
}

TEST_CASE("long inputs in messages keep their start and their end", "[common][shortened]") {
    CHECK(shortened("short/path") == "short/path");
    const std::string exact(160, 'a');
    CHECK(shortened(exact) == exact);
    const std::string path = "/scratch/" + std::string(4000, 'x') + "/trace";
    const std::string shown = shortened(path);
    // 70 bytes, "…" (3 bytes), 70 bytes.
    CHECK(shown == path.substr(0, 70) + "…" + path.substr(path.size() - 70));
    // A cut never falls inside a character: "é" is two bytes.
    std::string accents;
    for (int i = 0; i < 100; ++i) accents += "é";
    const std::string cut = shortened(accents);
    CHECK(cut == std::string(accents, 0, 70) + "…" + std::string(accents, 130));
    CHECK(shortened("a" + accents) == "a" + std::string(accents, 0, 68) + "…" + std::string(accents, 130));
}

TEST_CASE("yes/no variables: one list of words, empty is no setting", "[common][yes-no]") {
    for (const char* yes : {"1", "true", "YES", "On"}) CHECK(parse_yes_no(yes) == std::optional<bool>(true));
    for (const char* no : {"0", "False", "no", "OFF"}) CHECK(parse_yes_no(no) == std::optional<bool>(false));
    for (const char* other : {"", "2", "maybe", "yes "}) CHECK_FALSE(parse_yes_no(other).has_value());
    CHECK_FALSE(yes_no_variable("HINDSIGHT_X", nullptr, false));
    CHECK(yes_no_variable("HINDSIGHT_X", nullptr, true));
    CHECK_FALSE(yes_no_variable("HINDSIGHT_X", "", false));
    CHECK(yes_no_variable("HINDSIGHT_X", "", true));
    CHECK(yes_no_variable("HINDSIGHT_X", "yes", false));
    CHECK_FALSE(yes_no_variable("HINDSIGHT_X", "off", true));
    CHECK_THROWS_WITH(yes_no_variable("HINDSIGHT_X", "loud", false),
                      "HINDSIGHT_X: 'loud' is not a yes/no value (1/0, yes/no, true/false, on/off)");
}
