#include "analyzer/trace_path.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>
#include <vector>

#include "common/error.hpp"

namespace hindsight::analyzer {

namespace fs = std::filesystem;

std::string anchor_file(const std::string& given) {
    std::error_code ec;
    if (!fs::is_directory(given, ec)) return given;  // the loader reports what else is wrong with it
    const fs::path directory(given);
    if (fs::exists(directory / "traces.otf2", ec)) return (directory / "traces.otf2").string();
    std::vector<std::string> anchors;
    for (const fs::directory_entry& entry : fs::directory_iterator(directory, ec))
        if (entry.path().extension() == ".otf2") anchors.push_back(entry.path().filename().string());
    if (ec) throw Error(given, "cannot list the directory (" + ec.message() + ")");
    if (anchors.empty()) throw Error(given, "is a directory without an OTF2 archive (no .otf2 anchor file in it)");
    if (anchors.size() > 1) {
        std::sort(anchors.begin(), anchors.end());
        std::string names;
        for (const std::string& name : anchors) names += (names.empty() ? "" : ", ") + name;
        throw Error(given, "holds several OTF2 archives (" + names + "); give one of their .otf2 files");
    }
    return (directory / anchors.front()).string();
}

}  // namespace hindsight::analyzer
