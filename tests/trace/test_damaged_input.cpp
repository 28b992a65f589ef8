// The loader on damaged traces: well-formed builder traces whose content a
// damaged id or a lost record made wrong, and the Score-P ping-pong trace
// with exact bytes changed. Each must end in an error naming the file and
// the problem, or in a warning (LoadStats::damage) naming the rank, what was
// damaged and what the analysis does with it; never in a silent result.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "trace/trace_loader.hpp"
#include "tests/support/scratch_dir.hpp"
#include "tests/support/trace_builder.hpp"

using namespace hindsight;
using namespace hindsight::trace;
using hindsight::testing::ScratchDir;
using hindsight::testing::TraceBuilder;

namespace {

// A copy in `dir` of the trace in `folder` of the test data; returns its
// anchor.
std::string test_data_copy(const ScratchDir& dir, const char* folder) {
    const char* data = std::getenv("HINDSIGHT_TESTDATA");
    REQUIRE(data != nullptr);
    const auto target = dir.path() / "trace";
    std::filesystem::copy(std::filesystem::path(data) / folder, target, std::filesystem::copy_options::recursive);
    return (target / "traces.otf2").string();
}

// A copy of the Score-P ping-pong trace in `dir`; returns its anchor.
std::string pingpong_copy(const ScratchDir& dir) { return test_data_copy(dir, "scorep-pingpong"); }

std::vector<unsigned char> read_bytes(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const std::filesystem::path& file, const std::vector<unsigned char>& bytes) {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

// The 8 bytes at `at` of `file`, a raw OTF2 timestamp (little-endian).
std::uint64_t read_u64(const std::filesystem::path& file, std::size_t at) {
    const auto bytes = read_bytes(file);
    REQUIRE(at + 8 <= bytes.size());
    std::uint64_t value = 0;
    for (int i = 7; i >= 0; --i) value = value << 8 | bytes[at + static_cast<std::size_t>(i)];
    return value;
}

void write_u64(const std::filesystem::path& file, std::size_t at, std::uint64_t value) {
    auto bytes = read_bytes(file);
    REQUIRE(at + 8 <= bytes.size());
    for (std::size_t i = 0; i < 8; ++i) bytes[at + i] = static_cast<unsigned char>(value >> (8 * i));
    write_bytes(file, bytes);
}

std::filesystem::path file_of(const std::string& anchor, const char* relative) {
    return std::filesystem::path(anchor).parent_path() / relative;
}

}  // namespace

TEST_CASE("a receive completing a request that was never posted is a warning", "[loader][damage]") {
    ScratchDir dir;
    TraceBuilder t(2);
    t.rank(0).enter(0, "main").send(50, 60, 1, 7, 64).leave(100);
    auto& r1 = t.rank(1);
    // The MPI_Irecv posts request 1; the MPI_Wait completes request 99 (a
    // damaged id): no posting call for the receive.
    r1.enter(0, "main").enter(10, "MPI_Irecv");
    (void)r1.irecv_request_event(10);
    r1.leave(12).enter(20, "MPI_Wait").irecv_event_raw_request(70, 99, 0, 7, 64).leave(70).leave(100);
    t.write(dir.path());
    const LoadedTrace loaded = load_local_trace(dir.anchor(), 1, 2);
    REQUIRE(loaded.stats.damage.size() == 1);
    const std::string& note = loaded.stats.damage[0];
    CHECK_THAT(note, Catch::StartsWith("rank 1: 1 MPI_IRECV completions of requests never posted"));
    CHECK_THAT(note, Catch::Contains("request 99 in 'MPI_Wait' at 7e-08 s"));
    CHECK_THAT(note, Catch::Contains("without Late Receiver waits"));
    // The message itself is kept: the receive is analyzed.
    CHECK(loaded.trace.messages.size() == 1);
    CHECK(loaded.trace.posted_receives.empty());
}

TEST_CASE("receives of a writer that records no requests at all are no damage", "[loader][damage]") {
    ScratchDir dir;
    TraceBuilder t(2);
    t.rank(0).enter(0, "main").send(50, 60, 1, 7, 64).leave(100);
    t.rank(1).enter(0, "main").enter(20, "MPI_Wait").irecv_event_raw_request(70, 5, 0, 7, 64).leave(70).leave(100);
    t.write(dir.path());
    CHECK(load_local_trace(dir.anchor(), 1, 2).stats.damage.empty());
}

TEST_CASE("a send completion of a request no MPI_ISEND started is a warning", "[loader][damage]") {
    ScratchDir dir;
    TraceBuilder t(2);
    auto& r0 = t.rank(0);
    r0.enter(0, "main").enter(50, "MPI_Isend");
    (void)r0.isend_event(50, 1, 7, 64);
    r0.leave(52).enter(55, "MPI_Wait").isend_complete_event_raw_request(60, 7).leave(60).leave(100);
    t.rank(1).enter(0, "main").recv(20, 70, 0, 7, 64).leave(100);
    t.write(dir.path());
    const LoadedTrace loaded = load_local_trace(dir.anchor(), 0, 2);
    REQUIRE(loaded.stats.damage.size() == 1);
    CHECK_THAT(loaded.stats.damage[0],
               Catch::StartsWith("rank 0: 1 MPI_ISEND_COMPLETE records of requests no MPI_ISEND started") &&
                   Catch::Contains("request 7 in 'MPI_Wait' at 6e-08 s"));
}

TEST_CASE("a collective begun but never ended is a warning, and no collective", "[loader][damage]") {
    ScratchDir dir;
    TraceBuilder t(2);
    for (int r = 0; r < 2; ++r) {
        // Rank 0 enters the barrier at 10, rank 1 at 20; the ends are lost.
        const Ticks enter = 10 * (r + 1);
        t.rank(r).enter(0, "main").enter(enter, "MPI_Barrier").collective_begin_event(enter).leave(50);
        t.rank(r).barrier(60, 70).leave(100);
    }
    t.write(dir.path());
    const LoadedTrace loaded = load_local_trace(dir.anchor(), 1, 2);
    REQUIRE(loaded.stats.damage.size() == 1);
    CHECK_THAT(loaded.stats.damage[0],
               Catch::StartsWith("rank 1: 1 MPI_COLLECTIVE_BEGIN records without their MPI_COLLECTIVE_END") &&
                   Catch::Contains("'MPI_Barrier' at 2e-08 s") && Catch::Contains("as no collective operation"));
    // The second barrier keeps its own begin, not the lost one's.
    REQUIRE(loaded.trace.collectives.size() == 1);
    CHECK(loaded.trace.collectives[0].begin == 60);
}

TEST_CASE("a small step back in time is raised and counted, a large one is an error", "[loader][damage][scorep]") {
    ScratchDir dir;
    const std::string anchor = pingpong_copy(dir);
    const auto events = file_of(anchor, "traces/1.evt");
    // Raw timestamps of location 1 (little-endian at these offsets of
    // 1.evt): the ENTER of the first MPI_Recv at 127, its MPI_RECV at 139,
    // 30046 ticks later. The clock has 2095197216 ticks per second, so the
    // jitter tolerance (10 us) is 20951 ticks.
    REQUIRE(read_u64(events, 127) == 7397467382769955);
    REQUIRE(read_u64(events, 139) == 7397467382800001);
    SECTION("954 ticks back: jitter") {
        write_u64(events, 139, 7397467382800001 - 31000);
        const LoadedTrace loaded = load_local_trace(anchor, 1, 2);
        CHECK(loaded.stats.timestamp_fixups == 1);
        CHECK(loaded.stats.damage.empty());
    }
    SECTION("one second back: broken") {
        write_u64(events, 139, 7397467382800001 - 2095197216);
        REQUIRE_THROWS_WITH(load_local_trace(anchor, 1, 2),
                            Catch::StartsWith(anchor + ": rank 1: record MPI_RECV (timestamp 7397465287602785, in "
                                                       "'MPI_Recv' at") &&
                                Catch::Contains("lies 0.99998") && Catch::Contains("the trace is broken"));
    }
}

TEST_CASE("a flipped bit in a clock offset is refused against the trace's own span", "[loader][damage][scorep]") {
    ScratchDir dir;
    const std::string anchor = pingpong_copy(dir);
    const auto definitions = file_of(anchor, "traces/1.def");
    auto bytes = read_bytes(definitions);
    // Byte 136 is the top byte of location 1's second offset, -19
    // (0xff...ed); bit 4 set off makes it -19 - 2^60, inside 2^61 ticks of
    // zero but 17 years off a trace of 0.2 s.
    REQUIRE(bytes.size() == 147);
    REQUIRE(bytes[136] == 0xff);
    bytes[136] ^= 0x10;
    write_bytes(definitions, bytes);
    REQUIRE_THROWS_WITH(load_local_trace(anchor, 1, 2),
                        Catch::StartsWith(definitions.string() + ": a clock offset of location 1 (" +
                                          std::to_string(-19 - (std::int64_t{1} << 60)) + " ticks") &&
                            Catch::Contains("outside its time span (global offset 7397466976977800, length 418210708"));
}

TEST_CASE("mapping tables that merge two ids or name undefined ones are refused", "[loader][damage][scorep]") {
    ScratchDir dir;
    const std::string anchor = pingpong_copy(dir);
    const auto definitions = file_of(anchor, "traces/1.def");
    auto bytes = read_bytes(definitions);
    // otf2-print -M: location 1 maps strings {257=>258, 258=>266, ...,
    // 264=>265} (sparse) and communicators [1,2,0] (dense).
    SECTION("two communicators merged") {
        // Bytes 85-88 zeroed: the table reads [0,0,...].
        std::memset(bytes.data() + 85, 0, 4);
        write_bytes(definitions, bytes);
        REQUIRE_THROWS_WITH(load_local_trace(anchor, 1, 2),
                            Catch::StartsWith(definitions.string() +
                                              ": the communicator mapping table maps local ids 0 and 1 both to "
                                              "communicator 0"));
    }
    SECTION("a string beyond the global definitions") {
        // Bytes 33-36 zeroed: a pair's encoding shifts, and a local id maps
        // to a global id far beyond the 533 global definitions.
        std::memset(bytes.data() + 33, 0, 4);
        write_bytes(definitions, bytes);
        REQUIRE_THROWS_WITH(load_local_trace(anchor, 1, 2),
                            Catch::StartsWith(definitions.string() + ": the string mapping table maps local"));
    }
}

TEST_CASE("a local definition file OTF2 cannot decode is named", "[loader][damage][scorep]") {
    ScratchDir dir;
    const std::string anchor = pingpong_copy(dir);
    const auto definitions = file_of(anchor, "traces/1.def");
    auto bytes = read_bytes(definitions);
    // Bytes 15-18 zeroed: OTF2 fails to read the records ("Load of next chunk failed").
    std::memset(bytes.data() + 15, 0, 4);
    write_bytes(definitions, bytes);
    REQUIRE_THROWS_WITH(load_local_trace(anchor, 1, 2),
                        Catch::StartsWith(definitions.string() + ": cannot read the local definitions of location 1"));
}

TEST_CASE("a mapping table whose length asks for terabytes is refused, naming the file", "[loader][damage][scorep]") {
    ScratchDir dir;
    const std::string anchor = pingpong_copy(dir);
    const auto definitions = file_of(anchor, "traces/1.def");
    auto bytes = read_bytes(definitions);
    // Bytes 81-84 reversed: the length of a mapping table of location 1
    // reads as 2^44 entries, which OTF2 cannot allocate (in the sanitized
    // build only with allocator_may_return_null, as meson's test setup sets).
    std::reverse(bytes.begin() + 81, bytes.begin() + 85);
    write_bytes(definitions, bytes);
    REQUIRE_THROWS_WITH(load_local_trace(anchor, 1, 2),
                        Catch::StartsWith(definitions.string() + ": cannot read the local definitions of location 1"));
}

TEST_CASE("a rank whose location the trace does not define is refused", "[loader][damage]") {
    // The hybrid trace our collector wrote (2 ranks x 2 threads): byte 582
    // of its global definitions is the id of rank 1's master location, 1;
    // xor 0x4d makes it 76, while the MPI group still names location 1 as
    // rank 1. Read as before, rank 1 lost its worker thread and its clock
    // definitions and its report came out wrong without a word.
    ScratchDir dir;
    const std::string anchor = test_data_copy(dir, "scalasca/hybrid-collected");
    const auto definitions = file_of(anchor, "traces.def");
    auto bytes = read_bytes(definitions);
    REQUIRE(bytes.size() > 582);
    REQUIRE(bytes[582] == 0x01);
    bytes[582] ^= 0x4d;
    write_bytes(definitions, bytes);
    for (int rank = 0; rank < 2; ++rank)
        REQUIRE_THROWS_WITH(load_local_trace(anchor, rank, 2),
                            anchor + ": MPI rank 1 is location 1, which the trace does not define");
}
