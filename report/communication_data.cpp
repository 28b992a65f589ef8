#include "report/communication_data.hpp"

#include <string_view>

#include "report/json_document.hpp"

namespace hindsight::report {

namespace {

constexpr std::string_view kSchema = "hindsight-communication";
// How the problems name this document.
constexpr std::string_view kWhat = "communication structure";

}  // namespace

std::filesystem::path communication_json_path(const std::filesystem::path& cubex) {
    std::filesystem::path path = cubex;
    return path.replace_extension(".communication.json");
}

std::string read_communication_json(const std::filesystem::path& path) {
    return read_json_document(path, kSchema, kWhat);
}

std::optional<std::string> find_communication_json(const std::filesystem::path& cubex) {
    return find_json_document(communication_json_path(cubex), kSchema, kWhat);
}

}  // namespace hindsight::report
