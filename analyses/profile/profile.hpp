// The call-path profile: how often each call path was visited and where its
// exclusive time went (computation, the MPI classes, measurement overhead),
// and the bytes its file operations read and wrote.
#pragma once

#include <cstdint>
#include <vector>

#include "analyses/local_cube.hpp"
#include "replay/observer.hpp"

namespace hindsight::analyses {

class ProfileAnalysis final : public replay::ReplayObserver {
public:
    explicit ProfileAnalysis(LocalCube& cube) : cube_(&cube) {}

    void begin_pass(const trace::LocalTrace& trace) override;
    void end_pass(const trace::LocalTrace& trace) override;
    // Leaves only (a Leave knows its Enter); sends nothing.
    replay::Participation participation() const override { return {.leaves = true}; }
    void on_leave(const trace::EventView& view) override;

    // Exclusive time by call path, in ticks, once the pass has ended: the
    // time between consecutive events summed by the call path in force
    // (event_gaps.hpp), which the critical path needs too.
    const std::vector<Ticks>& exclusive_ticks() const { return exclusive_; }

private:
    LocalCube* cube_;
    // By call path, in ticks until the end of the pass: exact sums, and one
    // conversion to seconds per call path instead of one per visit.
    std::vector<Ticks> exclusive_;
    std::vector<std::uint64_t> visits_;
};

}  // namespace hindsight::analyses
