#include "common/file_calls.hpp"

#include <array>
#include <string_view>

namespace hindsight {

using metrics::Metric;
namespace {

using Kind = FileCall::Kind;

struct FileCallName {
    std::string_view suffix;  // after "MPI_File_"
    Kind kind;
};

// Scalasca's classes by name. Reads and writes tell themselves apart by
// their names; management calls that concern one rank's view are those
// that delete, get or seek.
constexpr std::array<FileCallName, 55> kFileCalls{{
    {"close", Kind::Management}, {"delete", Kind::Management}, {"get_amode", Kind::Management},
    {"get_atomicity", Kind::Management}, {"get_byte_offset", Kind::Management}, {"get_group", Kind::Management},
    {"get_info", Kind::Management}, {"get_position", Kind::Management}, {"get_position_shared", Kind::Management},
    {"get_size", Kind::Management}, {"get_type_extent", Kind::Management}, {"get_view", Kind::Management},
    {"open", Kind::Management}, {"preallocate", Kind::Management}, {"seek", Kind::Management},
    {"seek_shared", Kind::Management}, {"set_atomicity", Kind::Management}, {"set_info", Kind::Management},
    {"set_size", Kind::Management}, {"set_view", Kind::Management}, {"sync", Kind::Management},

    {"read", Kind::Individual}, {"write", Kind::Individual}, {"read_at", Kind::Individual},
    {"write_at", Kind::Individual}, {"read_shared", Kind::Individual}, {"write_shared", Kind::Individual},
    {"iread", Kind::Individual}, {"iwrite", Kind::Individual}, {"iread_at", Kind::Individual},
    {"iwrite_at", Kind::Individual}, {"iread_shared", Kind::Individual}, {"iwrite_shared", Kind::Individual},

    {"read_all", Kind::Collective}, {"write_all", Kind::Collective}, {"read_at_all", Kind::Collective},
    {"write_at_all", Kind::Collective}, {"read_ordered", Kind::Collective}, {"write_ordered", Kind::Collective},
    {"read_all_begin", Kind::Collective}, {"write_all_begin", Kind::Collective},
    {"read_at_all_begin", Kind::Collective}, {"write_at_all_begin", Kind::Collective},
    {"read_ordered_begin", Kind::Collective}, {"write_ordered_begin", Kind::Collective},
    {"read_all_end", Kind::Collective}, {"write_all_end", Kind::Collective},
    {"read_at_all_end", Kind::Collective}, {"write_at_all_end", Kind::Collective},
    {"read_ordered_end", Kind::Collective}, {"write_ordered_end", Kind::Collective},
    {"iread_all", Kind::Collective}, {"iwrite_all", Kind::Collective}, {"iread_at_all", Kind::Collective},
    {"iwrite_at_all", Kind::Collective},
}};

bool contains(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

}  // namespace

FileCall file_call(std::string_view name) {
    constexpr std::string_view kPrefix = "MPI_File_";
    if (!name.starts_with(kPrefix)) return {};
    const std::string_view suffix = name.substr(kPrefix.size());
    for (const FileCallName& call : kFileCalls) {
        if (call.suffix != suffix) continue;
        if (call.kind == Kind::Management)
            return {Kind::Management, false, contains(suffix, "delete") || contains(suffix, "get") || contains(suffix, "seek")};
        return {call.kind, contains(suffix, "read"), false};
    }
    return {};
}

std::optional<Metric> file_time_metric(const FileCall& call) {
    switch (call.kind) {
    case Kind::None: return std::nullopt;
    case Kind::Management: return Metric::MpiMgmtFile;
    case Kind::Individual: return Metric::MpiIoIndividual;
    case Kind::Collective: return Metric::MpiIoCollective;
    }
    return std::nullopt;
}

std::optional<Metric> file_count_metric(const FileCall& call) {
    switch (call.kind) {
    case Kind::None: return std::nullopt;
    case Kind::Management: return call.one_rank ? Metric::MpiFileIops : Metric::MpiFileCops;
    case Kind::Individual: return call.reads ? Metric::MpiFileIrops : Metric::MpiFileIwops;
    case Kind::Collective: return call.reads ? Metric::MpiFileCrops : Metric::MpiFileCwops;
    }
    return std::nullopt;
}

}  // namespace hindsight
