#include "collector/launch_environment.hpp"

#include <charconv>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

namespace hindsight::collect {

namespace {

// The first of `names` that is set to a number.
std::optional<int> first_number(std::initializer_list<const char*> names) {
    for (const char* name : names) {
        const char* text = std::getenv(name);
        if (!text) continue;
        int value = 0;
        const char* end = text + std::strlen(text);
        const auto [stop, ec] = std::from_chars(text, end, value);
        if (ec == std::errc{} && stop == end) return value;
    }
    return std::nullopt;
}

}  // namespace

std::optional<int> launched_job_size() {
    const auto size = first_number({"PMI_SIZE", "OMPI_COMM_WORLD_SIZE"});
    if (size && *size > 0) return size;
    return std::nullopt;
}

bool first_process_on_node() {
    return first_number({"MPI_LOCALRANKID", "OMPI_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID"}).value_or(0) == 0;
}

}  // namespace hindsight::collect
