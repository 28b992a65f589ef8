#include "collector/config.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

#include <unistd.h>

#include "common/error.hpp"
#include "common/shortened.hpp"
#include "common/yes_no.hpp"

namespace hindsight::collect {

namespace {
std::string lower(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}
// 0 when the system does not say.
std::uint64_t physical_memory_bytes() {
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long page_size = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page_size <= 0) return 0;
    return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size);
}
}  // namespace

std::uint64_t parse_size(std::string_view text, const std::string& what) {
    const std::string bad = "'" + shortened(text) + "' is not a size (e.g. 64M, 512K, 1G)";
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || end == text.data()) throw Error(what, bad);
    std::string unit = lower(std::string_view(end, static_cast<std::size_t>(text.data() + text.size() - end)));
    if (unit.ends_with("ib")) unit.resize(unit.size() - 2);
    else if (unit.size() > 1 && unit.ends_with("b")) unit.pop_back();
    else if (unit == "b") unit.clear();
    int shift = 0;
    if (unit == "k") shift = 10;
    else if (unit == "m") shift = 20;
    else if (unit == "g") shift = 30;
    else if (!unit.empty()) throw Error(what, bad);
    if (shift > 0 && value > (~std::uint64_t{0} >> shift)) throw Error(what, bad);
    return value << shift;
}

bool parse_timer(std::string_view text, const std::string& what) {
    const std::string v = lower(text);
    if (v == "auto") return false;
    if (v == "monotonic") return true;
    throw Error(what, "'" + shortened(text) + "' is not a timer (auto or monotonic)");
}

Config read_config(const std::function<const char*(const char*)>& lookup_variable) {
    // A variable set to the empty string (a shell's `NAME=`) is no setting:
    // the default holds, for the yes/no variables off.
    const auto lookup = [&](const char* name) -> const char* {
        const char* value = lookup_variable(name);
        return value && *value ? value : nullptr;
    };
    Config config;
    if (const char* v = lookup(kEnvTraceDir)) config.trace_dir = v;
    config.force = yes_no_variable(kEnvForce, lookup(kEnvForce), false);
    if (const char* v = lookup(kEnvBufferSize)) {
        config.buffer_bytes = parse_size(v, kEnvBufferSize);
        if (config.buffer_bytes < kMinBufferBytes) {
            throw Error(kEnvBufferSize, "'" + shortened(v) + "' is too small (at least 1M)");
        }
        // Each rank's buffer is memory of its own: a size beyond the whole
        // machine's is a typo, which would otherwise surface as the program
        // running out of memory in the middle of the run.
        const std::uint64_t memory = physical_memory_bytes();
        if (memory > 0 && config.buffer_bytes > memory) {
            throw Error(kEnvBufferSize, "'" + shortened(v) + "' is more than this machine's memory (" +
                                            std::to_string(memory >> 20) + "M)");
        }
    }
    if (const char* v = lookup(kEnvFilter)) config.filter_file = v;
    config.verbose = yes_no_variable(kEnvVerbose, lookup(kEnvVerbose), false);
    config.quiet = yes_no_variable(kEnvQuiet, lookup(kEnvQuiet), false);
    config.profile = yes_no_variable(kEnvProfile, lookup(kEnvProfile), false);
    if (const char* v = lookup(kEnvTimer)) config.monotonic_timer = parse_timer(v, kEnvTimer);
    return config;
}

std::string default_trace_dir(std::string_view executable, int nranks) {
    const auto slash = executable.find_last_of('/');
    std::string_view base = slash == std::string_view::npos ? executable : executable.substr(slash + 1);
    if (base.empty()) base = "app";
    return "hindsight-" + std::string(base) + "-" + std::to_string(nranks);
}

}  // namespace hindsight::collect
