// Checks the relations every Hindsight report must satisfy (invariants.hpp)
// and names each violation on its own line.
//
// usage: check_invariants REPORT.cubex [--critical-path-length SECONDS]
//
// Exit status 0 if all hold, 1 if any is violated, 2 on bad usage or an
// unreadable report.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "common/cube/reader.hpp"
#include "tests/reference/invariants.hpp"

namespace {

int usage() {
    std::fprintf(stderr, "usage: check_invariants REPORT.cubex [--critical-path-length SECONDS]\n");
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    reference::InvariantOptions options;
    if (argc == 4 && std::string(argv[2]) == "--critical-path-length") {
        char* end = nullptr;
        options.critical_path_length = std::strtod(argv[3], &end);
        if (end == argv[3] || *end != '\0') return usage();
    } else if (argc != 2) {
        return usage();
    }
    try {
        const auto violations = reference::check_invariants(hindsight::cube::read_cubex(argv[1]), options);
        for (const auto& v : violations) std::printf("%s: %s\n", v.invariant.c_str(), v.detail.c_str());
        std::printf("%zu invariant violation%s\n", violations.size(), violations.size() == 1 ? "" : "s");
        return violations.empty() ? 0 : 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "check_invariants: %s\n", e.what());
        return 2;
    }
}
