// Reports as CubeLib's own tools write them (cube_diff, cube_mean, cube_cut,
// cube_remap2, cube_merge, and CUBE 4.0 writers): each case reproduces one
// construct of theirs exactly, in a small archive built here byte by byte,
// independently of our writer.
#include <catch2/catch.hpp>

#include <bit>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/cube/reader.hpp"
#include "common/cube/tar.hpp"
#include "common/error.hpp"
#include "cube_fixture.hpp"

using namespace hindsight::cube;
using cube_test::location_of;
using cube_test::ScratchDir;

namespace {

std::string le32(std::uint32_t v) {
    std::string out;
    for (int i = 0; i < 4; ++i) out += static_cast<char>((v >> (8 * i)) & 0xff);
    return out;
}

std::string le64(std::uint64_t v) {
    std::string out;
    for (int i = 0; i < 8; ++i) out += static_cast<char>((v >> (8 * i)) & 0xff);
    return out;
}

// The index header: marker, byte-order mark 1, version 0, format 1 (sparse).
const std::string kSparseHeader = std::string("CUBEX.INDEX") + le32(1) + std::string("\0\0", 2) + std::string("\1", 1);

// A sparse index listing `rows`, with its entry count.
std::string sparse_index(const std::vector<std::uint32_t>& rows) {
    std::string out = kSparseHeader + le32(static_cast<std::uint32_t>(rows.size()));
    for (const std::uint32_t r : rows) out += le32(r);
    return out;
}

std::string doubles(const std::vector<double>& values) {
    std::string out = "CUBEX.DATA";
    for (const double v : values) out += le64(std::bit_cast<std::uint64_t>(v));
    return out;
}

std::string integers(const std::vector<std::uint64_t>& values) {
    std::string out = "CUBEX.DATA";
    for (const std::uint64_t v : values) out += le64(v);
    return out;
}

// One call path (main) and two ranks of one thread each, in CUBE 4.4's
// system tree; `metrics` goes between <metrics> and </metrics>.
std::string anchor_44(const std::string& metrics) {
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
           "<cube version=\"4.4\">\n"
           "<attr key=\"Creator\" value=\"cube_tool\"/>\n"
           "<doc><mirrors></mirrors></doc>\n"
           "<metrics>\n" + metrics + "</metrics>\n"
           "<program>\n"
           "<region id=\"0\" mod=\"\" begin=\"-1\" end=\"-1\"><name>main</name><mangled_name>main</mangled_name>"
           "<paradigm>user</paradigm><role>function</role><url></url><descr></descr></region>\n"
           "<cnode id=\"0\" calleeId=\"0\">\n</cnode>\n"
           "</program>\n"
           "<system>\n"
           "<systemtreenode Id=\"0\"><name>machine Linux</name><class>machine</class>\n"
           "<systemtreenode Id=\"1\"><name>node vm</name><class>node</class>\n"
           "<locationgroup Id=\"0\"><name>MPI Rank 0</name><rank>0</rank><type>process</type>\n"
           "<location Id=\"0\"><name>Master thread</name><rank>0</rank><type>thread</type></location>\n"
           "</locationgroup>\n"
           "<locationgroup Id=\"1\"><name>MPI Rank 1</name><rank>1</rank><type>process</type>\n"
           "<location Id=\"1\"><name>Master thread</name><rank>0</rank><type>thread</type></location>\n"
           "</locationgroup>\n"
           "</systemtreenode>\n"
           "</systemtreenode>\n"
           "<topologies>\n</topologies>\n"
           "</system>\n"
           "</cube>\n";
}

std::string metric(std::uint32_t id, const std::string& type, const std::string& name, const std::string& dtype,
                   const std::string& extra = "") {
    return "<metric id=\"" + std::to_string(id) + "\" type=\"" + type + "\">\n<disp_name>" + name +
           "</disp_name>\n<uniq_name>" + name + "</uniq_name>\n<dtype>" + dtype +
           "</dtype>\n<uom>sec</uom>\n<url></url>\n<descr></descr>\n" + extra + "</metric>\n";
}

Report read_members(const ScratchDir& dir, const std::vector<std::pair<std::string, std::string>>& members) {
    const auto file = dir / "tool.cubex";
    {
        tar::Writer out(file);
        for (const auto& [name, contents] : members) out.add(name, contents);
        out.finish();
    }
    return read_cubex(file);
}

}  // namespace

TEST_CASE("cube reader: an empty metric's index without an entry count, as CubeLib's tools write it") {
    // CubeLib writes the entry count and the rows only when a metric has
    // rows; for one that came out zero (a difference of equal values, a
    // mean of zeros) the index ends after the format byte, and the data
    // member holds only its marker.
    ScratchDir dir;
    const Report r = read_members(dir, {{"anchor.xml", anchor_44(metric(0, "EXCLUSIVE", "time", "FLOAT") +
                                                                 metric(1, "EXCLUSIVE", "mpi_latesender", "FLOAT"))},
                                        {"0.index", sparse_index({0})},
                                        {"0.data", doubles({1.5, 2.25})},
                                        {"1.index", kSparseHeader},
                                        {"1.data", "CUBEX.DATA"}});
    const MetricIndex time = r.find_metric("time"), late = r.find_metric("mpi_latesender");
    REQUIRE(time != kNone);
    REQUIRE(late != kNone);
    CHECK(r.value(time, 0, location_of(r, 0, 0)) == 1.5);
    CHECK(r.value(time, 0, location_of(r, 1, 0)) == 2.25);
    CHECK(r.value(late, 0, location_of(r, 0, 0)) == 0.0);
    CHECK(r.value(late, 0, location_of(r, 1, 0)) == 0.0);
    CHECK_FALSE(r.has_values(late));
    CHECK(r.warnings().empty());

    // The header alone is only complete for a sparse index; a data member
    // with values behind such an index does not match it.
    CHECK_THROWS_WITH(read_members(dir, {{"anchor.xml", anchor_44(metric(0, "EXCLUSIVE", "time", "FLOAT"))},
                                         {"0.index", kSparseHeader},
                                         {"0.data", doubles({1.5, 2.25})}}),
                      Catch::Contains("0.index/.data: data holds 16 bytes where 0 were expected"));
}

TEST_CASE("cube reader: the unquoted expression attributes of cube_remap2's derived metrics") {
    // cube_remap2 (and so `scalasca -examine`) writes <cubepl rowwise=false>
    // and <cubeplaggr cubeplaggrtype=plus>, without quotes.
    ScratchDir dir;
    const std::string derived = metric(
        1, "POSTDERIVED", "comp", "FLOAT",
        "<cubepl rowwise=false>\n metric::time(e) - metric::mpi(e)\n</cubepl>\n"
        "<cubeplaggr cubeplaggrtype=plus>\n arg1 + arg2\n</cubeplaggr>\n");
    const Report r = read_members(dir, {{"anchor.xml", anchor_44(metric(0, "EXCLUSIVE", "time", "FLOAT") + derived)},
                                        {"0.index", sparse_index({0})},
                                        {"0.data", doubles({1.5, 2.25})}});
    const MetricIndex comp = r.find_metric("comp");
    REQUIRE(comp != kNone);
    CHECK_FALSE(r.computed(comp));
    CHECK(r.expression(comp) == "\n metric::time(e) - metric::mpi(e)\n");
    CHECK(r.computed(r.find_metric("time")));
    CHECK(r.value(r.find_metric("time"), 0, location_of(r, 1, 0)) == 2.25);
}

TEST_CASE("cube reader: a metric name repeated in a merged report") {
    // cube_merge keeps two metrics of one name where its inputs define them
    // differently (here: Scalasca's INTEGER visits and Score-P's UINT64
    // ones). Both are read, with their own values; the second is renamed.
    ScratchDir dir;
    // A third one, without members (all zeros), is numbered on.
    const std::string metrics = metric(0, "EXCLUSIVE", "time", "FLOAT") + metric(1, "EXCLUSIVE", "visits", "INTEGER") +
                                metric(2, "EXCLUSIVE", "visits", "UINT64") + metric(3, "EXCLUSIVE", "visits", "UINT64");
    const Report r = read_members(dir, {{"anchor.xml", anchor_44(metrics)},
                                        {"0.index", sparse_index({0})},
                                        {"0.data", doubles({1.5, 2.25})},
                                        {"1.index", sparse_index({0})},
                                        {"1.data", integers({3, 4})},
                                        {"2.index", sparse_index({0})},
                                        {"2.data", integers({5, 6})}});
    REQUIRE(r.metrics().size() == 4);
    const MetricIndex first = r.find_metric("visits"), second = r.find_metric("visits (2)");
    REQUIRE(first != kNone);
    REQUIRE(second != kNone);
    CHECK(r.metrics()[first].data_type == DataType::Int64);
    CHECK(r.metrics()[second].data_type == DataType::Uint64);
    CHECK(r.metrics()[second].display_name == "visits");
    CHECK(r.value(first, 0, location_of(r, 0, 0)) == 3.0);
    CHECK(r.value(first, 0, location_of(r, 1, 0)) == 4.0);
    CHECK(r.value(second, 0, location_of(r, 0, 0)) == 5.0);
    CHECK(r.value(second, 0, location_of(r, 1, 0)) == 6.0);
    const MetricIndex third = r.find_metric("visits (3)");
    REQUIRE(third != kNone);
    CHECK_FALSE(r.has_values(third));
    REQUIRE(r.warnings().size() == 2);
    CHECK_THAT(r.warnings()[0], Catch::StartsWith((dir / "tool.cubex").string() + ": anchor.xml: line ") &&
                                    Catch::EndsWith(": metric visits is defined more than once; this one is read "
                                                    "as 'visits (2)'"));
    CHECK_THAT(r.warnings()[1], Catch::EndsWith("this one is read as 'visits (3)'"));
}

TEST_CASE("cube reader: CUBE 4.0's machine, node, process and thread system tree") {
    // Two processes on one node, the second with two threads; thread ids
    // number the value columns.
    ScratchDir dir;
    const std::string anchor =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<cube version=\"4.0\">\n"
        "<doc><mirrors></mirrors></doc>\n"
        "<metrics>\n" + metric(0, "EXCLUSIVE", "time", "FLOAT") + "</metrics>\n"
        "<program>\n"
        "<region id=\"0\" mod=\"app.c\" begin=\"1\" end=\"9\"><name>main</name><url></url><descr></descr></region>\n"
        "<cnode id=\"0\" calleeId=\"0\">\n</cnode>\n"
        "</program>\n"
        "<system>\n"
        "<machine Id=\"0\">\n<name>Linux</name>\n<descr>the cluster</descr>\n"
        "<node Id=\"0\">\n<name>vm</name>\n<descr></descr>\n"
        "<process Id=\"0\">\n<name>rank 0</name>\n<rank>0</rank>\n"
        "<thread Id=\"0\">\n<name>thread 0</name>\n<rank>0</rank>\n</thread>\n"
        "</process>\n"
        "<process Id=\"1\">\n<name>rank 1</name>\n<rank>1</rank>\n"
        "<thread Id=\"2\">\n<name>thread 0</name>\n<rank>0</rank>\n</thread>\n"
        "<thread Id=\"1\">\n<name>thread 1</name>\n<rank>1</rank>\n</thread>\n"
        "</process>\n"
        "</node>\n"
        "</machine>\n"
        "</system>\n"
        "</cube>\n";
    const Report r = read_members(dir, {{"anchor.xml", anchor},
                                        {"0.index", sparse_index({0})},
                                        {"0.data", doubles({1.0, 2.0, 3.0})}});
    REQUIRE(r.system_nodes().size() == 2);
    CHECK(r.system_nodes()[0].name == "Linux");
    CHECK(r.system_nodes()[0].class_name == "machine");
    CHECK(r.system_nodes()[0].description == "the cluster");
    CHECK(r.system_nodes()[0].parent == kNone);
    CHECK(r.system_nodes()[1].name == "vm");
    CHECK(r.system_nodes()[1].class_name == "node");
    CHECK(r.system_nodes()[1].parent == 0);
    REQUIRE(r.location_groups().size() == 2);
    CHECK(r.location_groups()[1].name == "rank 1");
    CHECK(r.location_groups()[1].parent == 1);
    REQUIRE(r.locations().size() == 3);
    const MetricIndex time = r.find_metric("time");
    // Columns by thread id: 0 is rank 0, 1 is rank 1's thread 1, 2 its thread 0.
    CHECK(r.value(time, 0, location_of(r, 0, 0)) == 1.0);
    CHECK(r.value(time, 0, location_of(r, 1, 1)) == 2.0);
    CHECK(r.value(time, 0, location_of(r, 1, 0)) == 3.0);
    CHECK(r.locations()[location_of(r, 1, 1)].name == "thread 1");
}

TEST_CASE("cube reader: a topology that does not fit its grid is left out, the report read") {
    // Scalasca's syntax: a 1 x 2 grid placing location 1 at column 2.
    ScratchDir dir;
    std::string anchor = anchor_44(metric(0, "EXCLUSIVE", "time", "FLOAT"));
    const std::string topologies = "<topologies>\n</topologies>\n";
    anchor.replace(anchor.find(topologies), topologies.size(),
                   "<topologies>\n<cart name=\"row\" ndims=\"2\">\n"
                   "<dim name=\"dimension 0\" size=\"1\" periodic=\"true\"/>\n"
                   "<dim name=\"dimension 1\" size=\"2\" periodic=\"true\"/>\n"
                   "<coord locId=\"0\">0 0</coord>\n<coord locId=\"1\">0 2</coord>\n"
                   "</cart>\n<cart name=\"fine\" ndims=\"1\">\n"
                   "<dim name=\"dimension 0\" size=\"2\" periodic=\"false\"/>\n"
                   "<coord locId=\"1\">0</coord>\n<coord locId=\"0\">1</coord>\n"
                   "</cart>\n</topologies>\n");
    const Report report = read_members(dir, {{"anchor.xml", anchor}});
    REQUIRE(report.topologies().size() == 1);
    CHECK(report.topologies()[0].name == "fine");
    CHECK(report.topologies()[0].coords ==
          std::vector<std::pair<LocationIndex, std::vector<std::int64_t>>>{{1, {0}}, {0, {1}}});
    REQUIRE(report.warnings().size() == 1);
    CHECK(report.warnings()[0].find("the topology 'row' is left out: a coordinate lies outside its dimension") !=
          std::string::npos);
}
