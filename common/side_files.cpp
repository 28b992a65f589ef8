#include "common/side_files.hpp"

#include <fstream>
#include <ostream>

#include "common/error.hpp"
#include "common/output_file.hpp"

namespace hindsight {

std::filesystem::path side_file_path(const std::filesystem::path& report, const char* suffix) {
    std::filesystem::path path = report;
    path.replace_extension();
    path += suffix;
    return path;
}

void write_text_file(const std::filesystem::path& path, const std::function<void(std::ostream&)>& body) {
    write_output_file(path, [&](const std::filesystem::path& partial) {
        std::ofstream out(partial);
        body(out);
        out.flush();
        if (!out) throw Error(path.string(), "cannot write");
    });
}

}  // namespace hindsight
