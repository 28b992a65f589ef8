#include "report/json_document.hpp"

#include <fstream>
#include <sstream>

#include "common/error.hpp"
#include "report/json_syntax.hpp"

namespace hindsight::report {

std::string read_json_document(const std::filesystem::path& path, std::string_view schema, std::string_view what) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(path.string(), "cannot be read");
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) throw Error(path.string(), "cannot be read");
    std::string json = std::move(text).str();
    if (auto problem = json_syntax_problem(json)) throw Error(path.string(), "not JSON: " + *problem);
    const JsonHeader header = json_header(json);
    const std::string name(what);
    if (header.schema != schema) throw Error(path.string(), "not a " + name + " (schema '" + header.schema + "')");
    if (header.version != "1")
        throw Error(path.string(), name + " version " + header.version + ", this page reads version 1");
    return json;
}

std::optional<std::string> find_json_document(const std::filesystem::path& path, std::string_view schema,
                                              std::string_view what) {
    std::error_code ignored;
    if (!std::filesystem::exists(path, ignored)) return std::nullopt;
    return read_json_document(path, schema, what);
}

}  // namespace hindsight::report
