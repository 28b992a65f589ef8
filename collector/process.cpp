#include "collector/process.hpp"

#include <pthread.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "collector/config.hpp"
#include "collector/measurement.hpp"
#include "collector/timer.hpp"
#include "common/error.hpp"

namespace hindsight::collect {

namespace {
TimerSample g_load_sample;

// The timer must be chosen before the first timestamp, long before MPI_Init
// reads the configuration; a bad HINDSIGHT_TIMER is reported there.
bool monotonic_timer_wanted() noexcept {
    try {
        const char* value = std::getenv(kEnvTimer);
        return value && *value && parse_timer(value, kEnvTimer);
    } catch (...) {
        return false;
    }
}

// Runs when the library is loaded (LD_PRELOAD or linked): the thread that
// runs it is the program's main thread.
__attribute__((constructor)) void on_library_load() {
    Timer::select(monotonic_timer_wanted());
    g_load_sample = Timer::sample();
    Measurement::set_master_thread(pthread_self());
}
}  // namespace

std::string executable_path() {
    std::error_code ec;
    const auto path = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::string("app") : path.string();
}

std::vector<std::string> program_arguments() {
    std::ifstream in("/proc/self/cmdline", std::ios::binary);
    std::vector<std::string> words;
    for (std::string word; std::getline(in, word, '\0');) words.push_back(word);
    if (!words.empty()) words.erase(words.begin());  // the program's name
    return words;
}

TimerSample library_load_sample() { return g_load_sample.ns != 0 ? g_load_sample : Timer::sample(); }

std::string absolute_path(const std::string& path) {
    std::error_code ec;
    const auto abs = std::filesystem::absolute(path, ec);
    return ec ? path : abs.lexically_normal().string();
}

std::uintmax_t archive_size(const std::string& dir) {
    namespace fs = std::filesystem;
    std::error_code ec;
    std::uintmax_t total = 0;
    for (const char* file : {"traces.otf2", "traces.def"}) {
        const auto size = fs::file_size(fs::path(dir) / file, ec);
        if (!ec) total += size;
    }
    for (fs::recursive_directory_iterator it(fs::path(dir) / "traces", ec), end; !ec && it != end;
         it.increment(ec)) {
        if (it->is_regular_file(ec)) total += it->file_size(ec);
    }
    return total;
}

}  // namespace hindsight::collect
