// Unit tests of the collector's pure pieces: configuration, filter files,
// Score-P's collective byte rules, the bounded chunk pool and the
// unification of local definitions. Expected values are worked out by hand.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <string>

#include "collector/chunk_pool.hpp"
#include "collector/collective_bytes.hpp"
#include "collector/config.hpp"
#include "collector/definition_unification.hpp"
#include "collector/openmp_runtime.hpp"
#include "collector/region_filter.hpp"
#include "collector/rma_registry.hpp"
#include "collector/timer.hpp"
#include "common/error.hpp"
#include "tests/support/scratch_dir.hpp"

using namespace hindsight::collect;
using hindsight::Error;

TEST_CASE("sizes are parsed with binary units", "[collector][config]") {
    CHECK(parse_size("64M", "x") == 64ull << 20);
    CHECK(parse_size("512k", "x") == 512ull << 10);
    CHECK(parse_size("1GiB", "x") == 1ull << 30);
    CHECK(parse_size("2MB", "x") == 2ull << 20);
    CHECK(parse_size("1048576", "x") == 1048576);
    CHECK_THROWS_AS(parse_size("12X", "x"), Error);
    CHECK_THROWS_AS(parse_size("M", "x"), Error);
    CHECK_THROWS_WITH(parse_size("-1", "HINDSIGHT_BUFFER_SIZE"), Catch::Contains("HINDSIGHT_BUFFER_SIZE"));
}

TEST_CASE("the configuration comes from HINDSIGHT_* variables", "[collector][config]") {
    std::map<std::string, std::string> env;
    auto lookup = [&](const char* name) -> const char* {
        const auto it = env.find(name);
        return it == env.end() ? nullptr : it->second.c_str();
    };
    Config defaults = read_config(lookup);
    CHECK(defaults.trace_dir.empty());
    CHECK_FALSE(defaults.force);
    CHECK(defaults.buffer_bytes == 64ull << 20);
    CHECK_FALSE(defaults.verbose);
    CHECK_FALSE(defaults.quiet);

    env = {{"HINDSIGHT_TRACE_DIR", "out"}, {"HINDSIGHT_FORCE", "yes"}, {"HINDSIGHT_BUFFER_SIZE", "8M"},
           {"HINDSIGHT_FILTER", "f.txt"}, {"HINDSIGHT_VERBOSE", "0"}, {"HINDSIGHT_QUIET", "on"}};
    Config c = read_config(lookup);
    CHECK(c.trace_dir == "out");
    CHECK(c.force);
    CHECK(c.buffer_bytes == 8ull << 20);
    CHECK(c.filter_file == "f.txt");
    CHECK_FALSE(c.verbose);
    CHECK(c.quiet);

    // Set to the empty string (a shell's `NAME=`): no setting, the default;
    // for the yes/no variables off.
    env = {{"HINDSIGHT_TRACE_DIR", ""}, {"HINDSIGHT_FORCE", ""}, {"HINDSIGHT_BUFFER_SIZE", ""},
           {"HINDSIGHT_FILTER", ""}, {"HINDSIGHT_VERBOSE", ""}, {"HINDSIGHT_QUIET", ""}, {"HINDSIGHT_TIMER", ""}};
    Config empty = read_config(lookup);
    CHECK(empty.trace_dir.empty());
    CHECK_FALSE(empty.force);
    CHECK(empty.buffer_bytes == 64ull << 20);
    CHECK(empty.filter_file.empty());
    CHECK_FALSE(empty.verbose);
    CHECK_FALSE(empty.quiet);
    CHECK_FALSE(empty.monotonic_timer);
    env = {{"HINDSIGHT_VERBOSE", "loud"}};
    CHECK_THROWS_WITH(read_config(lookup), Catch::Contains("HINDSIGHT_VERBOSE: 'loud' is not a yes/no value"));
    // The launcher's --timer has no "no setting": an empty value is refused.
    CHECK_THROWS_WITH(parse_timer("", "--timer"), "--timer: '' is not a timer (auto or monotonic)");

    env = {{"HINDSIGHT_BUFFER_SIZE", "100K"}};
    CHECK_THROWS_WITH(read_config(lookup), Catch::Contains("too small"));
    env = {{"HINDSIGHT_FORCE", "maybe"}};
    CHECK_THROWS_WITH(read_config(lookup), Catch::Contains("HINDSIGHT_FORCE"));
    CHECK(default_trace_dir("/path/to/app", 4) == "hindsight-app-4");

    CHECK_FALSE(defaults.monotonic_timer);
    env = {{"HINDSIGHT_TIMER", "Monotonic"}};
    CHECK(read_config(lookup).monotonic_timer);
    env = {{"HINDSIGHT_TIMER", "auto"}};
    CHECK_FALSE(read_config(lookup).monotonic_timer);
    env = {{"HINDSIGHT_TIMER", "tsc-please"}};
    CHECK_THROWS_WITH(read_config(lookup), Catch::Contains("HINDSIGHT_TIMER") && Catch::Contains("tsc-please"));
}

TEST_CASE("the timer's rate comes from two samples against CLOCK_MONOTONIC", "[collector][timer]") {
    // 2.5 GHz: 5e9 ticks in 2 s.
    CHECK(ticks_per_second(TimerSource::Tsc, {1'000, 7'000'000'000}, {5'000'001'000, 9'000'000'000}) ==
          2'500'000'000u);
    // Rounded to the nearest tick per second: 3 ticks in 2 ns -> 1.5e9.
    CHECK(ticks_per_second(TimerSource::Tsc, {10, 100}, {13, 102}) == 1'500'000'000u);
    // CLOCK_MONOTONIC counts nanoseconds, whatever the samples say.
    CHECK(ticks_per_second(TimerSource::Monotonic, {0, 0}, {5, 7}) == 1'000'000'000u);
    // Samples that cannot give a rate (no time passed) do not divide by zero.
    CHECK(ticks_per_second(TimerSource::Tsc, {10, 100}, {20, 100}) == 1'000'000'000u);

    Timer::select(true);
    CHECK(Timer::source() == TimerSource::Monotonic);
    const TimerSample s = Timer::sample();
    CHECK(s.ticks == s.ns);
    Timer::select(false);
    CHECK((Timer::source() == TimerSource::Tsc) == tsc_usable());
    const TimerSample a = Timer::sample();
    const TimerSample b = Timer::sample();
    CHECK(b.ticks >= a.ticks);
    CHECK(b.ns >= a.ns);
}

TEST_CASE("filter rules apply in order, the last match wins", "[collector][filter]") {
    const RegionFilter f = RegionFilter::parse(
        "# keep only the main work\n"
        "SCOREP_REGION_NAMES_BEGIN\n"
        "  EXCLUDE *\n"
        "  INCLUDE main work*\n"
        "          solve_?  # continued\n"
        "  EXCLUDE work_tiny\n"
        "SCOREP_REGION_NAMES_END\n",
        "f.filter");
    CHECK(f.rule_count() == 3);
    CHECK(f.included("main"));
    CHECK(f.included("work"));
    CHECK(f.included("work_big"));
    CHECK(f.included("solve_x"));
    CHECK_FALSE(f.included("solve_xy"));
    CHECK_FALSE(f.included("work_tiny"));
    CHECK_FALSE(f.included("helper"));
    CHECK(RegionFilter().included("anything"));
}

TEST_CASE("Score-P filter files with file-name blocks and MANGLED rules", "[collector][filter]") {
    // As Score-P documents it: file rules and region rules each decide in
    // their own order; a region is left out when either excludes it.
    const RegionFilter f = RegionFilter::parse(
        "SCOREP_FILE_NAMES_BEGIN # comment after a keyword\n"
        "  EXCLUDE */third_party/*\n"
        "  INCLUDE */third_party/keep.c\n"
        "SCOREP_FILE_NAMES_END\n"
        "SCOREP_REGION_NAMES_BEGIN\n"
        "  EXCLUDE MANGLED _ZN6detail*\n"
        "  INCLUDE detail::keep\n"
        "SCOREP_REGION_NAMES_END\n",
        "scorep.filter");
    CHECK(f.rule_count() == 4);
    CHECK_FALSE(f.included("solve", "solve", "/src/third_party/lib.c"));
    CHECK(f.included("solve", "solve", "/src/third_party/keep.c"));
    CHECK(f.included("solve", "solve", "/src/app/solve.c"));
    CHECK(f.included("solve"));  // no file known: file rules decide nothing
    CHECK_FALSE(f.included("detail::helper()", "_ZN6detail6helperEv"));
    CHECK(f.included("detail::keep", "_ZN6detail4keepEv"));  // a later name rule overrides
    // Without a mangled name (user regions) MANGLED rules match the name itself.
    CHECK(f.included("detail::helper()"));
    CHECK_FALSE(f.included("_ZN6detail6helperEv"));
}

TEST_CASE("malformed filter files name the file and line", "[collector][filter]") {
    CHECK_THROWS_WITH(RegionFilter::parse("EXCLUDE *\n", "a.filter"), Catch::Contains("a.filter: line 1"));
    CHECK_THROWS_WITH(RegionFilter::parse("SCOREP_REGION_NAMES_BEGIN\n  foo\n", "b.filter"),
                      Catch::Contains("line 2"));
    CHECK_THROWS_WITH(RegionFilter::parse("SCOREP_REGION_NAMES_BEGIN\nEXCLUDE *\n", "c.filter"),
                      Catch::Contains("missing SCOREP_REGION_NAMES_END"));
    CHECK_THROWS_WITH(RegionFilter::parse("", "d.filter"), Catch::Contains("no SCOREP_REGION_NAMES_BEGIN"));
    CHECK_THROWS_WITH(RegionFilter::parse("SCOREP_FILE_NAMES_BEGIN\nEXCLUDE *\nSCOREP_REGION_NAMES_END\n", "e.filter"),
                      Catch::Contains("e.filter: line 3"));
    CHECK_THROWS_WITH(RegionFilter::parse("SCOREP_FILE_NAMES_BEGIN\nEXCLUDE MANGLED *\nSCOREP_FILE_NAMES_END\n",
                                          "f.filter"),
                      Catch::Contains("f.filter: line 2"));
    CHECK_THROWS_WITH(RegionFilter::parse("SCOREP_REGION_NAMES_BEGIN\nEXCLUDE x MANGLED y\nSCOREP_REGION_NAMES_END\n",
                                          "g.filter"),
                      Catch::Contains("g.filter: line 2"));
    CHECK_THROWS_AS(RegionFilter::load("/nonexistent/filter"), Error);
}

TEST_CASE("a filter file is a regular file, read without waiting", "[collector][filter]") {
    hindsight::testing::ScratchDir scratch;
    const std::string dir = scratch.path().string();
    CHECK_THROWS_WITH(RegionFilter::load(dir), dir + ": is a directory");
    // Opened for reading as a FIFO is, it would wait for a writer forever.
    const std::string fifo = dir + "/fifo";
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    CHECK_THROWS_WITH(RegionFilter::load(fifo), fifo + ": is not a regular file");
    CHECK_THROWS_WITH(RegionFilter::load("/dev/null"), "/dev/null: is not a regular file");
    CHECK_THROWS_WITH(RegionFilter::load(dir + "/missing"), dir + "/missing: cannot read: No such file or directory");
    // A file beyond 1 MiB is not a list of rules.
    const std::string large = dir + "/large.filter";
    std::ofstream(large) << "SCOREP_REGION_NAMES_BEGIN\n" << std::string(1 << 20, '#') << "\nSCOREP_REGION_NAMES_END\n";
    CHECK_THROWS_WITH(RegionFilter::load(large), Catch::Contains("more than a filter file can have (1 MiB)"));
    const std::string good = dir + "/good.filter";
    std::ofstream(good) << "SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE tiny*\nSCOREP_REGION_NAMES_END\n";
    const RegionFilter filter = RegionFilter::load(good);
    CHECK_FALSE(filter.included("tiny_helper"));
    CHECK(filter.included("solve"));
}

TEST_CASE("collective bytes follow Score-P's rules", "[collector][bytes]") {
    using namespace rules;
    // Bcast of 40 bytes on 4 ranks from root 1.
    CHECK(one_to_all(1, 4, 1, 40, false) == CollectiveBytes{160, 40});
    CHECK(one_to_all(0, 4, 1, 40, false) == CollectiveBytes{0, 40});
    // Reduce/Gather of 24 bytes to root 2.
    CHECK(all_to_one(2, 4, 2, 24, false) == CollectiveBytes{24, 96});
    CHECK(all_to_one(2, 4, 2, 24, true) == CollectiveBytes{0, 72});
    CHECK(all_to_one(3, 4, 2, 24, false) == CollectiveBytes{24, 0});
    // Gatherv with blocks 4, 8, 12, 16 to root 0.
    const std::uint64_t blocks[] = {4, 8, 12, 16};
    CHECK(all_to_one_varying(0, 0, blocks, 0, false) == CollectiveBytes{4, 40});
    CHECK(all_to_one_varying(0, 0, blocks, 0, true) == CollectiveBytes{0, 36});
    CHECK(all_to_one_varying(2, 0, blocks, 12, false) == CollectiveBytes{12, 0});
    CHECK(one_to_all_varying(0, 0, blocks, 0, false) == CollectiveBytes{40, 4});
    // Allreduce of 8 bytes on 4 ranks, in place or not.
    CHECK(all_to_all(4, 8, 8, false) == CollectiveBytes{32, 32});
    CHECK(all_to_all(4, 8, 8, true) == CollectiveBytes{24, 24});
    CHECK(all_to_all_varying(1, blocks, blocks, false) == CollectiveBytes{40, 40});
    CHECK(all_to_all_varying(1, blocks, blocks, true) == CollectiveBytes{32, 32});
    CHECK(allgather_varying(3, 4, blocks, false) == CollectiveBytes{16, 40});
    CHECK(allgather_varying(3, 16, blocks, true) == CollectiveBytes{48, 24});
    // Reduce_scatter with blocks 4, 8, 4, 8.
    const std::uint64_t rs[] = {4, 8, 4, 8};
    CHECK(reduce_scatter(1, rs, false) == CollectiveBytes{24, 32});
    CHECK(reduce_scatter(1, rs, true) == CollectiveBytes{16, 24});
    // Scan / Exscan of 4 bytes, rank 1 of 4.
    CHECK(scan(1, 4, 4, false) == CollectiveBytes{12, 8});
    CHECK(scan(1, 4, 4, true) == CollectiveBytes{8, 4});
}

TEST_CASE("rooted collectives on an inter-communicator move bytes between the groups only", "[collector][bytes]") {
    using namespace rules;
    // Bcast of 24 bytes from a root whose other group has 2 members.
    CHECK(inter_rooted(MPI_ROOT, 48, 24, true) == CollectiveBytes{48, 0});
    CHECK(inter_rooted(MPI_PROC_NULL, 48, 24, true) == CollectiveBytes{0, 0});
    CHECK(inter_rooted(1, 48, 24, true) == CollectiveBytes{0, 24});
    // Reduce/Gather towards the root: the other group sends, the root receives.
    CHECK(inter_rooted(MPI_ROOT, 48, 24, false) == CollectiveBytes{0, 48});
    CHECK(inter_rooted(MPI_PROC_NULL, 48, 24, false) == CollectiveBytes{0, 0});
    CHECK(inter_rooted(0, 48, 24, false) == CollectiveBytes{24, 0});
}

TEST_CASE("the chunk pool never hands out more than its size", "[collector][buffer]") {
    ChunkPool pool(4096, 1024);
    void* a = pool.allocate(OTF2_FILETYPE_EVENTS, 0, 1024);
    void* b = pool.allocate(OTF2_FILETYPE_EVENTS, 0, 1024);
    void* c = pool.allocate(OTF2_FILETYPE_LOCAL_DEFS, 0, 1024);
    void* d = pool.allocate(OTF2_FILETYPE_EVENTS, 0, 1024);
    CHECK((a && b && c && d));
    CHECK(pool.allocate(OTF2_FILETYPE_EVENTS, 0, 1024) == nullptr);
    CHECK(pool.allocate(OTF2_FILETYPE_EVENTS, 0, 2048) == nullptr);
    pool.free_all(OTF2_FILETYPE_EVENTS, 0);  // the three event chunks come back
    CHECK(pool.chunks_in_use() == 1);
    CHECK(pool.allocate(OTF2_FILETYPE_EVENTS, 0, 1024) != nullptr);
    CHECK(chunk_size_for(64ull << 20) == 1ull << 20);
    CHECK(chunk_size_for(1ull << 20) == 256ull << 10);
}

namespace {
RegionDef mpi_region(const std::string& name, OTF2_RegionRole role) {
    return {name, name, role, OTF2_PARADIGM_MPI, "MPI"};
}
CommRecord world(int n) {
    CommRecord c{kWorldKey, kNoCommKey, "", false, {}, {}, {}, {}};
    for (int i = 0; i < n; ++i) c.members.push_back(i);
    return c;
}
CommRecord self() { return {kSelfKey, kNoCommKey, "", false, {}, {}, {}, {}}; }
}  // namespace

TEST_CASE("local definitions survive serialization", "[collector][definitions]") {
    LocalDefinitions defs{{mpi_region("MPI_Send", OTF2_REGION_ROLE_POINT2POINT)},
                          {world(2), self(), {make_comm_key(1, 1), kWorldKey, "MPI_Intercomm_create", true, {1}, {0}, {}, {}},
                           {make_comm_key(0, 2), kWorldKey, "MPI_Cart_create(reorder) @ main", false, {1, 0}, {}, {2, 1}, {1, 0}}},
                          "node7",
                          42,
                          {},
                          {"a.dat", "b.dat"},
                          {{1, 3}, {0, OTF2_UNDEFINED_COMM}},
                          {},
                          {}, {{2, 5}}};
    const auto bytes = serialize(defs);
    const LocalDefinitions back = deserialize(bytes, 3);
    CHECK(back.hostname == "node7");
    CHECK(back.event_count == 42);
    REQUIRE(back.regions.size() == 1);
    CHECK(back.regions[0].name == "MPI_Send");
    CHECK(back.regions[0].role == OTF2_REGION_ROLE_POINT2POINT);
    REQUIRE(back.comms.size() == 4);
    CHECK(back.comms[2].creator == "MPI_Intercomm_create");
    CHECK(back.comms[2].inter);
    CHECK(back.comms[2].remote_members == std::vector<int>{0});
    CHECK(back.comms[3].creator == "MPI_Cart_create(reorder) @ main");
    CHECK(back.comms[3].cart_dims == std::vector<int>{2, 1});
    CHECK(back.comms[3].cart_periods == std::vector<int>{1, 0});
    CHECK(back.io_files == std::vector<std::string>{"a.dat", "b.dat"});
    REQUIRE(back.io_handles.size() == 2);
    CHECK(back.io_handles[0].file == 1);
    CHECK(back.io_handles[0].comm == 3);
    CHECK(back.io_handles[1].comm == OTF2_UNDEFINED_COMM);
    REQUIRE(back.rma_windows.size() == 1);
    CHECK(back.rma_windows[0].comm == 2);
    CHECK(back.rma_windows[0].number == 5);
    const std::span<const std::byte> truncated(bytes.data(), bytes.size() - 3);
    CHECK_THROWS_WITH(deserialize(truncated, 3), Catch::Contains("rank 3"));
}

TEST_CASE("unification merges regions and communicators by identity", "[collector][definitions]") {
    // Rank 0 defines Send then Recv, rank 1 Recv then Send and a user region.
    // Both split the world into the halves {0} and {1} (different keys), and
    // both know a duplicate of the world created by rank 0.
    const CommKey dup = make_comm_key(0, 1);
    const CommKey half0 = make_comm_key(0, 2);
    const CommKey half1 = make_comm_key(1, 1);
    LocalDefinitions r0{{mpi_region("MPI_Send", OTF2_REGION_ROLE_POINT2POINT),
                         mpi_region("MPI_Recv", OTF2_REGION_ROLE_POINT2POINT)},
                        {world(2), self(), {dup, kWorldKey, "MPI_Comm_dup", false, {0, 1}, {}, {}, {}},
                         {half0, dup, "MPI_Comm_split", false, {0}, {}, {}, {}}},
                        "a", 10, {}, {}, {}, {}, {}, {}};
    LocalDefinitions r1{{mpi_region("MPI_Recv", OTF2_REGION_ROLE_POINT2POINT),
                         mpi_region("MPI_Send", OTF2_REGION_ROLE_POINT2POINT),
                         {"solve", "solve", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER, ""}},
                        {world(2), self(), {half1, dup, "MPI_Comm_split", false, {1}, {}, {}, {}},
                         {dup, kWorldKey, "MPI_Comm_dup", false, {0, 1}, {}, {}, {}}},
                        "b", 20, {}, {}, {}, {}, {}, {}};
    const UnifiedDefinitions u = unify({r0, r1});
    REQUIRE(u.regions.size() == 3);
    CHECK(u.regions[2].name == "solve");
    CHECK(u.region_maps[0] == std::vector<std::uint64_t>{0, 1});
    CHECK(u.region_maps[1] == std::vector<std::uint64_t>{1, 0, 2});

    // Global communicators: world, self, then by key: dup (0,1), half0 (0,2), half1 (1,1).
    REQUIRE(u.comms.size() == 5);
    CHECK(u.comms[0].name == "MPI_COMM_WORLD");
    CHECK(u.comms[1].name == "MPI_COMM_SELF");
    CHECK(u.comms[2].name == "MPI_Comm_dup");
    CHECK(u.comms[2].parent == 0);
    CHECK(u.comms[3].parent == 2);
    CHECK(u.comms[4].parent == 2);
    CHECK(u.comm_maps[0] == std::vector<std::uint64_t>{0, 1, 2, 3});
    CHECK(u.comm_maps[1] == std::vector<std::uint64_t>{0, 1, 4, 2});

    // Groups: locations, self, {0,1} shared by world and dup, {0}, {1}.
    REQUIRE(u.groups.size() == 5);
    CHECK(u.groups[0].type == OTF2_GROUP_TYPE_COMM_LOCATIONS);
    CHECK(u.groups[1].type == OTF2_GROUP_TYPE_COMM_SELF);
    CHECK(u.comms[0].group == u.comms[2].group);
    CHECK(u.groups[u.comms[3].group].members == std::vector<std::uint64_t>{0});
    CHECK(u.groups[u.comms[4].group].members == std::vector<std::uint64_t>{1});
    CHECK(u.nodes == std::vector<std::string>{"a", "b"});
    CHECK(u.events_of_rank == std::vector<std::uint64_t>{10, 20});
}

TEST_CASE("receive sources become global groups, sharing a communicator's where the list is one", "[collector][definitions]") {
    // Two ranks; a split into halves {0} and {1}. Rank 0 received from {1}
    // and from nobody, rank 1 from {0} and from {0, 1}.
    LocalDefinitions r0{{}, {world(2), self(), {make_comm_key(0, 1), kWorldKey, "MPI_Comm_split", false, {0}, {}, {}, {}}},
                        "a", 1, {{1}, {}}, {}, {}, {}, {}, {}};
    LocalDefinitions r1{{}, {world(2), self(), {make_comm_key(1, 1), kWorldKey, "MPI_Comm_split", false, {1}, {}, {}, {}}},
                        "a", 1, {{0}, {0, 1}}, {}, {}, {}, {}, {}};
    const LocalDefinitions back = deserialize(serialize(r1), 1);
    CHECK(back.source_groups == r1.source_groups);
    const UnifiedDefinitions u = unify({r0, r1});
    CHECK(u.receive_sources);
    // Groups: locations, self, {0, 1} (world), {0}, {1} (the halves), then
    // the one list no communicator has: {}.
    REQUIRE(u.groups.size() == 6);
    CHECK(u.comms[2].group == 3);
    CHECK(u.comms[3].group == 4);
    CHECK(u.group_maps[0] == std::vector<std::uint64_t>{4, 5});
    CHECK(u.group_maps[1] == std::vector<std::uint64_t>{3, 2});
    CHECK(u.groups[5].members.empty());
    CHECK(u.groups[5].type == OTF2_GROUP_TYPE_COMM_GROUP);
    CHECK_FALSE(unify({LocalDefinitions{{}, {world(1), self()}, "a", 1, {}, {}, {}, {}, {}, {}}}).receive_sources);
}

TEST_CASE("an inter-communicator's ranks follow one order on both sides", "[collector][definitions]") {
    // Groups {2, 3} and {0, 1}: the group with world rank 0 comes first,
    // seen from either side.
    const CommRecord from_low{make_comm_key(0, 1), kWorldKey, "MPI_Intercomm_create", true, {0, 1}, {2, 3}, {}, {}};
    const CommRecord from_high{make_comm_key(0, 1), kWorldKey, "MPI_Intercomm_create", true, {2, 3}, {0, 1}, {}, {}};
    CHECK(local_group_first(from_low));
    CHECK_FALSE(local_group_first(from_high));
    for (const CommRecord& first : {from_low, from_high}) {
        LocalDefinitions rank{{}, {world(4), self(), first}, "a", 0, {}, {}, {}, {}, {}, {}};
        const UnifiedDefinitions u = unify({rank});
        REQUIRE(u.comms.size() == 3);
        CHECK(u.groups[u.comms[2].group].members == std::vector<std::uint64_t>{0, 1, 2, 3});
    }
}

TEST_CASE("MPI_Comm_idup keys: the same on every member, distinct per parent and number", "[collector][definitions]") {
    const CommKey a = derived_comm_key(kWorldKey, 0);
    CHECK(a == derived_comm_key(kWorldKey, 0));
    CHECK(a != derived_comm_key(kWorldKey, 1));
    CHECK(a != derived_comm_key(make_comm_key(0, 1), 0));
    CHECK((a & kDerivedKeyBit) != 0);
    CHECK((a & kRankLocalKeyBit) == 0);
}

TEST_CASE("unification: MPI-IO files by name, a handle per rank's handle on its global communicator",
          "[collector][definitions]") {
    // Both ranks open "out.dat" on a communicator split off the world (rank
    // 0 knows it as local comm 2, rank 1 after a second split as local 3);
    // rank 1 also opens "log.dat" on none it knows.
    const CommKey split = make_comm_key(0, 1);
    const CommKey other = make_comm_key(1, 1);
    LocalDefinitions r0{{}, {world(2), self(), {split, kWorldKey, "MPI_Comm_split", false, {0, 1}, {}, {}, {}}},
                        "a", 1, {}, {"out.dat"}, {{0, 2}}, {}, {}, {}};
    LocalDefinitions r1{{}, {world(2), self(), {other, kWorldKey, "MPI_Comm_split", false, {1}, {}, {}, {}},
                             {split, kWorldKey, "MPI_Comm_split", false, {0, 1}, {}, {}, {}}},
                        "a", 1, {}, {"log.dat", "out.dat"}, {{1, 3}, {0, OTF2_UNDEFINED_COMM}}, {}, {}, {}};
    const UnifiedDefinitions u = unify({r0, r1});
    CHECK(u.io_files == std::vector<std::string>{"out.dat", "log.dat"});
    CHECK(u.io_file_maps[0] == std::vector<std::uint64_t>{0});
    CHECK(u.io_file_maps[1] == std::vector<std::uint64_t>{1, 0});
    REQUIRE(u.io_handles.size() == 3);
    CHECK(u.io_handle_maps[0] == std::vector<std::uint64_t>{0});
    CHECK(u.io_handle_maps[1] == std::vector<std::uint64_t>{1, 2});
    // Both "out.dat" handles on the one global communicator of key `split`.
    CHECK(u.io_handles[0].file == 0);
    CHECK(u.io_handles[1].file == 0);
    CHECK(u.io_handles[0].comm == u.comm_maps[0][2]);
    CHECK(u.io_handles[1].comm == u.comm_maps[1][3]);
    CHECK(u.io_handles[0].comm == u.io_handles[1].comm);
    CHECK(u.io_handles[2].file == 1);
    CHECK(u.io_handles[2].comm == OTF2_UNDEFINED_COMM);
}

TEST_CASE("unification: an RMA window is one for all members of its communicator", "[collector][definitions]") {
    // Rank 0 creates a window on the world, then one on the split-off
    // communicator (its local comm 2); rank 1 the world's only (its
    // windows on a communicator come in the same order on every member),
    // then two on the split (its local comm 3, after one it alone has).
    const CommKey split = make_comm_key(0, 1);
    const CommKey other = make_comm_key(1, 1);
    LocalDefinitions r0{{}, {world(2), self(), {split, kWorldKey, "MPI_Comm_split", false, {0, 1}, {}, {}, {}}},
                        "a", 1, {}, {}, {}, {}, {}, {{0, 0}, {2, 0}}};
    LocalDefinitions r1{{}, {world(2), self(), {other, kWorldKey, "MPI_Comm_split", false, {1}, {}, {}, {}},
                             {split, kWorldKey, "MPI_Comm_split", false, {0, 1}, {}, {}, {}}},
                        "a", 1, {}, {}, {}, {}, {}, {{3, 0}, {0, 0}, {3, 1}}};
    const UnifiedDefinitions u = unify({r0, r1});
    REQUIRE(u.rma_windows.size() == 3);
    REQUIRE(u.rma_win_maps.size() == 2);
    // The world's window and the split's first are the same on both ranks.
    CHECK(u.rma_win_maps[0][0] == u.rma_win_maps[1][1]);
    CHECK(u.rma_win_maps[0][1] == u.rma_win_maps[1][0]);
    CHECK(u.rma_win_maps[1][2] != u.rma_win_maps[1][0]);
    CHECK(u.rma_windows[u.rma_win_maps[0][0]] == 0);  // MPI_COMM_WORLD
    CHECK(u.rma_windows[u.rma_win_maps[1][0]] == u.comm_maps[1][3]);
    CHECK(u.rma_windows[u.rma_win_maps[1][2]] == u.comm_maps[1][3]);
}

TEST_CASE("RMA registry: windows numbered per communicator, transfers completed by target", "[collector][rma]") {
    RmaRegistry rma;
    const MPI_Win a = MPI_WIN_NULL + 1;
    const MPI_Win b = MPI_WIN_NULL + 2;
    CHECK(rma.created(a, 0, false) == 0);
    CHECK(rma.created(b, 0, true) == 1);
    CHECK(rma.windows()[1].number == 1);
    CHECK(rma.allocated(b));
    CHECK_FALSE(rma.allocated(a));
    CHECK(rma.issued(a, 1) == 0);
    CHECK(rma.issued(a, 2) == 1);
    CHECK(rma.issued(a, 1) == 2);
    const auto to_one = rma.complete(a, 1);
    REQUIRE(to_one.size() == 2);
    CHECK(to_one[0].matching_id == 0);
    CHECK(to_one[1].matching_id == 2);
    CHECK(rma.complete(a).size() == 1);
    CHECK(rma.complete(a).empty());
    rma.freed(a);
    CHECK_FALSE(rma.window(a));
    CHECK_FALSE(rma.issued(a, 0));
}

TEST_CASE("RMA registry: transfers completed at the origin stay pending for their target", "[collector][rma]") {
    // Ids 0 (to 1), 1 (to 2), 2 (to 1), 3 (to 2) on one window. Id 1's
    // request completes it at the origin; a local flush of target 1 then
    // completes 0 and 2 there; a second local flush of 1 has nothing new,
    // nor has id 1's request again; a flush of all completes all four at
    // their targets, marked as completed at the origin except 3.
    RmaRegistry rma;
    const MPI_Win w = MPI_WIN_NULL + 1;
    rma.created(w, 0, false);
    for (const int target : {1, 2, 1, 2}) rma.issued(w, target);
    CHECK(rma.complete_one_locally(w, 1));
    CHECK_FALSE(rma.complete_one_locally(w, 1));
    CHECK_FALSE(rma.complete_one_locally(w, 7));  // never issued
    const auto flushed = rma.complete_locally(w, 1);
    REQUIRE(flushed.size() == 2);
    CHECK(flushed[0].matching_id == 0);
    CHECK(flushed[1].matching_id == 2);
    CHECK(rma.complete_locally(w, 1).empty());
    const auto done = rma.complete(w);
    REQUIRE(done.size() == 4);
    for (std::size_t i = 0; i < 4; ++i) {
        CHECK(done[i].matching_id == i);
        CHECK(done[i].completed_locally == (i != 3));
    }
    CHECK_FALSE(rma.complete_one_locally(w, 3));  // completed at its target before
}

TEST_CASE("OpenMP threads become locations (thread << 32) | rank with their teams", "[collector][definitions]") {
    // Rank 0 recorded threads 1 and 2 (5 and 6 events) in teams of 2 and 3
    // threads, rank 1 thread 1 (7 events) in a team of 2; rank 1 also made
    // one communicator, so its team's local index is after three.
    LocalDefinitions r0{{}, {world(2), self()}, "a", 10, {}, {}, {}, {5, 6}, {2, 3}, {}};
    LocalDefinitions r1{{}, {world(2), self(), {make_comm_key(1, 1), kWorldKey, "MPI_Comm_split", false, {1}, {}, {}, {}}},
                        "a", 20, {}, {}, {}, {7}, {2}, {}};
    const LocalDefinitions back = deserialize(serialize(r1), 1);
    CHECK(back.thread_events == std::vector<std::uint64_t>{7});
    CHECK(back.team_sizes == std::vector<std::uint32_t>{2});

    const UnifiedDefinitions u = unify({r0, r1});
    CHECK(u.openmp);
    CHECK(thread_location(1, 2) == (std::uint64_t{2} << 32 | 1));
    CHECK(u.thread_events_of_rank == std::vector<std::vector<std::uint64_t>>{{5, 6}, {7}});
    // World, self, the split, then the teams: rank 0's of 2 and 3, rank 1's of 2.
    REQUIRE(u.comms.size() == 6);
    CHECK(u.comms[3].name == "Thread team 0");
    CHECK(u.comms[4].name == "Thread team 1");
    CHECK(u.comms[5].name == "Thread team 2");
    CHECK(u.comm_maps[0] == std::vector<std::uint64_t>{0, 1, 3, 4});
    CHECK(u.comm_maps[1] == std::vector<std::uint64_t>{0, 1, 2, 5});
    // The OpenMP locations: rank 0's master and threads 1, 2, then rank 1's.
    const GlobalGroup& threads = u.groups[u.groups.size() - 4];
    CHECK(threads.type == OTF2_GROUP_TYPE_COMM_LOCATIONS);
    CHECK(threads.paradigm == OTF2_PARADIGM_OPENMP);
    CHECK(threads.name == "OpenMP");
    CHECK(threads.members == std::vector<std::uint64_t>{0, std::uint64_t{1} << 32, std::uint64_t{2} << 32, 1,
                                                        (std::uint64_t{1} << 32) | 1});
    // Team groups hold indices into that group.
    CHECK(u.groups[u.comms[3].group].members == std::vector<std::uint64_t>{0, 1});
    CHECK(u.groups[u.comms[4].group].members == std::vector<std::uint64_t>{0, 1, 2});
    CHECK(u.groups[u.comms[5].group].members == std::vector<std::uint64_t>{3, 4});
    CHECK(u.groups[u.comms[5].group].paradigm == OTF2_PARADIGM_OPENMP);
    // Without threads nothing of this exists.
    CHECK_FALSE(unify({LocalDefinitions{{}, {world(1), self()}, "a", 1, {}, {}, {}, {}, {}, {}}}).openmp);
}

TEST_CASE("the launcher finds the libraries a program needs, and libgomp's replacement", "[collector][launcher]") {
    // Every dynamically linked Debian executable needs the C library.
    const std::vector<std::string> sh = needed_libraries("/bin/sh");
    CHECK(std::find(sh.begin(), sh.end(), "libc.so.6") != sh.end());
    CHECK(std::find(sh.begin(), sh.end(), "libgomp.so.1") == sh.end());
    // Not an ELF file, or none at all: nothing needed, nothing to do.
    hindsight::testing::ScratchDir scratch;
    const std::string dir = scratch.path().string();
    const std::string script = dir + "/script.sh";
    std::ofstream(script) << "#!/bin/sh\necho libgomp.so.1\n";
    CHECK(needed_libraries(script).empty());
    CHECK(needed_libraries(dir + "/missing").empty());
    CHECK(openmp_runtime_for(script, "/usr/lib/libomp.so.5").preload.empty());
    CHECK(openmp_runtime_for("/bin/sh", "").warning.empty());
}
