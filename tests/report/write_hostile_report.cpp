// Writes CUBE reports that try to break hindsight-report:
//
//     write_hostile_report OUT.cubex               names that try to be markup
//     write_hostile_report CASE OUT.cubex [SIZE]   one damaged, hostile or huge report
//     write_hostile_report --list                  the cases, one a line
//
// Without a case: call tree main with one callee per hostile name; metric
// "time" is 1, 2, 3, ... seconds at the callees in order (0 at main), on one
// rank (the page test checks that the names are shown as text).
//
// The cases are built from a small sound report, "base": metrics time (sec)
// and visits (occ, UINT64); call paths main and main/solve; ranks 0 and 1
// with one thread each; time main 1, 2 and solve 3, 4; visits 1 everywhere.
// Each case changes that report's bytes in one way; what hindsight-report
// must make of each is in check_hostile_reports.py. The huge cases
// (nested-metrics, flat-metrics, deep-calls, wide-calls) take SIZE, the
// number of metrics or call paths, and hold time 1 s on rank 0 at each.
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <iterator>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/cube/tar.hpp"
#include "common/cube/writer.hpp"
#include "common/error.hpp"
#include "tests/report/report_fixture.hpp"
#include "tests/report/scorep_shaped_report.hpp"

namespace {

using namespace hindsight::cube;
namespace fs = std::filesystem;
using hindsight::testing::add_member;
using hindsight::testing::region_named;

// --- building blocks --------------------------------------------------------

std::string file_bytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The bytes of `report` as write_cubex writes them.
std::string cubex_bytes(const Report& report, const fs::path& scratch) {
    write_cubex(report, scratch);
    std::string bytes = file_bytes(scratch);
    fs::remove(scratch);
    return bytes;
}

struct Member {
    std::string name;
    std::string contents;
};

std::vector<Member> members_of(const std::string& cubex) {
    const tar::Archive archive = tar::Archive::parse(cubex, "base");
    std::vector<Member> members;
    for (const auto& m : archive.members()) members.push_back({m.name, std::string(*archive.file(m.name))});
    return members;
}

std::string& contents(std::vector<Member>& members, const std::string& name) {
    for (Member& m : members)
        if (m.name == name) return m.contents;
    throw std::logic_error("no member " + name);
}

// `text` with its first `from` replaced by `to`; `from` must be there.
std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    if (at == std::string::npos) throw std::logic_error("'" + from + "' not found");
    return text.replace(at, from.size(), to);
}

const std::string kEnd(1024, '\0');  // the end-of-archive blocks

std::string archive_of(const std::vector<Member>& members) {
    std::string tar;
    for (const Member& m : members) add_member(tar, m.name, m.contents);
    return tar + kEnd;
}

// A tar header of another type than a regular file (type '1': hard link,
// '2': symbolic link) pointing at `target`, with a right checksum.
std::string link_member(const std::string& name, char type, const std::string& target) {
    std::string tar;
    add_member(tar, name, "");
    tar[156] = type;
    std::memcpy(tar.data() + 157, target.data(), target.size());
    std::memset(tar.data() + 148, ' ', 8);
    unsigned sum = 0;
    for (std::size_t i = 0; i < 512; ++i) sum += static_cast<unsigned char>(tar[i]);
    std::snprintf(tar.data() + 148, 8, "%06o", sum);
    tar[155] = ' ';
    return tar;
}

Report base_report() {
    Report r;
    const MetricIndex time = r.add_metric({"time", "Time", "sec", "", "", DataType::Double, kNone});
    const MetricIndex visits = r.add_metric({"visits", "Visits", "occ", "", "", DataType::Uint64, kNone});
    const CnodeIndex main_cnode = r.add_cnode(r.add_region(region_named("main")), kNone);
    const CnodeIndex solve = r.add_cnode(r.add_region(region_named("solve")), main_cnode);
    hindsight::testing::add_ranks(r, 2);
    r.set_value(time, main_cnode, 0, 1);
    r.set_value(time, main_cnode, 1, 2);
    r.set_value(time, solve, 0, 3);
    r.set_value(time, solve, 1, 4);
    for (const CnodeIndex c : {main_cnode, solve})
        for (LocationIndex l = 0; l < 2; ++l) r.set_value(visits, c, l, 1);
    return r;
}

// The base report's members with anchor.xml passed through `change`.
std::string with_anchor(const fs::path& scratch, const std::function<std::string(std::string)>& change) {
    std::vector<Member> members = members_of(cubex_bytes(base_report(), scratch));
    contents(members, "anchor.xml") = change(contents(members, "anchor.xml"));
    return archive_of(members);
}

template <typename T>
void put_le(std::string& out, T value) {
    for (std::size_t i = 0; i < sizeof(T); ++i)
        out += static_cast<char>((static_cast<std::uint64_t>(value) >> (8 * i)) & 0xff);
}

// --- the cases --------------------------------------------------------------

using Maker = std::function<std::string(const fs::path& scratch, std::size_t size)>;

std::string entity_declaration(const std::string& doctype, const std::string& use, const fs::path& scratch) {
    return with_anchor(scratch, [&](std::string a) {
        a = replaced(a, "<cube version", doctype + "\n<cube version");
        return replaced(a, "<name>solve</name>", "<name>" + use + "</name>");
    });
}

// A ZCUBEX.DATA member of one zlib block inflating to `raw`.
std::string compressed_data(const std::string& raw) {
    const std::string stream = hindsight::testing::compressed(raw);
    std::string data = "ZCUBEX.DATA";
    put_le<std::uint64_t>(data, 1);
    put_le<std::uint64_t>(data, 0);
    put_le<std::uint64_t>(data, 0);
    put_le<std::uint64_t>(data, stream.size());
    return data + stream;
}

// The base report with time's data a zlib stream that inflates to
// `inflated` bytes of zeros; time's type is `dtype`.
std::string compression_bomb(const fs::path& scratch, std::size_t inflated, const std::string& dtype) {
    std::vector<Member> members = members_of(cubex_bytes(base_report(), scratch));
    std::string& anchor = contents(members, "anchor.xml");
    anchor = replaced(anchor, "<dtype>FLOAT</dtype>", "<dtype>" + dtype + "</dtype>");
    contents(members, "0.data") = compressed_data(std::string(inflated, '\0'));
    return archive_of(members);
}

Report one_rank_report() {
    Report r;
    hindsight::testing::add_ranks(r, 1);
    return r;
}

const std::map<std::string, Maker>& cases() {
    static const std::map<std::string, Maker> all{
        {"base", [](const fs::path& s, std::size_t) { return cubex_bytes(base_report(), s); }},
        // --- the archive
        {"empty-anchor", [](const fs::path& s, std::size_t) { return with_anchor(s, [](std::string) { return ""; }); }},
        {"blank-anchor",
         [](const fs::path& s, std::size_t) { return with_anchor(s, [](std::string) { return "\n  \n"; }); }},
        {"symlink-anchor",
         [](const fs::path& s, std::size_t) {
             std::vector<Member> members = members_of(cubex_bytes(base_report(), s));
             std::string tar = link_member("anchor.xml", '2', "/etc/passwd");
             for (const Member& m : members)
                 if (m.name != "anchor.xml") add_member(tar, m.name, m.contents);
             return tar + kEnd;
         }},
        {"hardlink-anchor",
         [](const fs::path& s, std::size_t) {
             std::vector<Member> members = members_of(cubex_bytes(base_report(), s));
             std::string tar = link_member("anchor.xml", '1', "../../etc/passwd");
             for (const Member& m : members)
                 if (m.name != "anchor.xml") add_member(tar, m.name, m.contents);
             return tar + kEnd;
         }},
        {"symlink-data",
         [](const fs::path& s, std::size_t) {
             std::vector<Member> members = members_of(cubex_bytes(base_report(), s));
             std::string tar;
             for (const Member& m : members) {
                 if (m.name == "0.data") tar += link_member("0.data", '2', "/etc/passwd");
                 else add_member(tar, m.name, m.contents);
             }
             return tar + kEnd;
         }},
        {"traversal-members",
         [](const fs::path& s, std::size_t) {
             std::vector<Member> members = members_of(cubex_bytes(base_report(), s));
             members.push_back({"../hindsight-escaped.txt", "outside"});
             members.push_back({"/tmp/hindsight-escaped-absolute.txt", "outside"});
             members.push_back({"deeper/../../hindsight-escaped-2.txt", "outside"});
             return archive_of(members);
         }},
        {"duplicate-anchor",
         [](const fs::path& s, std::size_t) {
             std::vector<Member> members = members_of(cubex_bytes(base_report(), s));
             // As `tar -rf REPORT.cubex anchor.xml` appends an emptied one:
             // tar's extraction would take this one, a first-match reader
             // the first.
             members.push_back({"anchor.xml", ""});
             return archive_of(members);
         }},
        {"huge-member-size",
         [](const fs::path& s, std::size_t) {
             std::string tar = cubex_bytes(base_report(), s);
             // The first member's size field: 11 octal digits, 8 GiB - 1.
             std::memcpy(tar.data() + 124, "77777777777", 11);
             return tar;
         }},
        // --- anchor.xml
        {"not-xml", [](const fs::path& s, std::size_t) {
             return with_anchor(s, [](std::string a) { return a.substr(0, a.size() / 2); });
         }},
        {"binary-anchor", [](const fs::path& s, std::size_t) {
             return with_anchor(s, [](std::string) { return std::string("\x00\x01\x02<\xff\xfe>", 7); });
         }},
        {"billion-laughs", [](const fs::path& s, std::size_t) {
             std::string doctype = "<!DOCTYPE cube [\n <!ENTITY lol0 \"lol\">\n";
             for (int i = 1; i < 10; ++i)
                 doctype += " <!ENTITY lol" + std::to_string(i) + " \"" +
                            [&] { std::string x; for (int k = 0; k < 10; ++k) x += "&lol" + std::to_string(i - 1) + ";"; return x; }() +
                            "\">\n";
             return entity_declaration(doctype + "]>", "&lol9;", s);
         }},
        {"external-entity", [](const fs::path& s, std::size_t) {
             return entity_declaration("<!DOCTYPE cube [ <!ENTITY secret SYSTEM \"file:///etc/passwd\"> ]>", "&secret;", s);
         }},
        {"undeclared-entity",
         [](const fs::path& s, std::size_t) { return entity_declaration("", "&secret;", s); }},
        {"duplicate-cnode-id", [](const fs::path& s, std::size_t) {
             // main/solve takes its caller's id: a call path that would be its own parent by id.
             return with_anchor(s, [](std::string a) { return replaced(a, "<cnode id=\"1\"", "<cnode id=\"0\""); });
         }},
        {"duplicate-region-id", [](const fs::path& s, std::size_t) {
             return with_anchor(s, [](std::string a) { return replaced(a, "<region id=\"1\"", "<region id=\"0\""); });
         }},
        {"duplicate-metric-name", [](const fs::path& s, std::size_t) {
             return with_anchor(s, [](std::string a) { return replaced(a, "<uniq_name>visits<", "<uniq_name>time<"); });
         }},
        {"negative-id", [](const fs::path& s, std::size_t) {
             return with_anchor(s, [](std::string a) { return replaced(a, "<cnode id=\"1\"", "<cnode id=\"-1\""); });
         }},
        {"huge-id", [](const fs::path& s, std::size_t) {
             return with_anchor(s, [](std::string a) { return replaced(a, "<cnode id=\"1\"", "<cnode id=\"4294967295\""); });
         }},
        {"many-attributes", [](const fs::path& s, std::size_t) {
             // One element with 200,000 attributes.
             return with_anchor(s, [](std::string a) {
                 std::string many;
                 for (int i = 0; i < 200000; ++i) many += " a" + std::to_string(i) + "=\"\"";
                 return replaced(a, "<cube version=\"4.4\"", "<cube version=\"4.4\"" + many);
             });
         }},
        {"many-report-attributes", [](const fs::path& s, std::size_t) {
             // 200,000 report attributes (<attr>), each its own key.
             Report r = base_report();
             for (int i = 0; i < 200000; ++i) r.set_attribute("key" + std::to_string(i), "value");
             return cubex_bytes(r, s);
         }},
        {"control-names", [](const fs::path& s, std::size_t) {
             // Region names with a line break, a carriage return, a tab, a
             // terminal escape sequence and a C1 control (CSI, U+009B).
             return with_anchor(s, [](std::string a) {
                 a = replaced(a, "<name>main</name>", "<name>ma&#10;in&#13;x</name>");
                 return replaced(a, "<name>solve</name>", "<name>so\tlve&#27;[31mred\xc2\x9b</name>");
             });
         }},
        // --- values
        {"callee-exceeds-caller", [](const fs::path& s, std::size_t) {
             // time stored call-tree INCLUSIVE: main 1, 2 and solve 3, 4, so
             // main's exclusive time is 1 - 3 = -2 and 2 - 4 = -2 s.
             return with_anchor(s, [](std::string a) { return replaced(a, "type=\"EXCLUSIVE\"", "type=\"INCLUSIVE\""); });
         }},
        {"not-finite", [](const fs::path& s, std::size_t) {
             Report r = base_report();
             r.set_value(r.find_metric("time"), 1, 0, std::numeric_limits<double>::quiet_NaN());
             r.set_value(r.find_metric("time"), 1, 1, std::numeric_limits<double>::infinity());
             return cubex_bytes(r, s);
         }},
        {"huge-index-count", [](const fs::path& s, std::size_t) {
             std::vector<Member> members = members_of(cubex_bytes(base_report(), s));
             std::string& index = contents(members, "0.index");
             std::memcpy(index.data() + 18, "\xff\xff\xff\xff", 4);  // N after marker, 1, version, format
             return archive_of(members);
         }},
        {"dense-index-short-data", [](const fs::path& s, std::size_t) {
             std::vector<Member> members = members_of(cubex_bytes(base_report(), s));
             std::string& index = contents(members, "0.index");
             index = index.substr(0, 17) + "\x03";  // dense: every row, but the data holds 2
             contents(members, "0.data") = "CUBEX.DATA";
             return archive_of(members);
         }},
        {"compression-bomb", [](const fs::path& s, std::size_t) { return compression_bomb(s, 200u << 20, "DOUBLE"); }},
        {"compression-bomb-opaque",
         [](const fs::path& s, std::size_t) { return compression_bomb(s, 200u << 20, "SCALE_FUNC"); }},
        {"declared-size-bomb", [](const fs::path&, std::size_t) {
             // 20,000 call paths x 20,000 locations x 2,000 metrics with data:
             // 6.4 TB of values, declared in a few megabytes (each metric's
             // one row compresses to a few hundred bytes).
             const int cnodes = 20000, locations = 20000, metrics = 2000;
             std::string a = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<cube version=\"4.4\">\n<metrics>\n";
             for (int m = 0; m < metrics; ++m)
                 a += "<metric id=\"" + std::to_string(m) + "\"><uniq_name>m" + std::to_string(m) +
                      "</uniq_name><dtype>DOUBLE</dtype></metric>\n";
             a += "</metrics>\n<program>\n<region id=\"0\"><name>f</name></region>\n";
             for (int c = 0; c < cnodes; ++c) a += "<cnode id=\"" + std::to_string(c) + "\" calleeId=\"0\"/>\n";
             a += "</program>\n<system>\n<systemtreenode Id=\"0\"><name>m</name><locationgroup Id=\"0\"><name>p</name><rank>0</rank>\n";
             for (int l = 0; l < locations; ++l)
                 a += "<location Id=\"" + std::to_string(l) + "\"><rank>" + std::to_string(l) + "</rank></location>\n";
             a += "</locationgroup></systemtreenode>\n</system>\n</cube>\n";
             std::string tar;
             add_member(tar, "anchor.xml", a);
             std::string index = "CUBEX.INDEX";
             put_le<std::uint32_t>(index, 1);
             put_le<std::uint16_t>(index, 0);
             put_le<std::uint8_t>(index, 1);
             put_le<std::uint32_t>(index, 1);
             put_le<std::uint32_t>(index, 0);
             const std::string data = compressed_data(std::string(8 * locations, '\x01'));
             for (int m = 0; m < metrics; ++m) {
                 add_member(tar, std::to_string(m) + ".index", index);
                 add_member(tar, std::to_string(m) + ".data", data);
             }
             return tar + kEnd;
         }},
        // --- huge, and sound
        {"nested-metrics", [](const fs::path& s, std::size_t n) {
             Report r = one_rank_report();
             const CnodeIndex main_cnode = r.add_cnode(r.add_region(region_named("main")), kNone);
             MetricIndex parent = kNone;
             for (std::size_t m = 0; m < n; ++m) {
                 parent = r.add_metric({"m" + std::to_string(m), "M" + std::to_string(m), "sec", "", "",
                                        DataType::Double, parent});
                 r.set_value(parent, main_cnode, 0, 1.0);
             }
             return cubex_bytes(r, s);
         }},
        {"flat-metrics", [](const fs::path& s, std::size_t n) {
             Report r = one_rank_report();
             const CnodeIndex main_cnode = r.add_cnode(r.add_region(region_named("main")), kNone);
             for (std::size_t m = 0; m < n; ++m)
                 r.set_value(r.add_metric({"m" + std::to_string(m), "M" + std::to_string(m), "sec", "", "",
                                           DataType::Double, kNone}),
                             main_cnode, 0, 1.0);
             return cubex_bytes(r, s);
         }},
        {"deep-calls", [](const fs::path& s, std::size_t n) {
             // A chain main/f1/f2/..., its regions taken round from 1000.
             Report r = one_rank_report();
             const MetricIndex time = r.add_metric({"time", "Time", "sec", "", "", DataType::Double, kNone});
             r.add_region(region_named("main"));
             for (int f = 1; f <= 1000; ++f) r.add_region(region_named("f" + std::to_string(f)));
             CnodeIndex parent = kNone;
             for (std::size_t c = 0; c < n; ++c) {
                 parent = r.add_cnode(c == 0 ? 0 : static_cast<RegionIndex>(1 + (c - 1) % 1000), parent);
                 r.set_value(time, parent, 0, 1.0);
             }
             return cubex_bytes(r, s);
         }},
        {"wide-calls", [](const fs::path& s, std::size_t n) {
             // main with n - 1 callees, each region its own (call paths
             // that differ only in their region are told apart by it).
             Report r = one_rank_report();
             const MetricIndex time = r.add_metric({"time", "Time", "sec", "", "", DataType::Double, kNone});
             const CnodeIndex main_cnode = r.add_cnode(r.add_region(region_named("main")), kNone);
             r.set_value(time, main_cnode, 0, 1.0);
             for (std::size_t c = 1; c < n; ++c)
                 r.set_value(time, r.add_cnode(r.add_region(region_named("f" + std::to_string(c))), main_cnode), 0, 1.0);
             return cubex_bytes(r, s);
         }},
    };
    return all;
}

int write_markup_names(const char* out) {
    Report report;
    const MetricIndex time = report.add_metric({"time", "Time \"&\" <b>bold</b>", "sec", "Allocation <i>time</i>", "",
                                                DataType::Double, kNone});
    const CnodeIndex main_cnode = report.add_cnode(report.add_region(region_named("main")), kNone);
    const SystemNodeIndex machine = report.add_system_node({"<b>machine</b>", "machine", "", kNone});
    const LocationGroupIndex rank = report.add_location_group({"MPI Rank 0", 0, machine});
    const LocationIndex thread = report.add_location({"Master thread", 0, rank});
    double seconds = 1.0;
    for (const char* name : hindsight::testing::kHostileNames) {
        const CnodeIndex c = report.add_cnode(report.add_region(region_named(name)), main_cnode);
        report.set_value(time, c, thread, seconds);
        seconds += 1.0;
    }
    write_cubex(report, out);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    const std::string usage = "usage: write_hostile_report OUT.cubex | CASE OUT.cubex [SIZE] | --list\n";
    try {
        if (argc == 2 && std::string(argv[1]) == "--list") {
            for (const auto& [name, make] : cases()) std::cout << name << '\n';
            return 0;
        }
        if (argc == 2) return write_markup_names(argv[1]);
        if (argc != 3 && argc != 4) {
            std::cerr << usage;
            return 2;
        }
        const auto found = cases().find(argv[1]);
        if (found == cases().end()) {
            std::cerr << "no case " << argv[1] << "\n" << usage;
            return 2;
        }
        const fs::path out = argv[2];
        const std::size_t size = argc == 4 ? std::stoull(argv[3]) : 1000;
        const std::string bytes = found->second(fs::path(out.string() + ".scratch"), size);
        std::ofstream file(out, std::ios::binary | std::ios::trunc);
        file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        file.close();
        if (!file) throw hindsight::Error(out.string(), "cannot write");
    } catch (const std::exception& e) {
        std::cerr << e.what() << '\n';
        return 1;
    }
    return 0;
}
