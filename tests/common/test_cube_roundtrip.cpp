#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "common/cube/anchor.hpp"
#include "common/cube/numbering.hpp"
#include "common/cube/query.hpp"
#include "common/cube/reader.hpp"
#include "common/cube/tar.hpp"
#include "common/cube/writer.hpp"
#include "common/cube/xml.hpp"
#include "common/error.hpp"
#include "cube_fixture.hpp"

using namespace hindsight::cube;
using cube_test::location_of;
using cube_test::make_fixture;
using cube_test::path_of;
using cube_test::ScratchDir;

namespace {

// Standard output of a shell command, and whether it succeeded.
std::pair<std::string, bool> run(const std::string& command) {
    std::unique_ptr<FILE, int (*)(FILE*)> pipe(::popen(command.c_str(), "r"), ::pclose);
    if (!pipe) return {"", false};
    std::string out;
    std::array<char, 4096> buffer;
    while (const std::size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe.get())) out.append(buffer.data(), n);
    const int status = ::pclose(pipe.release());
    return {out, status == 0};
}

std::string program(const char* variable, const char* fallback) {
    const char* p = std::getenv(variable);
    return p != nullptr ? p : fallback;
}

}  // namespace

TEST_CASE("cube round trip: every value comes back, stored metric-inclusive") {
    ScratchDir dir;
    const auto f = make_fixture();
    const auto file = dir / "report.cubex";
    write_cubex(f.report, file);
    Report back = read_cubex(file);
    REQUIRE(back.value_kind() == ValueKind::MetricInclusive);

    // Structure: same names, same shape (indices may differ).
    REQUIRE(back.metrics().size() == f.report.metrics().size());
    REQUIRE(back.cnodes().size() == f.report.cnodes().size());
    REQUIRE(back.locations().size() == f.report.locations().size());
    REQUIRE(back.location_groups().size() == 3);
    REQUIRE(back.system_nodes().size() == 3);
    CHECK(back.attributes() == f.report.attributes());
    CHECK(back.mirrors() == f.report.mirrors());
    for (const Metric& m : f.report.metrics()) {
        const MetricIndex b = back.find_metric(m.unique_name);
        REQUIRE(b != kNone);
        const Metric& bm = back.metrics()[b];
        CHECK(bm.display_name == m.display_name);
        CHECK(bm.unit == m.unit);
        CHECK(bm.description == m.description);
        CHECK(bm.url == m.url);
        CHECK(bm.data_type == m.data_type);
        const std::string parent = m.parent == kNone ? "" : f.report.metrics()[m.parent].unique_name;
        CHECK((bm.parent == kNone ? "" : back.metrics()[bm.parent].unique_name) == parent);
    }
    const Region& recv = back.regions()[back.cnodes()[back.find_cnode({"main", "MPI_Recv"})].region];
    CHECK(recv.paradigm == hindsight::Paradigm::Mpi);
    CHECK(recv.role == hindsight::RegionRole::Point2Point);
    CHECK(recv.begin_line == -1);
    const Region& compute = back.regions()[back.cnodes()[back.find_cnode({"main", "compute"})].region];
    CHECK(compute.mangled_name == "_Z7computev");
    CHECK(compute.source_file == "app.c");
    CHECK(compute.begin_line == 20);
    CHECK(compute.end_line == 40);
    CHECK(back.system_nodes()[back.location_groups()[back.locations()[location_of(back, 2, 0)].group].parent]
              .description == "first node");

    // Stored values equal the hand-computed subtree sums.
    CHECK(value_at(back, "time", {"main", "MPI_Recv"}, 0) == 1.75);
    CHECK(value_at(back, "mpi", {"main", "compute", "MPI_Recv"}, 1) == 3.25);
    CHECK(value_at(back, "time", {"main", "MPI_Barrier"}, 1) == 0.5625);
    CHECK(value_at(back, "time", {"main", "compute"}, 1) == 24.5);
    CHECK(value_at(back, "visits", {"main", "compute"}, 2) == 80.0);
    CHECK(total(back, "time") == 56.9375);
    CHECK(total(back, "visits") == 439.0);

    // Own shares: every single value as written.
    back.to_own_shares();
    for (MetricIndex m = 0; m < f.report.metrics().size(); ++m) {
        const MetricIndex bm = back.find_metric(f.report.metrics()[m].unique_name);
        for (CnodeIndex c = 0; c < f.report.cnodes().size(); ++c) {
            const CnodeIndex bc = back.find_cnode(path_of(f.report, c));
            REQUIRE(bc != kNone);
            for (LocationIndex l = 0; l < f.report.locations().size(); ++l) {
                const Location& loc = f.report.locations()[l];
                const LocationIndex bl = location_of(back, f.report.location_groups()[loc.group].rank, loc.rank);
                REQUIRE(bl != kNone);
                INFO(f.report.metrics()[m].unique_name << " at " << c << " on " << l);
                CHECK(back.value(bm, bc, bl) == f.report.value(m, c, l));
            }
        }
    }
}

TEST_CASE("cube round trip: Cartesian topologies come back with each location's place") {
    ScratchDir dir;
    auto f = make_fixture();
    // Ranks 0..2 (their first threads) on a periodic 1 x 3 row; rank 1's
    // second thread on a 2 x 2 grid alone.
    f.report.add_topology({"row", {1, 3}, {true, true}, {{f.r0t0, {0, 0}}, {f.r1t0, {0, 1}}, {f.r2t0, {0, 2}}}});
    f.report.add_topology({"grid", {2, 2}, {false, true}, {{f.r1t1, {1, 0}}}});
    const auto file = dir / "report.cubex";
    write_cubex(f.report, file);
    const Report back = read_cubex(file);
    REQUIRE(back.topologies().size() == 2);
    const CartesianTopology& row = back.topologies()[0];
    CHECK(row.name == "row");
    CHECK(row.dims == std::vector<std::int64_t>{1, 3});
    CHECK(row.periodic == std::vector<bool>{true, true});
    REQUIRE(row.coords.size() == 3);
    CHECK(row.coords[0] == std::pair<LocationIndex, std::vector<std::int64_t>>{location_of(back, 0, 0), {0, 0}});
    CHECK(row.coords[2] == std::pair<LocationIndex, std::vector<std::int64_t>>{location_of(back, 2, 0), {0, 2}});
    const CartesianTopology& grid = back.topologies()[1];
    CHECK(grid.periodic == std::vector<bool>{false, true});
    REQUIRE(grid.coords.size() == 1);
    CHECK(grid.coords[0] == std::pair<LocationIndex, std::vector<std::int64_t>>{location_of(back, 1, 1), {1, 0}});
    CHECK(back.warnings().empty());
}

TEST_CASE("cube round trip: a report already holding stored values is written as it is") {
    ScratchDir dir;
    auto f = make_fixture();
    f.report.to_metric_inclusive();
    write_cubex(f.report, dir / "stored.cubex");
    const Report back = read_cubex(dir / "stored.cubex");
    CHECK(value_at(back, "time", {"main", "MPI_Recv"}, 0) == 1.75);
    CHECK(total(back, "time") == 56.9375);
}

TEST_CASE("cube round trip: counts are stored as rounded unsigned integers") {
    ScratchDir dir;
    auto f = make_fixture();
    f.report.set_value(f.visits, f.main, f.r0t0, 2.6);
    f.report.set_value(f.visits, f.main, f.r1t0, -4.0);
    write_cubex(f.report, dir / "counts.cubex");
    const Report back = read_cubex(dir / "counts.cubex");
    CHECK(value_at(back, "visits", {"main"}, 0) == 3.0);
    CHECK(value_at(back, "visits", {"main"}, 1) == 0.0);
}

TEST_CASE("cube reader: a metric without members reads as all zeros") {
    // CUBE writers omit the members of metrics that have no data at all.
    ScratchDir dir;
    const auto f = make_fixture();
    write_cubex(f.report, dir / "full.cubex");
    const auto full = tar::Archive::load(dir / "full.cubex");
    {
        tar::Writer without(dir / "without.cubex");
        for (const auto& m : full.members())
            if (m.name != "2.index" && m.name != "2.data") without.add(m.name, *full.file(m.name));
        without.finish();
    }
    const Report back = read_cubex(dir / "without.cubex");
    CHECK(total(back, "mpi_latesender") == 0.0);
    CHECK(total(back, "visits") == 439.0);
}

TEST_CASE("cube writer: a metric that is zero everywhere gets no members") {
    // An index listing no row is valid CubeLib input, but pycubexr rejects
    // it; absent members mean all zeros to every reader.
    ScratchDir dir;
    auto f = make_fixture();
    // Set explicitly, but only to zero (an analysis that found no wait state).
    const MetricIndex latereceiver = f.report.add_metric(
        {"mpi_latereceiver", "Late Receiver", "sec", "Waiting for a late receiver", "", DataType::Double, f.mpi});
    f.report.set_value(latereceiver, f.main_recv, f.r0t0, 0.0);
    f.report.add_value(latereceiver, f.compute_recv, f.r1t0, 0.0);
    REQUIRE(f.report.has_values(latereceiver));
    // Never set at all.
    f.report.add_metric({"idle", "Idle", "sec", "Nothing measured", "", DataType::Double, kNone});
    const auto file = dir / "zeros.cubex";
    write_cubex(f.report, file);

    // Depth-first ids: time 0, mpi 1, mpi_latesender 2, mpi_barrier_wait 3,
    // mpi_latereceiver 4, visits 5, idle 6; 4 and 6 are zero everywhere.
    const auto [listing, ok] = run(program("TAR", "tar") + " -tf '" + file.string() + "' 2>&1");
    INFO(listing);
    REQUIRE(ok);
    CHECK(listing == "anchor.xml\nremapping.spec\n0.index\n0.data\n1.index\n1.data\n2.index\n2.data\n3.index\n"
                     "3.data\n5.index\n5.data\n");

    const Report back = read_cubex(file);
    CHECK(back.find_metric("mpi_latereceiver") != kNone);
    CHECK(back.find_metric("idle") != kNone);
    CHECK(total(back, "mpi_latereceiver") == 0.0);
    CHECK(total(back, "idle") == 0.0);
    // mpi's stored values are unchanged by the zero child: its own shares
    // 0.25+0.5+0.75+0.25+3*0.5 plus Late Sender 1.5+0.125+3.0 and Wait at
    // Barrier 2.0+0.0625.
    CHECK(total(back, "mpi") == 3.25 + 4.625 + 2.0625);
}

TEST_CASE("cube file layout: tar lists anchor.xml and an index and data file per metric") {
    ScratchDir dir;
    const auto f = make_fixture();
    const auto file = dir / "layout.cubex";
    write_cubex(f.report, file);

    const auto [listing, ok] = run(program("TAR", "tar") + " -tf '" + file.string() + "' 2>&1");
    INFO(listing);
    REQUIRE(ok);
    CHECK(listing == "anchor.xml\nremapping.spec\n0.index\n0.data\n1.index\n1.data\n2.index\n2.data\n3.index\n3.data\n"
                     "4.index\n4.data\n");

    // No member size is a non-zero multiple of the block size (see tar.hpp).
    const auto archive = tar::Archive::load(file);
    for (const auto& m : archive.members()) CHECK((m.size % 512) != 0);

    // Metric 2 is mpi_latesender (depth-first): a sparse index of the rows
    // with data, i.e. compute/MPI_Recv (row 2) and main/MPI_Recv (row 3).
    const std::string index(*archive.file("2.index"));
    const std::string expected_index = std::string("CUBEX.INDEX") + std::string("\x01\x00\x00\x00", 4) +
                                       std::string("\x00\x00", 2) + std::string("\x01", 1) +
                                       std::string("\x02\x00\x00\x00", 4) + std::string("\x02\x00\x00\x00", 4) +
                                       std::string("\x03\x00\x00\x00", 4);
    CHECK(index == expected_index);
    const std::string data(*archive.file("2.data"));
    CHECK(data.size() == 10 + 2 * 4 * 8);  // marker + 2 rows x 4 threads x 8 bytes
    CHECK(data.starts_with("CUBEX.DATA"));
}

TEST_CASE("cube file layout: remapping.spec copies the metric tree as it is") {
    // cube_remap2 (`scalasca -examine`) needs the member; each <metric>
    // without a type copies the report's metric of that name.
    ScratchDir dir;
    const auto f = make_fixture();
    write_cubex(f.report, dir / "spec.cubex");
    const auto archive = tar::Archive::load(dir / "spec.cubex");
    REQUIRE(archive.file("remapping.spec"));
    const std::string spec(*archive.file("remapping.spec"));
    // Scalasca's form: <doc> and <metrics> one after the other, no declaration.
    CHECK(spec.starts_with("<doc>\n <mirrors>\n  <murl>https://example.org/patterns/</murl>\n </mirrors>\n</doc>\n"
                           "<metrics>\n <metric>\n  <disp_name>Time</disp_name>\n  <uniq_name>time</uniq_name>\n"
                           "  <dtype>FLOAT</dtype>\n  <uom>sec</uom>\n  <url>@mirror@#time</url>\n"
                           "  <descr>Total time</descr>\n  <metric>\n"));
    CHECK(spec.find(" type=") == std::string::npos);
    // The tree: time > mpi > (mpi_latesender, mpi_barrier_wait); visits.
    const auto doc = xml::Document::parse("<spec>" + spec + "</spec>");
    REQUIRE(doc.root().children.size() == 2);
    const xml::Element& metrics = doc.element(doc.root().children[1]);
    const auto name_of = [&](const xml::Element& e) {
        for (const std::size_t c : e.children)
            if (doc.element(c).name == "uniq_name") return doc.element(c).text;
        return std::string();
    };
    const auto sub_metrics = [&](const xml::Element& e) {
        std::vector<std::string> names;
        for (const std::size_t c : e.children)
            if (doc.element(c).name == "metric") names.push_back(name_of(doc.element(c)));
        return names;
    };
    const auto child = [&](const xml::Element& e, std::size_t k) -> const xml::Element& {
        std::size_t seen = 0;
        for (const std::size_t c : e.children)
            if (doc.element(c).name == "metric" && seen++ == k) return doc.element(c);
        FAIL("no sub-metric " << k);
        return e;
    };
    CHECK(sub_metrics(metrics) == std::vector<std::string>{"time", "visits"});
    CHECK(sub_metrics(child(metrics, 0)) == std::vector<std::string>{"mpi"});
    CHECK(sub_metrics(child(child(metrics, 0), 0)) == std::vector<std::string>{"mpi_latesender", "mpi_barrier_wait"});
    CHECK(sub_metrics(child(metrics, 1)).empty());
    CHECK(spec.find("<dtype>UINT64</dtype>") != std::string::npos);
    // Readers skip it: the report reads back the same.
    CHECK(read_cubex(dir / "spec.cubex").metrics().size() == 5);
}

TEST_CASE("cube file layout: anchor.xml is well-formed XML in CUBE 4.4 syntax") {
    ScratchDir dir;
    const auto f = make_fixture();
    const auto file = dir / "wellformed.cubex";
    write_cubex(f.report, file);
    const auto archive = tar::Archive::load(file);
    const std::string anchor(*archive.file("anchor.xml"));
    CHECK(anchor.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<cube version=\"4.4\">\n"));
    CHECK(anchor.find("<metric id=\"2\" type=\"EXCLUSIVE\">") != std::string::npos);
    CHECK(anchor.find("<locationgroup Id=\"0\">") != std::string::npos);

    const auto extracted = dir / "anchor.xml";
    std::ofstream(extracted, std::ios::binary) << anchor;
    const std::string python = program("PYTHON3", "");
    if (python.empty()) {
        WARN("python3 not found: independent XML well-formedness check skipped");
    } else {
        const auto [out, ok] = run(python + " -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' '" +
                                   extracted.string() + "' 2>&1");
        INFO(out);
        CHECK(ok);
    }
}

TEST_CASE("cube escaping: names with markup characters survive the file") {
    ScratchDir dir;
    auto f = make_fixture();
    const std::string tricky = "operator<<(std::ostream&, \"it's\") > 0";
    const RegionIndex r = f.report.add_region(cube_test::region_named(tricky, "a&b.cpp"));
    const CnodeIndex c = f.report.add_cnode(r, f.main);
    f.report.set_value(f.time, c, f.r2t0, 0.5);
    f.report.set_attribute("note", "<&>\"'");
    f.report.add_metric({"odd", "A & B <C>", "sec", "\"quoted\" 'x'", "", DataType::Double, kNone});
    const auto file = dir / "escaping.cubex";
    write_cubex(f.report, file);

    const std::string anchor(*tar::Archive::load(file).file("anchor.xml"));
    CHECK(anchor.find("<name>operator&lt;&lt;(std::ostream&amp;, &quot;it&apos;s&quot;) &gt; 0</name>") !=
          std::string::npos);
    CHECK(anchor.find("mod=\"a&amp;b.cpp\"") != std::string::npos);

    const Report back = read_cubex(file);
    CHECK(value_at(back, "time", {"main", tricky}, 2) == 0.5);
    CHECK(back.regions()[back.cnodes()[back.find_cnode({"main", tricky})].region].source_file == "a&b.cpp");
    CHECK(back.metrics()[back.find_metric("odd")].display_name == "A & B <C>");
    CHECK(back.metrics()[back.find_metric("odd")].description == "\"quoted\" 'x'");
    CHECK(back.attributes().back() == std::pair<std::string, std::string>{"note", "<&>\"'"});
}

TEST_CASE("cube file layout: an anchor.xml of a whole number of blocks is padded") {
    // A metric description of the right length makes anchor.xml a multiple
    // of 512 bytes ('x' needs no escaping, so each one adds one byte).
    ScratchDir dir;
    const auto f = make_fixture();
    const auto with_description = [&](std::size_t length) {
        Report r = f.report;
        r.add_metric({"pad", "Pad", "occ", std::string(length, 'x'), "", DataType::Uint64, kNone});
        return r;
    };
    const std::size_t unpadded = write_anchor(with_description(0), number_for_file(with_description(0))).size();
    const std::size_t fill = (512 - unpadded % 512) % 512;
    const Report exact = with_description(fill);
    REQUIRE(write_anchor(exact, number_for_file(exact)).size() % 512 == 0);

    write_cubex(exact, dir / "padded.cubex");
    const auto archive = tar::Archive::load(dir / "padded.cubex");
    CHECK(archive.file("anchor.xml")->size() % 512 == 1);
    CHECK(read_cubex(dir / "padded.cubex").metrics().back().description == std::string(fill, 'x'));
}

TEST_CASE("cube writer: reports CUBE cannot express and unwritable paths are errors") {
    ScratchDir dir;
    Report empty;
    CHECK_THROWS_AS(write_cubex(empty, dir / "empty.cubex"), hindsight::Error);

    auto f = make_fixture();
    Report lonely = f.report;
    lonely.add_location_group({"MPI Rank 3", 3, 0});  // a process without threads
    CHECK_THROWS_WITH(write_cubex(lonely, dir / "lonely.cubex"), Catch::Contains("has no thread"));

    const auto missing = dir / "no-such-dir" / "x.cubex";
    CHECK_THROWS_WITH(write_cubex(f.report, missing), Catch::Contains(missing.string()));
    CHECK_FALSE(std::filesystem::exists(dir / "no-such-dir"));
}
