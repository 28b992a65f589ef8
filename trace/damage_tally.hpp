// Damage the analysis can go around, counted per kind with the first case
// described, and the warning line it becomes.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace hindsight::trace {

struct DamageTally {
    std::uint64_t count = 0;
    std::string first;

    void add(std::string description) {
        if (count++ == 0) first = std::move(description);
    }
    // Adds "rank R: N what (the first: ...); treatment" to `notes`, if any
    // case was counted.
    void note(int rank, const std::string& what, const std::string& treatment, std::vector<std::string>& notes) const {
        if (count == 0) return;
        notes.push_back("rank " + std::to_string(rank) + ": " + std::to_string(count) + " " + what +
                        " (the first: " + first + "); " + treatment);
    }
};

}  // namespace hindsight::trace
