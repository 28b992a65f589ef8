// Dense numbering of a trace's definition ids. Hindsight's definitions are
// vectors indexed by id; OTF2 allows sparse ids, so each kind of definition
// gets a map from the trace's id to a dense index. Writers we know number
// densely from 0, and then the map is the identity and costs one compare.
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>

namespace hindsight::trace {

class IdMap {
public:
    // Gives `id` the next dense index; nullopt when it was defined before.
    std::optional<std::uint32_t> add(std::uint64_t id) {
        const auto index = next_;
        if (identity_ && id == index) {
            ++next_;
            return index;
        }
        if (identity_) {  // leave the fast path: remember what it covered
            for (std::uint32_t i = 0; i < next_; ++i) sparse_.emplace(i, i);
            identity_ = false;
        }
        if (!sparse_.emplace(id, index).second) return std::nullopt;
        ++next_;
        return index;
    }
    // The dense index of `id`, or nullopt when it was never defined.
    std::optional<std::uint32_t> find(std::uint64_t id) const {
        if (identity_) return id < next_ ? std::optional<std::uint32_t>(static_cast<std::uint32_t>(id)) : std::nullopt;
        const auto it = sparse_.find(id);
        return it == sparse_.end() ? std::nullopt : std::optional<std::uint32_t>(it->second);
    }
    std::uint32_t size() const { return next_; }

private:
    bool identity_ = true;
    std::uint32_t next_ = 0;
    std::unordered_map<std::uint64_t, std::uint32_t> sparse_;
};

}  // namespace hindsight::trace
