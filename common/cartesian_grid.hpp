// The coordinates of a rank in a Cartesian topology. MPI numbers the ranks
// of a Cartesian communicator in row-major order (the last dimension varies
// fastest), so the dimensions alone give every rank's place: the trace need
// not carry one coordinate record per rank to be read. Header only, for the
// collector too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace hindsight {

// Coordinates of communicator rank `rank` in a grid of extents `dims`.
inline std::vector<std::uint32_t> cartesian_coordinates(const std::vector<int>& dims, std::uint64_t rank) {
    std::vector<std::uint32_t> coords(dims.size(), 0);
    for (std::size_t d = dims.size(); d-- > 0;) {
        const auto extent = static_cast<std::uint64_t>(dims[d] > 0 ? dims[d] : 1);
        coords[d] = static_cast<std::uint32_t>(rank % extent);
        rank /= extent;
    }
    return coords;
}

// Number of ranks of the grid.
inline std::uint64_t cartesian_size(const std::vector<int>& dims) {
    std::uint64_t n = 1;
    for (const int d : dims) n *= static_cast<std::uint64_t>(d > 0 ? d : 0);
    return n;
}

}  // namespace hindsight
