// The backward analyses compute some metrics inclusive of their sub-metrics
// (the critical path includes its imbalance). The cube holds own shares
// (metrics.hpp), so such a value is recorded minus the values recorded for
// its children, whatever the metric tree: the report writer, which adds the
// children back, then shows each metric as computed.
#pragma once

#include <span>
#include <utility>

#include "analyses/local_cube.hpp"

namespace hindsight::analyses {

using MetricValue = std::pair<Metric, double>;

// Records `values` (inclusive along the metric tree) for call path `cnode`.
// Each value is taken out of its parent's share when the parent is among
// `values` too.
inline void add_inclusive(LocalCube& cube, CallPathId cnode, std::span<const MetricValue> values) {
    for (const auto& [metric, value] : values) {
        if (value == 0.0) continue;
        cube.add(metric, cnode, value);
        const auto parent = info(metric).parent;
        if (!parent) continue;
        for (const MetricValue& other : values)
            if (other.first == *parent) cube.add(other.first, cnode, -value);
    }
}

}  // namespace hindsight::analyses
