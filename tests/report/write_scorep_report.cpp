// Writes the Score-P-shaped report of scorep_shaped_report.hpp, for the
// page test:
//
//     write_scorep_report OUT.cubex
#include <fstream>
#include <iostream>

#include "tests/report/scorep_shaped_report.hpp"

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: write_scorep_report OUT.cubex\n";
        return 2;
    }
    std::ofstream out(argv[1], std::ios::binary | std::ios::trunc);
    out << hindsight::testing::scorep_shaped_report();
    out.close();
    if (!out) {
        std::cerr << argv[1] << ": cannot write\n";
        return 1;
    }
    return 0;
}
