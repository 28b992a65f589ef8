// The page's data: JSON strings, base64, gzip, and the binary layout the
// page's script decodes (report/page_data.hpp).
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <zlib.h>

#include "report/compression.hpp"
#include "common/text_fields.hpp"
#include "report/page.hpp"
#include "report/page_data.hpp"
#include "tests/report/report_fixture.hpp"

using namespace hindsight;
using namespace hindsight::report;

namespace {

std::string gunzip(const std::string& packed) {
    z_stream stream{};
    REQUIRE(inflateInit2(&stream, 15 + 16) == Z_OK);
    std::string out(1 << 20, '\0');
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(packed.data()));
    stream.avail_in = static_cast<uInt>(packed.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = static_cast<uInt>(out.size());
    const int status = inflate(&stream, Z_FINISH);
    inflateEnd(&stream);
    REQUIRE(status == Z_STREAM_END);
    out.resize(stream.total_out);
    return out;
}

// Reads the layout of report/page_data.hpp.
struct Reader {
    const std::string& bytes;
    std::size_t at = 0;
    std::uint32_t u32() {
        std::uint32_t v;
        std::memcpy(&v, bytes.data() + at, 4);
        at += 4;
        return v;
    }
    // n values stored as byte planes.
    std::vector<double> f64s(std::size_t n) {
        std::vector<unsigned char> joined(8 * n);
        for (std::size_t plane = 0; plane < 8; ++plane)
            for (std::size_t i = 0; i < n; ++i) joined[8 * i + plane] = static_cast<unsigned char>(bytes[at++]);
        std::vector<double> values(n);
        std::memcpy(values.data(), joined.data(), joined.size());
        return values;
    }
};

// Two metrics (time, with the sub-metric mpi), call paths main -> work,
// three locations; own shares set by hand.
cube::Report small_report() {
    using namespace hindsight::cube;
    Report r;
    const MetricIndex time = testing::add_seconds_metric(r, "time", "Time", kNone);
    const MetricIndex mpi = testing::add_seconds_metric(r, "mpi", "MPI", time);
    const CnodeIndex main_cnode = r.add_cnode(r.add_region(testing::region_named("main")), kNone);
    const CnodeIndex work = r.add_cnode(r.add_region(testing::region_named("work")), main_cnode);
    testing::add_ranks(r, 3);
    // time's own share: 1 s on every location at main (a dense row);
    // mpi: 2 s at work on location 1 only (a sparse row).
    for (LocationIndex l = 0; l < 3; ++l) r.set_value(time, main_cnode, l, 1.0);
    r.set_value(mpi, work, 1, 2.0);
    return r;
}

}  // namespace

TEST_CASE("JSON strings escape what JSON and HTML need and repair UTF-8", "[report]") {
    CHECK(json_string("plain") == "\"plain\"");
    CHECK(json_string("a\"b\\c") == "\"a\\\"b\\\\c\"");
    CHECK(json_string("line\nnext\x01") == "\"line\\nnext\\u0001\"");
    CHECK(json_string("</script>") == "\"\\u003c/script>\"");
    CHECK(json_string("\xFC" "ber") == "\"\xEF\xBF\xBD" "ber\"");
    CHECK(json_number(0.5) == "0.5");
    CHECK(json_number(1.0 / 0.0) == "null");
}

TEST_CASE("base64 follows RFC 4648's test vectors", "[report]") {
    CHECK(base64("") == "");
    CHECK(base64("f") == "Zg==");
    CHECK(base64("fo") == "Zm8=");
    CHECK(base64("foo") == "Zm9v");
    CHECK(base64("foob") == "Zm9vYg==");
    CHECK(base64("fooba") == "Zm9vYmE=");
    CHECK(base64("foobar") == "Zm9vYmFy");
    CHECK(base64(std::string("\xff\x00\xfe", 3)) == "/wD+");
}

TEST_CASE("gzip output is a gzip member that inflates back", "[report]") {
    const std::string text = std::string(10000, 'a') + "tail";
    const std::string packed = gzip(text);
    REQUIRE(packed.size() > 2);
    CHECK(static_cast<unsigned char>(packed[0]) == 0x1f);
    CHECK(static_cast<unsigned char>(packed[1]) == 0x8b);
    CHECK(packed.size() < 200);
    CHECK(gunzip(packed) == text);
}

TEST_CASE("page data: structure, then each metric's non-zero rows as stored", "[report]") {
    const std::string bytes = encode_page_data(small_report(), "small");
    Reader in{bytes};
    const std::uint32_t length = in.u32();
    const std::string structure = bytes.substr(4, length);
    CHECK(structure.find("\"title\":\"small\"") != std::string::npos);
    CHECK(structure.find("\"cnodes\":[[0,-1],[1,0]]") != std::string::npos);
    CHECK(structure.find("\"groups\":[[\"MPI Rank 0\",0,0],[\"MPI Rank 1\",1,0],[\"MPI Rank 2\",2,0]]") !=
          std::string::npos);
    CHECK(length % 4 == 0);
    in.at += length;

    // time includes mpi: main dense (1, 1, 1), work sparse (location 1: 2).
    REQUIRE(in.u32() == 2);
    CHECK(in.u32() == 0);  // call paths
    CHECK(in.u32() == 1);
    CHECK(in.u32() == 3);  // counts
    CHECK(in.u32() == 1);
    REQUIRE(in.u32() == 1);  // listed locations: work's only
    CHECK(in.u32() == 1);
    CHECK(in.f64s(4) == std::vector<double>{1.0, 1.0, 1.0, 2.0});
    // mpi: work only.
    REQUIRE(in.u32() == 1);
    CHECK(in.u32() == 1);
    CHECK(in.u32() == 1);
    REQUIRE(in.u32() == 1);
    CHECK(in.u32() == 1);
    CHECK(in.f64s(1) == std::vector<double>{2.0});
    CHECK(in.at == bytes.size());
}

TEST_CASE("the page embeds names only inside its compressed data", "[report]") {
    cube::Report r = small_report();
    for (const char* name : testing::kHostileNames) r.add_cnode(r.add_region(testing::region_named(name)), 0);
    const std::string page = page_html(r, "</script><b>title</b>");
    // The template's own four scripts (three data, one code) end, and nothing else does.
    std::size_t ends = 0;
    for (auto at = page.find("</script>"); at != std::string::npos; at = page.find("</script>", at + 1)) ++ends;
    CHECK(ends == 4);
    CHECK(page.find("<b>title") == std::string::npos);
    CHECK(page.find("onerror") == std::string::npos);
    CHECK(page.find("://") == std::string::npos);  // nothing to fetch
}
