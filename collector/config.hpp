// The collector's settings. The launcher turns its command line into
// HINDSIGHT_* environment variables; the library reads them back here, so
// both ways of using the collector (launcher or linking) share one meaning.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace hindsight::collect {

inline constexpr const char* kEnvTraceDir = "HINDSIGHT_TRACE_DIR";
inline constexpr const char* kEnvForce = "HINDSIGHT_FORCE";
inline constexpr const char* kEnvBufferSize = "HINDSIGHT_BUFFER_SIZE";
inline constexpr const char* kEnvFilter = "HINDSIGHT_FILTER";
inline constexpr const char* kEnvVerbose = "HINDSIGHT_VERBOSE";
inline constexpr const char* kEnvTimer = "HINDSIGHT_TIMER";
inline constexpr const char* kEnvQuiet = "HINDSIGHT_QUIET";
inline constexpr const char* kEnvProfile = "HINDSIGHT_PROFILE";

inline constexpr std::uint64_t kDefaultBufferBytes = std::uint64_t{64} << 20;
// OTF2 needs room for a few chunks of at least 256 KiB.
inline constexpr std::uint64_t kMinBufferBytes = std::uint64_t{1} << 20;

struct Config {
    std::string trace_dir;  // empty: hindsight-<exe>-<nranks> in the working directory
    bool force = false;     // replace an existing archive
    std::uint64_t buffer_bytes = kDefaultBufferBytes;
    std::string filter_file;  // empty: record every user and compiler region
    bool verbose = false;
    bool quiet = false;  // no line about the written trace
    bool monotonic_timer = false;  // HINDSIGHT_TIMER=monotonic: never the TSC (timer.hpp)
    // A profile (profile.cubex and its communication files) instead of a
    // trace: memory independent of the run's length.
    bool profile = false;
};

// "64M", "512k", "1G", "1048576" (K/M/G are powers of 1024; an optional
// trailing "B" or "iB" is accepted). Throws hindsight::Error naming `what`.
std::uint64_t parse_size(std::string_view text, const std::string& what);

// "auto" / "monotonic" (case-insensitive): true for "monotonic". Anything
// else, the empty text included, throws hindsight::Error naming `what`.
bool parse_timer(std::string_view text, const std::string& what);

// Reads the HINDSIGHT_* variables through `lookup` (getenv in production);
// a malformed value throws hindsight::Error naming the variable. A variable
// set to the empty string counts as not set; the yes/no ones are read by
// hindsight::yes_no_variable (common/yes_no.hpp).
Config read_config(const std::function<const char*(const char*)>& lookup);

// The default trace directory: hindsight-<basename of exe>-<nranks>.
std::string default_trace_dir(std::string_view executable, int nranks);

}  // namespace hindsight::collect
