// Prints hindsight-analyze's option table (options.hpp, print_option_table)
// at build time, from which the `hindsight` driver's handling of the
// analyzer's options is generated, so that the two never disagree.
#include <iostream>

#include "analyzer/options.hpp"
#include "common/failure.hpp"

int main() {
    return hindsight::run_tool("hindsight-analyze-options", [] {
        hindsight::analyzer::print_option_table(std::cout);
        std::cout.flush();
        return std::cout.good() ? 0 : 1;
    });
}
