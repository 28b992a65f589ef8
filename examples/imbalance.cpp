// The synthetic load-imbalance benchmark: every iteration runs work() and
// then MPI_Barrier. The modes distribute the work as the scenarios of Böhme
// et al. (IPDPS 2012, Section IV-A): balanced, static (the same rank is
// always slow), dynamic (the slow rank rotates) and mixed (one slow rank for
// the first half, another for the second). Every mode does the same total
// work per iteration, so only its distribution differs. Exact amounts per
// rank and iteration: doc/examples.md.
#include <mpi.h>

#include <cstdio>
#include <optional>
#include <string_view>

#include "support/options.h"
#include "support/regions.h"
#include "support/spin.h"

// The computation whose imbalance the analysis must find (call path
// main/work). C linkage keeps its symbol name plain "work"; it busy-waits so
// that its time is computation even when ranks share cores.
extern "C" [[gnu::noinline]] void work(double seconds);
extern "C" void work(double seconds)
{
    example_spin(seconds);
}

namespace {

// MPI_Init for its lifetime, MPI_Finalize at its end.
class MpiSession {
public:
    EXAMPLE_NOT_A_REGION MpiSession(int& argc, char**& argv) { MPI_Init(&argc, &argv); }
    EXAMPLE_NOT_A_REGION ~MpiSession() { MPI_Finalize(); }
    MpiSession(const MpiSession&) = delete;
    MpiSession& operator=(const MpiSession&) = delete;
};

enum class Mode { Balanced, Static, Dynamic, Mixed };

EXAMPLE_NOT_A_REGION std::optional<Mode> parse_mode(std::string_view word)
{
    if (word == "balanced") return Mode::Balanced;
    if (word == "static") return Mode::Static;
    if (word == "dynamic") return Mode::Dynamic;
    if (word == "mixed") return Mode::Mixed;
    return std::nullopt;
}

struct Scenario {
    Mode mode = Mode::Balanced;
    long iterations = 0;
    int ranks = 0;
    double base = 0.0;       // work per rank and iteration when balanced
    double imbalance = 0.0;  // extra work of the slow rank

    // The rank that is slow in `iteration`, or none.
    EXAMPLE_NOT_A_REGION std::optional<int> slow_rank(long iteration) const
    {
        switch (mode) {
        case Mode::Balanced: return std::nullopt;
        case Mode::Static: return ranks - 1;
        case Mode::Dynamic: return static_cast<int>(iteration % ranks);
        case Mode::Mixed: return iteration < iterations / 2 ? 0 : ranks - 1;
        }
        return std::nullopt;
    }

    // The slow rank gets `imbalance` more than `base`; the others share that
    // surplus as a deficit, so every iteration totals ranks * base.
    EXAMPLE_NOT_A_REGION double work_of(int rank, long iteration) const
    {
        const std::optional<int> slow = slow_rank(iteration);
        if (!slow) return base;
        return rank == *slow ? base + imbalance : base - imbalance / (ranks - 1);
    }
};

}  // namespace

int main(int argc, char** argv)
{
    const MpiSession session(argc, argv);
    int rank = 0;
    int ranks = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);

    long iterations = 20;
    const char* mode_word = "balanced";
    double base = 0.05;
    double imbalance = 0.0125;
    example_option options[] = {
        {"iterations", EXAMPLE_INTEGER, &iterations, 1, "number of work() + MPI_Barrier iterations"},
        {"mode", EXAMPLE_WORD, &mode_word, 0, "balanced, static, dynamic or mixed"},
        {"work", EXAMPLE_SECONDS, &base, 0, "work per rank and iteration when balanced"},
        {"imbalance", EXAMPLE_SECONDS, &imbalance, 0, "extra work of the slow rank per iteration"},
    };
    const bool speak = rank == 0;
    const example_parse_result parsed = example_parse_options(
        argc, argv, "Synthetic load imbalance: work() then MPI_Barrier, iteration after iteration.",
        options, sizeof options / sizeof options[0], speak);
    if (parsed != EXAMPLE_RUN) return example_exit_status(parsed);

    const std::optional<Mode> mode = parse_mode(mode_word);
    if (!mode) {
        if (speak) example_error(argv[0], "unknown --mode '%s' (balanced, static, dynamic or mixed)", mode_word);
        return EXAMPLE_USAGE_STATUS;
    }
    if (*mode != Mode::Balanced && ranks < 2) {
        if (speak) example_error(argv[0], "--mode %s needs at least 2 ranks", mode_word);
        return EXAMPLE_USAGE_STATUS;
    }
    if (*mode != Mode::Balanced && imbalance > base * (ranks - 1)) {
        if (speak)
            example_error(argv[0], "--imbalance %g exceeds --work %g times %d (the other ranks' "
                          "share of it would make their work negative)", imbalance, base, ranks - 1);
        return EXAMPLE_USAGE_STATUS;
    }
    const Scenario scenario{*mode, iterations, ranks, base, imbalance};

    const double start = MPI_Wtime();
    for (long iteration = 0; iteration < iterations; ++iteration) {
        work(scenario.work_of(rank, iteration));
        MPI_Barrier(MPI_COMM_WORLD);
    }
    const double elapsed = MPI_Wtime() - start;

    if (speak)
        std::printf("imbalance: %d ranks, mode %s, %ld iterations, work %g s, imbalance %g s, "
                    "%.6f s\n",
                    ranks, mode_word, iterations, base, imbalance, elapsed);
    return 0;
}
