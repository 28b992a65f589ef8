// Writes a small builder trace for the analyzer's command-line tests:
//   write_scenario unmatched DIR   rank 0 sends two messages, rank 1 takes one
#include <iostream>
#include <string>

#include "common/error.hpp"
#include "tests/support/trace_builder.hpp"

int main(int argc, char** argv) {
    using hindsight::testing::TraceBuilder;
    if (argc != 3 || std::string(argv[1]) != "unmatched") {
        std::cerr << "usage: write_scenario unmatched DIR\n";
        return 2;
    }
    try {
        TraceBuilder t(2);
        t.rank(0).enter(0, "main").init(10, 20).send(30, 40, 1, 5, 64).send(50, 60, 1, 5, 64).finalize(70, 80).leave(90);
        t.rank(1).enter(0, "main").init(10, 20).recv(30, 45, 0, 5, 64).finalize(70, 80).leave(90);
        t.write(argv[2]);
    } catch (const hindsight::Error& e) {
        std::cerr << e.what() << '\n';
        return 1;
    }
    return 0;
}
