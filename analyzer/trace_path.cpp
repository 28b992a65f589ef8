#include "analyzer/trace_path.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>
#include <vector>

#include "common/error.hpp"

namespace hindsight::analyzer {

namespace fs = std::filesystem;

namespace {

// The files users give instead of a trace's anchor: a name for the error.
void refuse_other_files(const std::string& given) {
    const fs::path path(given);
    const std::string extension = path.extension().string();
    if (extension == ".def")
        throw Error(given, "the definitions of an OTF2 trace, not its anchor file: give " +
                               (path.parent_path() / path.stem()).string() + ".otf2");
    if (extension == ".evt")
        throw Error(given, "the events of one location of an OTF2 trace, not its anchor file: give " +
                               path.parent_path().string() + ".otf2");
    if (extension == ".cubex")
        throw Error(given, "a CUBE report, not a trace: open it with hindsight-report (or Cube)");
}

}  // namespace

std::string anchor_file(const std::string& given) {
    std::error_code ec;
    if (!fs::is_directory(given, ec)) {
        refuse_other_files(given);
        return given;  // the loader reports what else is wrong with it
    }
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
