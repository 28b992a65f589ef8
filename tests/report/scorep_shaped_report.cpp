#include "tests/report/scorep_shaped_report.hpp"

#include <zlib.h>

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace hindsight::testing {

namespace {

constexpr std::size_t kBlock = 512;

template <typename T>
void put(std::string& out, T value) {
    const auto bits = static_cast<std::uint64_t>(value);
    for (std::size_t i = 0; i < sizeof(T); ++i) out += static_cast<char>((bits >> (8 * i)) & 0xff);
}
void put_double(std::string& out, double v) { put<std::uint64_t>(out, std::bit_cast<std::uint64_t>(v)); }

std::string octal(std::uint64_t v, std::size_t digits) {
    std::string s(digits, '0');
    for (std::size_t i = digits; i-- > 0; v >>= 3) s[i] = static_cast<char>('0' + (v & 7));
    return s;
}

}  // namespace

void add_member(std::string& tar, const std::string& name, const std::string& contents, bool cube48_checksum) {
    char header[kBlock] = {};
    std::memcpy(header, name.data(), name.size());
    std::memcpy(header + 100, "0000600", 7);
    std::memcpy(header + 108, "0000000", 7);
    std::memcpy(header + 116, "0000000", 7);
    std::memcpy(header + 124, octal(contents.size(), 11).data(), 11);
    std::memcpy(header + 136, octal(1700000000, 11).data(), 11);
    header[156] = '0';
    std::memcpy(header + 257, "ustar", 6);
    std::memcpy(header + 263, "00", 2);
    std::memset(header + 148, ' ', 8);
    std::uint64_t sum = 0;
    for (const char c : header) sum += static_cast<unsigned char>(c);
    if (cube48_checksum) sum -= 32;
    std::memcpy(header + 148, octal(sum, 6).data(), 6);
    header[154] = '\0';
    header[155] = ' ';
    tar.append(header, kBlock);
    tar += contents;
    tar.append((kBlock - contents.size() % kBlock) % kBlock, '\0');
}

namespace {

std::string index_of(const std::vector<std::uint32_t>& rows) {
    std::string out = "CUBEX.INDEX";
    put<std::uint32_t>(out, 1);
    put<std::uint16_t>(out, 0);
    put<std::uint8_t>(out, 1);  // sparse
    put<std::uint32_t>(out, static_cast<std::uint32_t>(rows.size()));
    for (const std::uint32_t r : rows) put<std::uint32_t>(out, r);
    return out;
}

std::string doubles(const std::vector<double>& values) {
    std::string out = "CUBEX.DATA";
    for (const double v : values) put_double(out, v);
    return out;
}

}  // namespace

std::string compressed(const std::string& raw) {
    uLongf size = compressBound(static_cast<uLong>(raw.size()));
    std::string out(size, '\0');
    if (compress(reinterpret_cast<Bytef*>(out.data()), &size, reinterpret_cast<const Bytef*>(raw.data()),
                 static_cast<uLong>(raw.size())) != Z_OK)
        throw std::runtime_error("zlib compress failed");
    out.resize(size);
    return out;
}

namespace {

// ZCUBEX.DATA with one zlib block per row.
std::string compressed_doubles(const std::vector<std::vector<double>>& rows) {
    std::vector<std::string> blocks;
    for (const auto& row : rows) blocks.push_back(compressed(doubles(row).substr(10)));
    std::string out = "ZCUBEX.DATA";
    put<std::uint64_t>(out, blocks.size());
    std::uint64_t raw_at = 0, packed_at = 0;
    for (std::size_t i = 0; i < blocks.size(); ++i) {
        put<std::uint64_t>(out, raw_at);
        put<std::uint64_t>(out, packed_at);
        put<std::uint64_t>(out, blocks[i].size());
        raw_at += rows[i].size() * 8;
        packed_at += blocks[i].size();
    }
    for (const std::string& b : blocks) out += b;
    return out;
}

std::string metric_xml(int id, const char* type, const char* name, const char* dtype, const char* unit,
                       const char* extra = "") {
    return std::string("  <metric id=\"") + std::to_string(id) + "\" type=\"" + type + "\">\n   <disp_name>" + name +
           "</disp_name>\n   <uniq_name>" + name + "</uniq_name>\n   <dtype>" + dtype + "</dtype>\n   <uom>" + unit +
           "</uom>\n   <url></url>\n   <descr>" + name + "</descr>\n" + extra + "  </metric>\n";
}

std::string anchor() {
    std::string a = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\n<cube version=\"4.4\">\n"
                    "<attr key=\"Creator\" value=\"Score-P 8.0\"/>\n<attr key=\"CUBE_CT_AGGR\" value=\"SUM\"/>\n"
                    "<doc><mirrors><murl>http://example.org/doc/</murl></mirrors></doc>\n<metrics>\n";
    a += metric_xml(0, "EXCLUSIVE", "visits", "UINT64", "occ");
    a += metric_xml(1, "INCLUSIVE", "time", "DOUBLE", "sec");
    a += metric_xml(2, "EXCLUSIVE", "min_time", "MINDOUBLE", "sec");
    a += metric_xml(3, "EXCLUSIVE", "max_time", "MAXDOUBLE", "sec");
    a += metric_xml(4, "EXCLUSIVE", "delta", "INT8", "occ");
    a += metric_xml(5, "EXCLUSIVE", "counter", "UINT16", "occ");
    a += metric_xml(6, "EXCLUSIVE", "msg_size", "TAU_ATOMIC", "bytes");
    a += metric_xml(7, "EXCLUSIVE", "flops", "DOUBLE", "occ");
    a += metric_xml(8, "POSTDERIVED", "avg_time", "DOUBLE", "sec",
                    (std::string("   <cubepl>") + kDerivedExpression + "</cubepl>\n").c_str());
    a += "</metrics>\n<program>\n";
    const char* regions[] = {"main", "foo", "baz", "bar"};
    for (int r = 0; r < 4; ++r)
        a += std::string(" <region id=\"") + std::to_string(r) + "\" mod=\"app.c\" begin=\"" + std::to_string(10 * r + 1) +
             "\" end=\"-1\">\n  <name>" + regions[r] + "</name>\n  <mangled_name>" + regions[r] +
             "</mangled_name>\n  <paradigm>compiler</paradigm>\n  <role>function</role>\n  <url></url>\n  <descr></descr>\n </region>\n";
    // Score-P numbers call paths in the order it met them, not in preorder.
    a += " <cnode id=\"0\" calleeId=\"0\">\n  <cnode id=\"2\" calleeId=\"1\">\n   <cnode id=\"3\" calleeId=\"2\">\n   </cnode>\n"
         "  </cnode>\n  <cnode id=\"1\" calleeId=\"3\">\n  </cnode>\n </cnode>\n</program>\n<system>\n"
         " <systemtreenode Id=\"0\">\n  <name>cluster</name>\n  <class>machine</class>\n"
         "  <systemtreenode Id=\"1\">\n   <name>node0</name>\n   <class>node</class>\n";
    for (int p = 0; p < 2; ++p)
        a += "   <locationgroup Id=\"" + std::to_string(p) + "\">\n    <name>MPI Rank " + std::to_string(p) + "</name>\n    <rank>" +
             std::to_string(p) + "</rank>\n    <type>process</type>\n    <location Id=\"" + std::to_string(p) +
             "\">\n     <name>Master thread</name>\n     <rank>0</rank>\n     <type>thread</type>\n    </location>\n   </locationgroup>\n";
    a += "  </systemtreenode>\n </systemtreenode>\n <topologies>\n </topologies>\n</system>\n</cube>\n";
    return a;
}

}  // namespace

std::string scorep_shaped_report() {
    // Rows of exclusive metrics in preorder: 0 main, 1 foo, 2 baz, 3 bar;
    // of inclusive ones main, foo, bar, baz.
    std::string tar;
    add_member(tar, "anchor.xml", anchor());
    add_member(tar, "remapping.spec", "<remapping/>\n");  // Score-P's; not part of the data
    // CubeLib 4.8's wrong checksum, on one header.
    add_member(tar, "0.index", index_of({0, 1, 2, 3}), true);
    std::string visits = "CUBEX.DATA";
    for (const std::uint64_t v : {1, 1, 10, 20, 5, 0, 2, 2}) put<std::uint64_t>(visits, v);
    add_member(tar, "0.data", visits);
    add_member(tar, "1.index", index_of({0, 1, 2, 3}));
    add_member(tar, "1.data", doubles({8, 6, 4.5, 3, 2.5, 1, 0.5, 0}));
    add_member(tar, "2.index", index_of({0, 1, 2, 3}));
    add_member(tar, "2.data", doubles({8, 6, 0.25, 0.5, 0.5, 0, 1.25, 1}));
    add_member(tar, "3.index", index_of({0, 1, 2, 3}));
    add_member(tar, "3.data", doubles({8, 6, 2, 3, 0.5, 0, 2.5, 1}));
    add_member(tar, "4.index", index_of({0, 1, 3}));
    std::string delta = "CUBEX.DATA";
    for (const std::int8_t v : {-3, 5, 0, -1, 7, 0}) put<std::uint8_t>(delta, static_cast<std::uint8_t>(v));
    add_member(tar, "4.data", delta);
    add_member(tar, "5.index", index_of({0}));
    std::string counter = "CUBEX.DATA";
    for (const std::uint16_t v : {300, 65535}) put<std::uint16_t>(counter, v);
    add_member(tar, "5.data", counter);
    add_member(tar, "6.index", index_of({1}));
    std::string atomic = "CUBEX.DATA";
    for (const auto& [n, lo, hi, sum, sum2] : {std::array{2.0, 10.0, 30.0, 40.0, 1000.0}, std::array{1.0, 7.0, 7.0, 7.0, 49.0}}) {
        put<std::uint32_t>(atomic, static_cast<std::uint32_t>(n));
        for (const double v : {lo, hi, sum, sum2}) put_double(atomic, v);
    }
    add_member(tar, "6.data", atomic);
    add_member(tar, "7.index", index_of({1, 3}));
    add_member(tar, "7.data", compressed_doubles({{100, 200}, {300, 400}}));
    add_member(tar, "misc.meta", "free text a CUBE writer may add\n");
    tar.append(2 * kBlock, '\0');
    return tar;
}

}  // namespace hindsight::testing
