#include "report/communication_data.hpp"

#include <fstream>
#include <iterator>
#include <sstream>
#include <string_view>

#include "common/error.hpp"
#include "report/json_syntax.hpp"

namespace hindsight::report {

std::filesystem::path communication_json_path(const std::filesystem::path& cubex) {
    std::filesystem::path path = cubex;
    return path.replace_extension(".communication.json");
}

std::string read_communication_json(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(path.string(), "cannot be read");
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) throw Error(path.string(), "cannot be read");
    std::string json = std::move(text).str();
    if (auto problem = json_syntax_problem(json)) throw Error(path.string(), "not JSON: " + *problem);
    const JsonHeader header = json_header(json);
    if (header.schema != "hindsight-communication")
        throw Error(path.string(), "not a communication structure (schema '" + header.schema + "')");
    if (header.version != "1")
        throw Error(path.string(), "communication structure version " + header.version + ", this page reads version 1");
    return json;
}

std::optional<std::string> find_communication_json(const std::filesystem::path& cubex) {
    const std::filesystem::path path = communication_json_path(cubex);
    std::error_code ignored;
    if (!std::filesystem::exists(path, ignored)) return std::nullopt;
    return read_communication_json(path);
}

}  // namespace hindsight::report
