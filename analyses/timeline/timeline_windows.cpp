#include "analyses/timeline/timeline_windows.hpp"

#include <algorithm>
#include <span>

#include "common/byte_codec.hpp"

namespace hindsight::analyses {

std::vector<TimelineWindow> choose_windows(const std::vector<std::vector<WaitInstance>>& by_rank,
                                           std::size_t per_pattern) {
    std::vector<TimelineWindow> all;
    for (std::size_t r = 0; r < by_rank.size(); ++r)
        for (const WaitInstance& wait : by_rank[r]) {
            // Half the wait before and after it: the cause of a wait lies in
            // it or just before its end (a late send, the last arrival), and
            // the margins show what the ranks did around it.
            const Ticks margin = wait.waiting / 2;
            all.push_back({static_cast<int>(r), wait, wait.start - margin, wait.start + wait.waiting + margin});
        }
    std::sort(all.begin(), all.end(), [](const TimelineWindow& a, const TimelineWindow& b) {
        if (a.wait.pattern != b.wait.pattern) return a.wait.pattern < b.wait.pattern;
        if (a.wait.waiting != b.wait.waiting) return a.wait.waiting > b.wait.waiting;
        if (a.wait.start != b.wait.start) return a.wait.start < b.wait.start;
        return a.rank < b.rank;
    });
    std::vector<TimelineWindow> chosen;
    std::size_t of_pattern = 0;
    for (std::size_t i = 0; i < all.size(); ++i) {
        of_pattern = i > 0 && all[i].wait.pattern == all[i - 1].wait.pattern ? of_pattern + 1 : 0;
        if (of_pattern < per_pattern) chosen.push_back(all[i]);
    }
    return chosen;
}

std::vector<std::vector<WaitInstance>> share_waits(replay::Exchange& exchange, const std::vector<WaitInstance>& mine) {
    ByteWriter out;
    out.put_span<WaitInstance>(mine);
    const std::vector<std::byte> block = out.take();
    const replay::ByteBlocks incoming = exchange.all_to_all(replay::ByteBlocks(static_cast<std::size_t>(exchange.size()), block));
    std::vector<std::vector<WaitInstance>> by_rank;
    for (const std::vector<std::byte>& bytes : incoming) {
        ByteReader in(bytes);
        by_rank.push_back(in.get_vector<WaitInstance>());
    }
    return by_rank;
}

}  // namespace hindsight::analyses
