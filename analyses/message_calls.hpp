// What the MPI call holding a message says about its waiting:
//  - how it completes the receives it completes, which decides how a Late
//    Sender wait is measured in it: one by one (MPI_Recv, MPI_Wait,
//    MPI_Sendrecv: the call waited for the send), several at once
//    (MPI_Waitall, _any, _some: the call waited for the last of them), or
//    by a test (MPI_Test*), which never waits;
//  - whether a send in it can wait for a late receiver: as in Scalasca,
//    only a blocking send of standard or synchronous mode, not MPI_Bsend
//    and MPI_Rsend, which never wait for the receive by their definition,
//    not a non-blocking send, and not MPI_Sendrecv(_replace), whose receive
//    part may wait for its own sender instead.
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string_view>

#include "common/definitions.hpp"

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

inline bool may_wait_for_receiver(const Region& region) {
    const auto is = [&region](std::string_view name) { return region.name == name || region.canonical_name == name; };
    return is("MPI_Send") || is("MPI_Ssend");
}

}  // namespace hindsight::analyses
