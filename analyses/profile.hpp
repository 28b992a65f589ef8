// The call-path profile: how often each call path was visited and where its
// exclusive time went (computation, the MPI classes, measurement overhead).
#pragma once

#include <vector>

#include "analyses/local_cube.hpp"
#include "replay/observer.hpp"

namespace hindsight {

class ProfileAnalysis final : public replay::ReplayObserver {
public:
    explicit ProfileAnalysis(LocalCube& cube) : cube_(&cube) {}

    void begin_pass(const replay::LocalTrace& trace, replay::Direction direction) override;
    bool packs_trace_data_only() const override { return true; }  // sends nothing
    void on_enter(const replay::EventView& view) override;
    void on_leave(const replay::EventView& view) override;

private:
    struct Frame {
        Ticks enter = 0;
        Ticks children = 0;  // time spent in regions called from this one
    };

    LocalCube* cube_;
    std::vector<Metric> category_;  // time class by call path
    std::vector<Frame> stack_;
};

}  // namespace hindsight
