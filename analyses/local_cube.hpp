// One rank's analysis results: a dense [metric × call path] table of the
// metrics' own shares (see metrics.hpp). After the passes the analyzer
// gathers every rank's table into the report's [metric × call path × rank]
// cube.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "analyses/metrics.hpp"
#include "common/call_tree.hpp"

namespace hindsight::analyses {

class LocalCube {
public:
    explicit LocalCube(std::size_t call_paths)
        : call_paths_(call_paths), values_(kMetricCount * call_paths, 0.0) {}

    void add(Metric m, CallPathId cnode, double value) { values_[offset(m, cnode)] += value; }
    double get(Metric m, CallPathId cnode) const { return values_[offset(m, cnode)]; }
    // Sum over all call paths.
    double total(Metric m) const;

    std::size_t call_paths() const { return call_paths_; }
    // Row-major [metric][call path], for gathering.
    std::span<const double> values() const { return values_; }

private:
    std::size_t offset(Metric m, CallPathId cnode) const {
        return static_cast<std::size_t>(m) * call_paths_ + cnode;
    }
    std::size_t call_paths_;
    std::vector<double> values_;
};

inline double LocalCube::total(Metric m) const {
    double sum = 0;
    const std::size_t begin = static_cast<std::size_t>(m) * call_paths_;
    for (std::size_t i = 0; i < call_paths_; ++i) sum += values_[begin + i];
    return sum;
}

}  // namespace hindsight::analyses
