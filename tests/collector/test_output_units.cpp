// Unit tests of what the collector says about its output: whether a
// directory can take a trace (asked by the launcher and by rank 0) and the
// line about the written trace. Expected values are worked out by hand.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "collector/output_directory_check.hpp"
#include "collector/written_trace_line.hpp"
#include "tests/support/scratch_dir.hpp"

using namespace hindsight::collect;
namespace fs = std::filesystem;


TEST_CASE("a trace directory is checked without being changed", "[collector][output]") {
    hindsight::testing::ScratchDir scratch;
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
          old.string() + ": holds an incomplete trace (traces without traces.otf2, as a run that was interrupted "
                         "or crashed leaves it); use --force or HINDSIGHT_FORCE=1 to replace it");
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

TEST_CASE("a trace directory the file system cannot take is refused, not just missing", "[collector][output]") {
    hindsight::testing::ScratchDir scratch;
    const fs::path base = scratch.path();

    // A name longer than any file system allows (NAME_MAX is 255 on Linux),
    // below a directory that exists or one still to be made.
    const std::string long_name(300, 'n');
    for (const fs::path& dir : {base / long_name, base / "new" / long_name / "trace"}) {
        const std::string problem = check_output_directory(dir.string(), false);
        CHECK_THAT(problem, Catch::Contains("has 300 bytes, more than the 255 the file system allows"));
    }
    // A path too long for the archive's files below it: 17 names of 250
    // bytes make more than PATH_MAX (4096) alone.
    fs::path deep = base;
    for (int i = 0; i < 17; ++i) deep /= std::string(250, static_cast<char>('a' + i));
    const std::string deep_problem = check_output_directory(deep.string(), false);
    CHECK_THAT(deep_problem, Catch::Contains(": the path is too long ("));
    // The message shows the path shortened, its start and its end.
    CHECK(deep_problem.size() < 400);
    CHECK(deep_problem.starts_with(deep.string().substr(0, 70) + "…"));
    // The longest path that still leaves room for "/traces/2147483647.evt"
    // (22 bytes) and the terminating zero: 4096 - 23 = 4073 bytes.
    fs::path longest = base;
    while (longest.native().size() + 1 + 200 < 4073) longest /= std::string(200, 'p');
    const fs::path fits = longest / std::string(4073 - longest.native().size() - 1, 'q');
    REQUIRE(fits.native().size() == 4073);
    CHECK(check_output_directory(fits.string(), false).empty());
    CHECK_THAT(check_output_directory(fits.string() + "q", false), Catch::Contains("the path is too long (4074 bytes"));

    // A link leading nowhere, as the directory or above it: the library
    // could not create the directory through it.
    fs::create_symlink("nowhere/x", base / "dangling");
    CHECK(check_output_directory((base / "dangling").string(), false) ==
          (base / "dangling").string() + ": is a link that leads nowhere (to nowhere/x)");
    CHECK(check_output_directory((base / "dangling" / "trace").string(), false) ==
          (base / "dangling" / "trace").string() + ": " + (base / "dangling").string() +
              ": is a link that leads nowhere (to nowhere/x)");
    // A loop of links cannot be looked at at all.
    fs::create_symlink("loop", base / "loop");
    CHECK_THAT(check_output_directory((base / "loop").string(), false),
               Catch::Contains("Too many levels of symbolic links"));
    CHECK_THAT(check_output_directory((base / "loop" / "trace").string(), false),
               Catch::Contains("Too many levels of symbolic links"));
    // A link to a directory is that directory.
    fs::create_directory(base / "real");
    fs::create_directory_symlink("real", base / "link");
    CHECK(check_output_directory((base / "link").string(), false).empty());
    CHECK(check_output_directory((base / "link" / "new").string(), false).empty());
    // A trace file that is a link leading nowhere is still a trace's file.
    fs::create_symlink("gone", base / "real" / "traces.def");
    CHECK(existing_archive_part((base / "real").string()) == std::string("traces.def"));
}
