// hindsight-collect [options] [--] APP [ARGS...]
//
// Runs APP with libhindsight-collect preloaded and the options turned into
// HINDSIGHT_* environment variables (see doc/collector.md). Typical use:
//     mpiexec -n 4 hindsight-collect -o trace -- ./app args
#include <unistd.h>

#include <boost/program_options.hpp>
#include <cerrno>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "collector/config.hpp"
#include "collector/launch_check.hpp"
#include "collector/launch_environment.hpp"
#include "collector/openmp_runtime.hpp"
#include "common/error.hpp"
#include "common/failure.hpp"
#include "common/shortened.hpp"
#include "common/version.hpp"

#ifndef HINDSIGHT_LIBDIR_FROM_BINDIR
#define HINDSIGHT_LIBDIR_FROM_BINDIR "../lib"
#endif
// A library that must be preloaded before the collector's: the sanitizer
// runtime in sanitized builds, nothing otherwise.
// LLVM's OpenMP runtime, preloaded for programs built by GCC.
#ifndef HINDSIGHT_LIBOMP
#define HINDSIGHT_LIBOMP ""
#endif
#ifndef HINDSIGHT_PRELOAD_FIRST
#define HINDSIGHT_PRELOAD_FIRST ""
#endif

namespace fs = std::filesystem;
namespace po = boost::program_options;
using namespace hindsight::collect;
using hindsight::shortened;

namespace {

constexpr const char* kLibrary = "libhindsight-collect.so";

// Under mpirun every rank's launcher fails alike; one line per node says
// why (nodes may differ in what files they see), the rest only exit.
// Writes without allocating, so that it can say "out of memory" too.
[[noreturn]] void die(std::string_view message, int status = 2) {
    if (first_process_on_node()) {
        std::fprintf(stderr, "hindsight-collect: %.*s\n", static_cast<int>(message.size()), message.data());
    }
    std::exit(status);
}

// The library next to the launcher (build tree) or in the install tree's
// library directory, found from the launcher's own location.
std::string find_library() {
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (ec) die("cannot find my own location: " + ec.message());
    const fs::path bindir = self.parent_path();
    for (const fs::path& candidate : {bindir / kLibrary, bindir / HINDSIGHT_LIBDIR_FROM_BINDIR / kLibrary,
                                      bindir / "../lib" / kLibrary}) {
        if (fs::exists(candidate, ec)) return fs::weakly_canonical(candidate, ec).string();
    }
    die(std::string("cannot find ") + kLibrary + " next to " + bindir.string() + " or in " +
        (bindir / HINDSIGHT_LIBDIR_FROM_BINDIR).lexically_normal().string());
}

// Splits argv into the launcher's own arguments and the command to run: the
// command starts after "--" or at the first word that is not an option.
std::pair<std::vector<std::string>, std::vector<char*>> split(int argc, char** argv) {
    static const std::set<std::string> with_value = {"-o", "--output", "--buffer", "--filter", "--timer"};
    std::vector<std::string> own;
    int i = 1;
    for (; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--") {
            ++i;
            break;
        }
        if (arg.empty() || arg[0] != '-') break;
        own.push_back(arg);
        if (with_value.count(arg) && i + 1 < argc) own.push_back(argv[++i]);
    }
    std::vector<char*> command(argv + i, argv + argc);
    command.push_back(nullptr);
    return {own, command};
}

void set(const char* name, const std::string& value) {
    if (setenv(name, value.c_str(), 1) != 0) die(std::string("cannot set ") + name + ": " + std::strerror(errno));
}

// The value of the option `name`. An empty one is refused: it would mean
// nothing, and a variable expanded to nothing in a job script is a mistake
// to point out, not a setting to ignore.
std::string value_of(const po::variables_map& vm, const std::string& name) {
    std::string value = vm[name].as<std::string>();
    if (value.empty()) die("--" + name + ": the value is empty (see --help)");
    return value;
}

// The option `name`'s path made absolute (the program may change its
// working directory before MPI_Init).
std::string absolute_path_of(const po::variables_map& vm, const std::string& name) {
    const std::string value = value_of(vm, name);
    std::error_code ec;
    const fs::path path = fs::absolute(value, ec);
    if (ec) die("--" + name + ": " + shortened(value) + ": " + ec.message());
    return path.string();
}

int launch(int argc, char** argv) {
    po::options_description options("Usage: hindsight-collect [options] [--] APP [ARGS...]\nOptions");
    options.add_options()
        ("help,h", "show this help")
        ("version", "show the version")
        ("output,o", po::value<std::string>(), "trace directory (default hindsight-<app>-<ranks>)")
        ("force", "replace an existing trace in the directory")
        ("profile", "write a profile (profile.cubex, its communicator tables) instead of a trace")
        ("check", "only check the options, the filter file and the trace directory as before a start, then exit "
                  "(status 0: the program would start; 2 and one line why not)")
        ("buffer", po::value<std::string>(), "trace buffer per process, e.g. 64M (default 64M, at least 1M)")
        ("filter", po::value<std::string>(), "region filter file (Score-P syntax)")
        ("timer", po::value<std::string>(), "auto (the CPU's time-stamp counter where usable) or monotonic")
        ("verbose", "print what the collector does")
        ("quiet,q", "no line about the written trace at the end (problems are still reported)");
    auto [own, command] = split(argc, argv);
    po::variables_map vm;
    try {
        po::store(po::command_line_parser(own).options(options).run(), vm);
        po::notify(vm);
    } catch (const po::error& e) {
        die(shortened(e.what()) + " (see --help)");
    }
    if (vm.count("help")) {
        std::cout << options << "\nEach option has an environment variable (HINDSIGHT_TRACE_DIR, HINDSIGHT_FORCE,\n"
                                "HINDSIGHT_BUFFER_SIZE, HINDSIGHT_FILTER, HINDSIGHT_TIMER, HINDSIGHT_VERBOSE,\n"
                                "HINDSIGHT_QUIET, HINDSIGHT_PROFILE); see doc/collector.md.\n";
        return 0;
    }
    if (vm.count("version")) {
        std::cout << "hindsight-collect " << hindsight::kVersion << '\n';
        return 0;
    }
    if (command.size() < 2) die("no program to run (see --help)");

    try {
        if (vm.count("output")) set(kEnvTraceDir, absolute_path_of(vm, "output"));
        if (vm.count("force")) set(kEnvForce, "1");
        if (vm.count("profile")) set(kEnvProfile, "1");
        if (vm.count("buffer")) {
            const std::string size = value_of(vm, "buffer");
            if (parse_size(size, "--buffer") < kMinBufferBytes) {
                die("--buffer: '" + shortened(size) + "' is too small (at least 1M)");
            }
            set(kEnvBufferSize, size);
        }
        if (vm.count("filter")) set(kEnvFilter, absolute_path_of(vm, "filter"));
        if (vm.count("timer")) {
            const std::string timer = vm["timer"].as<std::string>();
            static_cast<void>(parse_timer(timer, "--timer"));  // refuses a bad value, an empty one too, up front
            set(kEnvTimer, timer);
        }
        if (vm.count("verbose")) set(kEnvVerbose, "1");
        if (vm.count("quiet")) set(kEnvQuiet, "1");
        // Options and HINDSIGHT_* variables set by the user alike.
        check_before_launch(command[0]);
    } catch (const hindsight::Error& e) {
        die(e.what());
    }

    std::string preload = find_library();
    if (vm.count("check")) return 0;
    // A program built by GCC runs on LLVM's OpenMP runtime, whose tools
    // interface records its threads (doc/collector.md, OpenMP).
    const OpenMpRuntime runtime = openmp_runtime_for(resolve_program(command[0]), HINDSIGHT_LIBOMP);
    if (!runtime.preload.empty()) preload += ":" + runtime.preload;
    if (!runtime.warning.empty() && first_process_on_node())
        std::fprintf(stderr, "hindsight-collect: %s\n", runtime.warning.c_str());
    if (const std::string first = HINDSIGHT_PRELOAD_FIRST; !first.empty()) preload = first + ":" + preload;
    if (const char* old = std::getenv("LD_PRELOAD"); old && *old) preload += std::string(":") + old;
    set("LD_PRELOAD", preload);
    execvp(command[0], command.data());
    die("cannot run " + shortened(command[0]) + ": " + std::strerror(errno), 127);
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return launch(argc, argv);
    } catch (...) {  // whatever escaped the checks: a refusal like theirs
        die(hindsight::current_failure());
    }
}
