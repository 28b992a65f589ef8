// A user's program against the installed CUBE library: prints one value of
// a report, looked up by names.
//
//     installed_cube_reader REPORT.cubex METRIC CALL/PATH RANK
#include <common/cube/query.hpp>
#include <common/cube/reader.hpp>
#include <common/error.hpp>

#include <cstdio>
#include <sstream>
#include <string>

int main(int argc, char** argv) {
    if (argc != 5) return 2;
    hindsight::cube::CallPath path;
    std::istringstream names(argv[3]);
    for (std::string region; std::getline(names, region, '/');) path.push_back(region);
    try {
        const hindsight::cube::Report report = hindsight::cube::read_cubex(argv[1]);
        std::printf("%.17g\n", hindsight::cube::value_at(report, argv[2], path, std::stoll(argv[4])));
    } catch (const hindsight::Error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
    return 0;
}
