#include "report/page_data.hpp"

#include <bit>
#include <cstdint>
#include <cstring>
#include <vector>

#include "report/findings.hpp"
#include "common/text_fields.hpp"
#include "report/stored_values.hpp"

namespace hindsight::report {

namespace {

static_assert(std::endian::native == std::endian::little, "the page data is written little-endian");

void put_u32(std::string& out, std::uint32_t v) {
    char bytes[4];
    std::memcpy(bytes, &v, 4);
    out.append(bytes, 4);
}

bool integer(cube::DataType type) { return type == cube::DataType::Uint64 || type == cube::DataType::Int64; }

// How the page's script combines the metric's values (report.js, combiner).
const char* aggregate_name(cube::Aggregation how) {
    switch (how) {
    case cube::Aggregation::Minimum: return "min";
    case cube::Aggregation::Maximum: return "max";
    case cube::Aggregation::Sum: break;
    }
    return "sum";
}

// kNone parents become -1 in JSON.
std::string index_json(std::uint32_t index) { return index == cube::kNone ? "-1" : std::to_string(index); }

std::string structure_json(const cube::Report& report, const std::string& title) {
    std::string j = "{\"title\":" + json_string(title) + ",\"findings\":" + findings_json() + ",\"attributes\":[";
    const char* sep = "";
    for (const auto& [key, value] : report.attributes()) {
        j += sep + ("[" + json_string(key) + "," + json_string(value) + "]");
        sep = ",";
    }
    j += "],\"mirrors\":[";
    sep = "";
    for (const std::string& mirror : report.mirrors()) {
        j += sep + json_string(mirror);
        sep = ",";
    }
    j += "],\"metrics\":[";
    sep = "";
    for (cube::MetricIndex index = 0; index < report.metrics().size(); ++index) {
        const cube::Metric& m = report.metrics()[index];
        j += sep + ("{\"name\":" + json_string(m.display_name) + ",\"id\":" + json_string(m.unique_name) +
                    ",\"unit\":" + json_string(m.unit) + ",\"description\":" + json_string(m.description) +
                    ",\"url\":" + json_string(m.url) + ",\"parent\":" + index_json(m.parent) +
                    ",\"integer\":" + (integer(m.data_type) ? "true" : "false") +
                    ",\"aggregate\":\"" + aggregate_name(cube::aggregation_of(m.data_type)) +
                    "\",\"computed\":" + (report.computed(index) ? "true" : "false") +
                    ",\"expression\":" + json_string(report.expression(index)) + "}");
        sep = ",";
    }
    j += "],\"regions\":[";
    sep = "";
    for (const cube::Region& r : report.regions()) {
        j += sep + ("[" + json_string(r.name) + "," + json_string(r.source_file) + "," +
                    std::to_string(r.begin_line) + "]");
        sep = ",";
    }
    j += "],\"cnodes\":[";
    sep = "";
    for (const cube::Cnode& c : report.cnodes()) {
        j += sep + ("[" + std::to_string(c.region) + "," + index_json(c.parent) + "]");
        sep = ",";
    }
    j += "],\"systemNodes\":[";
    sep = "";
    for (const cube::SystemNode& s : report.system_nodes()) {
        j += sep + ("[" + json_string(s.name) + "," + json_string(s.class_name) + "," + index_json(s.parent) + "]");
        sep = ",";
    }
    j += "],\"groups\":[";
    sep = "";
    for (const cube::LocationGroup& g : report.location_groups()) {
        j += sep + ("[" + json_string(g.name) + "," + std::to_string(g.rank) + "," + index_json(g.parent) + "]");
        sep = ",";
    }
    j += "],\"locations\":[";
    sep = "";
    for (const cube::Location& l : report.locations()) {
        j += sep + ("[" + json_string(l.name) + "," + std::to_string(l.rank) + "," + index_json(l.group) + "]");
        sep = ",";
    }
    // Cartesian topologies: their grid and where each location sits in it.
    j += "],\"topologies\":[";
    sep = "";
    const auto list = [](const auto& items, const auto& text) {
        std::string out = "[";
        for (std::size_t i = 0; i < items.size(); ++i) out += (i ? "," : "") + text(items[i]);
        return out + "]";
    };
    const auto number = [](std::int64_t n) { return std::to_string(n); };
    const auto flag = [](bool b) { return std::string(b ? "true" : "false"); };
    for (const cube::CartesianTopology& t : report.topologies()) {
        const auto place = [&](const auto& coord) {
            return "[" + std::to_string(coord.first) + "," + list(coord.second, number) + "]";
        };
        j += sep + ("{\"name\":" + json_string(t.name) + ",\"dims\":" + list(t.dims, number) +
                    ",\"periodic\":" + list(t.periodic, flag) + ",\"coords\":" + list(t.coords, place) + "}");
        sep = ",";
    }
    j += "],\"warnings\":[";
    sep = "";
    for (const std::string& warning : report.warnings()) {
        j += sep + json_string(warning);
        sep = ",";
    }
    return j + "]}";
}

void append_values(std::string& out, const cube::Report& report, cube::MetricIndex m) {
    const std::size_t width = report.locations().size();
    std::vector<std::uint32_t> rows, counts, locations;
    std::vector<double> values;
    if (report.has_values(m)) {
        for (cube::CnodeIndex c = 0; c < report.cnodes().size(); ++c) {
            const std::size_t first_location = locations.size(), first_value = values.size();
            for (cube::LocationIndex l = 0; l < width; ++l) {
                const double v = report.value(m, c, l);
                if (v == 0.0) continue;
                locations.push_back(l);
                values.push_back(v);
            }
            const std::size_t k = values.size() - first_value;
            if (k == 0) continue;
            rows.push_back(c);
            counts.push_back(static_cast<std::uint32_t>(k));
            if (k == width) locations.resize(first_location);  // a dense row lists none
        }
    }
    put_u32(out, static_cast<std::uint32_t>(rows.size()));
    for (const std::uint32_t c : rows) put_u32(out, c);
    for (const std::uint32_t k : counts) put_u32(out, k);
    put_u32(out, static_cast<std::uint32_t>(locations.size()));
    for (const std::uint32_t l : locations) put_u32(out, l);
    if (values.empty()) return;
    std::vector<unsigned char> bytes(8 * values.size());
    std::memcpy(bytes.data(), values.data(), bytes.size());
    for (std::size_t plane = 0; plane < 8; ++plane)
        for (std::size_t i = 0; i < values.size(); ++i) out += static_cast<char>(bytes[8 * i + plane]);
}

}  // namespace

std::string encode_page_data(const cube::Report& report, const std::string& title) {
    cube::Report copy;
    const cube::Report& stored = stored_values(report, copy);
    std::string structure = structure_json(stored, title);
    structure.resize((structure.size() + 3) / 4 * 4, ' ');
    std::string out;
    put_u32(out, static_cast<std::uint32_t>(structure.size()));
    out += structure;
    for (cube::MetricIndex m = 0; m < stored.metrics().size(); ++m) append_values(out, stored, m);
    return out;
}

}  // namespace hindsight::report
