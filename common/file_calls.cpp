#include "common/file_calls.hpp"

#include <regex>
#include <string>

namespace hindsight {

using metrics::Metric;
namespace {

const std::regex& management() {
    static const std::regex pattern(
        "MPI_File_(close|delete|get_(amode|atomicity|byte_offset|group|info|position(_shared)?|size|type_extent|view)|"
        "open|preallocate|seek(_shared)?|set_(atomicity|info|size|view)|sync)");
    return pattern;
}

const std::regex& individual() {
    static const std::regex pattern("MPI_File_i?(read|write)(_at|_shared)?");
    return pattern;
}

const std::regex& collective() {
    static const std::regex pattern(
        "MPI_File_((iread|iwrite)_(all|at_all)|(read|write)_(all|at_all|ordered)(_begin|_end)?)");
    return pattern;
}

bool one_rank(std::string_view name) {
    return name.find("delete") != std::string_view::npos || name.find("get") != std::string_view::npos ||
           name.find("seek") != std::string_view::npos;
}

}  // namespace

FileCall file_call(std::string_view name) {
    using Kind = FileCall::Kind;
    // Most regions are no file calls: only these pay for the patterns.
    if (!name.starts_with("MPI_File_")) return {};
    const std::string text(name);
    const bool reads = name.find("read") != std::string_view::npos;
    if (std::regex_match(text, management())) return {Kind::Management, false, one_rank(name)};
    if (std::regex_match(text, individual())) return {Kind::Individual, reads, false};
    if (std::regex_match(text, collective())) return {Kind::Collective, reads, false};
    return {};
}

std::optional<Metric> file_time_metric(const FileCall& call) {
    switch (call.kind) {
    case FileCall::Kind::None: return std::nullopt;
    case FileCall::Kind::Management: return Metric::MpiMgmtFile;
    case FileCall::Kind::Individual: return Metric::MpiIoIndividual;
    case FileCall::Kind::Collective: return Metric::MpiIoCollective;
    }
    return std::nullopt;
}

std::optional<Metric> file_count_metric(const FileCall& call) {
    switch (call.kind) {
    case FileCall::Kind::None: return std::nullopt;
    case FileCall::Kind::Management: return call.one_rank ? Metric::MpiFileIops : Metric::MpiFileCops;
    case FileCall::Kind::Individual: return call.reads ? Metric::MpiFileIrops : Metric::MpiFileIwops;
    case FileCall::Kind::Collective: return call.reads ? Metric::MpiFileCrops : Metric::MpiFileCwops;
    }
    return std::nullopt;
}

}  // namespace hindsight
