// Unit tests of what the collector says about its output: whether a
// directory can take a trace (asked by the launcher and by rank 0) and the
// line about the written trace. Expected values are worked out by hand.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "collector/output_directory_check.hpp"
#include "collector/written_trace_line.hpp"

using namespace hindsight::collect;
namespace fs = std::filesystem;

namespace {

// A fresh directory, removed with everything in it at the end of the test.
class ScratchDirectory {
public:
    ScratchDirectory() {
        std::string pattern = (fs::temp_directory_path() / "hindsight-output-test.XXXXXX").string();
        REQUIRE(mkdtemp(pattern.data()) != nullptr);
        path_ = pattern;
    }
    ~ScratchDirectory() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    ScratchDirectory(const ScratchDirectory&) = delete;
    ScratchDirectory& operator=(const ScratchDirectory&) = delete;
    const fs::path& path() const { return path_; }

private:
    fs::path path_;
};

}  // namespace

TEST_CASE("a trace directory is checked without being changed", "[collector][output]") {
    ScratchDirectory scratch;
    const std::string missing = (scratch.path() / "a" / "b").string();
    CHECK(check_output_directory(missing, false).empty());
    CHECK_FALSE(fs::exists(scratch.path() / "a"));  // only looked at

    std::ofstream(scratch.path() / "file").put('x');
    const std::string below_file = (scratch.path() / "file" / "trace").string();
    CHECK(check_output_directory(below_file, false) ==
          below_file + ": cannot create the directory: " + (scratch.path() / "file").string() + " is not a directory");
    CHECK(check_output_directory((scratch.path() / "file").string(), true).ends_with(": is not a directory"));

    // Only the archive's own names count as a trace; an aborted run leaves traces/.
    const fs::path old = scratch.path() / "old";
    fs::create_directories(old / "traces");
    std::ofstream(old / "notes.txt").put('x');
    CHECK(existing_archive_part(old.string()) == std::string("traces"));
    CHECK(check_output_directory(old.string(), false) ==
          old.string() + ": holds a trace already (traces); use --force or HINDSIGHT_FORCE=1 to replace it");
    CHECK(check_output_directory(old.string(), true).empty());
    CHECK(fs::exists(old / "traces"));
    CHECK(existing_archive_part(scratch.path().string()) == nullptr);
}

TEST_CASE("the written trace's amounts are short and readable", "[collector][output]") {
    CHECK(event_count_text(0) == "0");
    CHECK(event_count_text(999) == "999");
    CHECK(event_count_text(1234) == "1.2 k");
    CHECK(event_count_text(34567) == "35 k");
    CHECK(event_count_text(1'200'000) == "1.2 M");
    CHECK(event_count_text(999'700) == "1.0 M");  // rounding carries into the next unit
    CHECK(byte_size_text(812) == "812 bytes");
    CHECK(byte_size_text(1536) == "1.5 KiB");
    CHECK(byte_size_text(34ull << 20) == "34 MiB");
    CHECK(byte_size_text(3ull << 30) == "3.0 GiB");
    CHECK(written_trace_line(1'200'000, 34ull << 20, 64, "/scratch/run/traces.otf2") ==
          "wrote 1.2 M events (34 MiB) of 64 ranks to /scratch/run/traces.otf2");
    CHECK(written_trace_line(56, 1600, 1, "t/traces.otf2") == "wrote 56 events (1.6 KiB) of 1 rank to t/traces.otf2");
}
