// How an MPI call completes the receives it completes, which decides how a
// Late Sender wait is measured in it: one by one (MPI_Recv, MPI_Wait,
// MPI_Sendrecv: the call waited for the send), several at once
// (MPI_Waitall, _any, _some: the call waited for the last of them), or by a
// test (MPI_Test*), which never waits.
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string_view>

namespace hindsight::analyses {

enum class ReceiveCompletion : std::uint8_t { Single, Multiple, Test };

inline ReceiveCompletion receive_completion(std::string_view region) {
    const auto any_of = [region](std::initializer_list<std::string_view> names) {
        return std::find(names.begin(), names.end(), region) != names.end();
    };
    if (any_of({"MPI_Test", "MPI_Testall", "MPI_Testany", "MPI_Testsome"})) return ReceiveCompletion::Test;
    if (any_of({"MPI_Waitall", "MPI_Waitany", "MPI_Waitsome"})) return ReceiveCompletion::Multiple;
    return ReceiveCompletion::Single;
}

}  // namespace hindsight::analyses
