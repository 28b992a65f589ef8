#include "analyzer/report_path.hpp"

#include <filesystem>
#include <system_error>

#include "common/error.hpp"
#include "common/output_file.hpp"

namespace hindsight::analyzer {

namespace fs = std::filesystem;

namespace {

// Whether `path` is `root` or lies inside it (both made absolute and
// free of links, as far as they exist).
bool is_within(const fs::path& path, const fs::path& root) {
    std::error_code ec;
    const fs::path p = fs::weakly_canonical(path, ec);
    const fs::path r = fs::weakly_canonical(root, ec);
    auto pi = p.begin();
    for (auto ri = r.begin(); ri != r.end(); ++ri, ++pi) {
        if (ri->empty()) continue;  // a trailing separator
        if (pi == p.end() || *pi != *ri) return false;
    }
    return true;
}

}  // namespace

void check_report_path(const std::string& report, const std::string& trace) {
    const fs::path target = output_target(report);
    // An OTF2 archive: traces.otf2 (the anchor), traces.def (the global
    // definitions) and traces/ (one event and one definition file per
    // location).
    fs::path definitions = trace;
    definitions.replace_extension(".def");
    fs::path locations = trace;
    locations.replace_extension();
    for (const fs::path& part : {fs::path(trace), definitions}) {
        if (is_within(target, part)) throw Error(report, "is a file of the trace " + trace + "; choose another report name");
    }
    if (is_within(target, locations))
        throw Error(report, "lies in the trace's directory " + locations.string() + "; choose another report name");
    check_output_file(report);
}

}  // namespace hindsight::analyzer
