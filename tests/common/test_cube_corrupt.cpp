#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "common/cube/reader.hpp"
#include "common/cube/tar.hpp"
#include "common/cube/writer.hpp"
#include "common/error.hpp"
#include "cube_fixture.hpp"

using namespace hindsight::cube;
using cube_test::make_fixture;
using cube_test::ScratchDir;

namespace {

std::string slurp(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void spit(const std::filesystem::path& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// A good report's bytes, and where each member's contents start.
struct Written {
    std::string bytes;
    tar::Archive archive;
};

Written good_report(const ScratchDir& dir) {
    const auto file = dir / "good.cubex";
    write_cubex(make_fixture().report, file);
    std::string bytes = slurp(file);
    return {bytes, tar::Archive::parse(bytes, "good")};
}

// "" stands for the whole archive, tar headers included.
std::size_t member_offset(const Written& w, const std::string& name) {
    if (name.empty()) return 0;
    for (const auto& m : w.archive.members())
        if (m.name == name) return m.offset;
    FAIL("no member " << name);
    return 0;
}

// Replaces `from` by the equally long `to` inside member `name`.
std::string patch(const Written& w, const std::string& name, const std::string& from, const std::string& to) {
    REQUIRE(from.size() == to.size());
    const std::size_t begin = member_offset(w, name);
    const std::size_t at = w.bytes.find(from, begin);
    REQUIRE(at != std::string::npos);
    std::string bytes = w.bytes;
    bytes.replace(at, from.size(), to);
    return bytes;
}

// Reading `bytes` fails with an Error naming the file and saying `problem`.
void check_rejected(const ScratchDir& dir, const std::string& bytes, const std::string& problem) {
    const auto file = dir / "bad.cubex";
    spit(file, bytes);
    try {
        read_cubex(file);
        FAIL("accepted a corrupt report; expected: " << problem);
    } catch (const hindsight::Error& e) {
        CHECK(e.file() == file.string());
        CHECK_THAT(e.problem(), Catch::Contains(problem));
    }
}

}  // namespace

TEST_CASE("cube reader: missing files and non-archives are rejected") {
    ScratchDir dir;
    CHECK_THROWS_WITH(read_cubex(dir / "absent.cubex"), Catch::Contains("absent.cubex") && Catch::Contains("cannot open"));
    check_rejected(dir, "", "the file is empty");
    check_rejected(dir, std::string(2000, 'x'), "not a tar archive");

    tar::Writer other(dir / "other.tar");
    other.add("notes.txt", "not a report");
    other.finish();
    check_rejected(dir, slurp(dir / "other.tar"), "no anchor.xml");
}

TEST_CASE("cube reader: every truncation of a report is rejected") {
    ScratchDir dir;
    const Written w = good_report(dir);
    const auto& last = w.archive.members().back();
    // The archive ends with zero blocks after the last member's padded data;
    // any cut before the first of them is a truncation, even one that falls
    // between two members.
    const std::size_t end_marker = last.offset + (last.size + 511) / 512 * 512;
    for (std::size_t cut = 0; cut < end_marker + 512; ++cut) {
        INFO("cut at " << cut);
        CHECK_THROWS_AS(parse_cubex(w.bytes.substr(0, cut), "cut"), hindsight::Error);
    }
    CHECK_NOTHROW(parse_cubex(w.bytes.substr(0, end_marker + 512), "cut"));
    CHECK_THROWS_WITH(parse_cubex(w.bytes.substr(0, end_marker), "cut"), Catch::Contains("truncated"));
}

TEST_CASE("cube reader: damaged anchor.xml is rejected with the member and line") {
    ScratchDir dir;
    const Written w = good_report(dir);
    check_rejected(dir, patch(w, "anchor.xml", "<cube version=\"4.4\">", "<cube version=\"3.0\">"), "not a CUBE 4 report");
    check_rejected(dir, patch(w, "anchor.xml", "</program>", "</prograx>"), "anchor.xml: line ");
    check_rejected(dir, patch(w, "anchor.xml", "calleeId=\"1\"", "calleeId=\"9\""), "undefined region 9");
    check_rejected(dir, patch(w, "anchor.xml", "<dtype>UINT64</dtype>", "<dtype>UINT99</dtype>"),
                   "unsupported metric data type 'UINT99'");
    check_rejected(dir, patch(w, "anchor.xml", "type=\"EXCLUSIVE\"", "type=\"DIFFERENT\""), "metric type DIFFERENT is not supported");
    check_rejected(dir, patch(w, "anchor.xml", "<location Id=\"3\">", "<location Id=\"7\">"), "location ids");
    check_rejected(dir, patch(w, "anchor.xml", "<metric id=\"1\"", "<metric id=\"0\""), "metric id 0 is used twice");
    check_rejected(dir, patch(w, "anchor.xml", "<rank>2</rank>", "<rank>x</rank>"), "not a valid number");
}

TEST_CASE("cube reader: damaged metric members are rejected") {
    ScratchDir dir;
    const Written w = good_report(dir);
    // 2.index lists rows 2 and 3 (see the layout test).
    const std::string two_rows = std::string("\x02\x00\x00\x00", 4) + std::string("\x02\x00\x00\x00", 4) +
                                 std::string("\x03\x00\x00\x00", 4);
    check_rejected(dir, patch(w, "2.index", "CUBEX.INDEX", "CUBEX.INDEY"), "2.index/.data: index does not start");
    check_rejected(dir, patch(w, "2.index", two_rows, std::string("\x03\x00\x00\x00", 4) + two_rows.substr(4)),
                   "index size does not match");
    check_rejected(dir, patch(w, "2.index", two_rows, two_rows.substr(0, 8) + std::string("\x09\x00\x00\x00", 4)),
                   "names row 9");
    check_rejected(dir, patch(w, "2.index", two_rows, two_rows.substr(0, 4) + two_rows.substr(8) + two_rows.substr(4, 4)),
                   "not ascending");
    check_rejected(dir, patch(w, "2.data", "CUBEX.DATA", "CUBEX.DATE"), "data does not start with CUBEX.DATA");
    check_rejected(dir, patch(w, "2.index", std::string("\x01\x00\x00\x00\x00\x00\x01", 7),
                              std::string("\x01\x00\x00\x00\x00\x00\x07", 7)),
                   "unknown index format 7");
    check_rejected(dir, patch(w, "2.index", std::string("\x01\x00\x00\x00\x00\x00\x01", 7),
                              std::string("\x01\x00\x00\x00\x00\x00\x03", 7)),
                   "dense index has trailing bytes");
    // Only one of the two members of a metric.
    {
        const Written full = good_report(dir);
        tar::Writer partial(dir / "partial.tar");
        for (const auto& m : full.archive.members())
            if (m.name != "2.data") partial.add(m.name, *full.archive.file(m.name));
        partial.finish();
        check_rejected(dir, slurp(dir / "partial.tar"), "only one of 2.index and 2.data");
    }
    // The member name in its tar header: the checksum no longer matches, but
    // the header is otherwise sane, as CubeLib 4.8 writes them, and is taken;
    // the metric then lacks its data member.
    check_rejected(dir, patch(w, "", "2.data", "2.dat_"), "only one of 2.index and 2.data");
    // A wrong checksum in a header that is not a ustar header is refused.
    check_rejected(dir, patch(w, "", "ustar", "ustaX"), "bad header checksum");
}

TEST_CASE("cube reader: flipped bytes anywhere never crash the reader") {
    ScratchDir dir;
    const Written w = good_report(dir);
    const auto& last = w.archive.members().back();
    const std::size_t end_of_data = last.offset + last.size;
    std::size_t rejected = 0;
    std::size_t tried = 0;
    for (std::size_t at = 0; at < end_of_data; ++at) {
        std::string bytes = w.bytes;
        bytes[at] = static_cast<char>(bytes[at] ^ 0x5a);
        ++tried;
        try {
            parse_cubex(std::move(bytes), "flipped");
        } catch (const hindsight::Error&) {
            ++rejected;  // the only exception the reader may throw
        }
    }
    // Flips in padding, time stamps or values go unnoticed, and so do flips
    // in tar header fields we do not use (mode, owner, time), since headers
    // with a wrong checksum are taken when otherwise sane (CubeLib 4.8 writes
    // such checksums); flips in names, sizes, markers and XML are caught.
    INFO(rejected << " of " << tried << " flips rejected");
    CHECK(rejected > tried / 6);
}

namespace {

// The members of `w` in order, with `extra` appended, as an archive.
std::string archive_with(const ScratchDir& dir, const Written& w, const std::vector<std::pair<std::string, std::string>>& extra,
                         const std::string& skip = "") {
    tar::Writer out(dir / "rebuilt.tar");
    for (const auto& m : w.archive.members())
        if (m.name != skip) out.add(m.name, *w.archive.file(m.name));
    for (const auto& [name, contents] : extra) out.add(name, contents);
    out.finish();
    return slurp(dir / "rebuilt.tar");
}

// One metric "time" at main and its callee solve, on one rank, stored as the
// writer stores it (call-tree exclusive), then declared INCLUSIVE.
Report inclusive_time(const ScratchDir& dir, double at_main, double at_solve) {
    Report r;
    const MetricIndex time = r.add_metric({"time", "Time", "sec", "", "", DataType::Double, kNone});
    const CnodeIndex main_cnode = r.add_cnode(r.add_region({"main", "", "", "", "", -1, -1, {}, {}}), kNone);
    const CnodeIndex solve = r.add_cnode(r.add_region({"solve", "", "", "", "", -1, -1, {}, {}}), main_cnode);
    const SystemNodeIndex machine = r.add_system_node({"m", "machine", "", kNone});
    r.add_location({"t", 0, r.add_location_group({"p", 0, machine})});
    r.set_value(time, main_cnode, 0, at_main);
    r.set_value(time, solve, 0, at_solve);
    write_cubex(r, dir / "inclusive.cubex");
    std::string bytes = slurp(dir / "inclusive.cubex");
    const std::size_t at = bytes.find("type=\"EXCLUSIVE\"");
    REQUIRE(at != std::string::npos);
    bytes.replace(at, 16, "type=\"INCLUSIVE\"");  // as long: the tar header stays right
    spit(dir / "inclusive.cubex", bytes);
    return read_cubex(dir / "inclusive.cubex");
}

}  // namespace

TEST_CASE("cube reader: an empty or second anchor.xml is named, not read past") {
    ScratchDir dir;
    const Written w = good_report(dir);
    // `tar -rf report.cubex anchor.xml` appends a member of the same name.
    check_rejected(dir, archive_with(dir, w, {{"anchor.xml", ""}}), "the archive holds two members named anchor.xml");
    check_rejected(dir, archive_with(dir, w, {{"anchor.xml", ""}}, "anchor.xml"), "anchor.xml is empty");
}

TEST_CASE("cube reader: a DOCTYPE is refused before any entity in it is read") {
    ScratchDir dir;
    const Written w = good_report(dir);
    std::string anchor(*w.archive.file("anchor.xml"));
    anchor.insert(anchor.find("<cube"), "<!DOCTYPE cube [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n");
    if (anchor.size() % 512 == 0) anchor += '\n';
    check_rejected(dir, archive_with(dir, w, {{"anchor.xml", anchor}}, "anchor.xml"),
                   "anchor.xml: line 2: declarations are not supported");
}

TEST_CASE("cube reader: callees exceeding their caller in an inclusive metric are named in a warning") {
    ScratchDir dir;
    // Inclusive main 2, solve 10: main's own time would be -8 s.
    const Report bad = inclusive_time(dir, 2, 10);
    CHECK(bad.value(0, 0, 0) == -8.0);
    CHECK(bad.value(0, 1, 0) == 10.0);
    REQUIRE(bad.warnings().size() == 1);
    CHECK(bad.warnings()[0] == (dir / "inclusive.cubex").string() +
                                   ": metric time (call-tree inclusive): the callees of call path main exceed it on "
                                   "rank 0, so its exclusive value is -8 sec");
    // 0.1 + 0.2 stored as the caller's 0.3: a difference of rounding only
    // (0.3 - 0.30000000000000004), which is 0 and no warning.
    const Report rounded = inclusive_time(dir, 0.3, 0.1 + 0.2);
    CHECK(rounded.value(0, 0, 0) == 0.0);
    CHECK(rounded.warnings().empty());
}

TEST_CASE("cube reader: values that are not finite numbers are named in a warning") {
    ScratchDir dir;
    cube_test::Fixture f = make_fixture();
    // Written as stored, so that only this metric holds the infinity.
    f.report.set_value_kind(ValueKind::MetricInclusive);
    f.report.set_value(f.latesender, f.main_recv, f.r1t0, std::numeric_limits<double>::infinity());
    write_cubex(f.report, dir / "inf.cubex");
    const Report r = read_cubex(dir / "inf.cubex");
    REQUIRE(r.warnings().size() == 1);
    CHECK_THAT(r.warnings()[0], Catch::StartsWith((dir / "inf.cubex").string() + ": metric mpi_latesender holds 1 value(s) "
                                                  "that are not finite numbers, e.g. inf at call path main/MPI_Recv on rank 1"));
}
