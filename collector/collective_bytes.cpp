#include "collector/collective_bytes.hpp"

#include <numeric>

namespace hindsight::collect::rules {

namespace {
std::uint64_t sum(std::span<const std::uint64_t> blocks) {
    return std::accumulate(blocks.begin(), blocks.end(), std::uint64_t{0});
}
std::uint64_t u(int v) { return v < 0 ? 0 : static_cast<std::uint64_t>(v); }
}  // namespace

CollectiveBytes all_to_one(int me, int n, int root, std::uint64_t block, bool in_place) {
    if (me != root) return {block, 0};
    if (in_place) return {0, (u(n) - 1) * block};
    return {block, u(n) * block};
}

CollectiveBytes all_to_one_varying(int me, int root, std::span<const std::uint64_t> blocks,
                                   std::uint64_t own, bool in_place) {
    if (me != root) return {own, 0};
    const std::uint64_t mine = blocks[static_cast<std::size_t>(me)];
    if (in_place) return {0, sum(blocks) - mine};
    return {mine, sum(blocks)};
}

CollectiveBytes one_to_all(int me, int n, int root, std::uint64_t block, bool in_place) {
    const CollectiveBytes mirrored = all_to_one(me, n, root, block, in_place);
    return {mirrored.received, mirrored.sent};
}

CollectiveBytes one_to_all_varying(int me, int root, std::span<const std::uint64_t> blocks,
                                   std::uint64_t own, bool in_place) {
    const CollectiveBytes mirrored = all_to_one_varying(me, root, blocks, own, in_place);
    return {mirrored.received, mirrored.sent};
}

CollectiveBytes all_to_all(int n, std::uint64_t send, std::uint64_t recv, bool in_place) {
    if (in_place) return {(u(n) - 1) * recv, (u(n) - 1) * recv};
    return {u(n) * send, u(n) * recv};
}

CollectiveBytes all_to_all_varying(int me, std::span<const std::uint64_t> send,
                                   std::span<const std::uint64_t> recv, bool in_place) {
    if (in_place) {
        // Any two ranks exchange the same amount: what comes in goes out.
        const std::uint64_t others = sum(recv) - recv[static_cast<std::size_t>(me)];
        return {others, others};
    }
    return {sum(send), sum(recv)};
}

CollectiveBytes allgather_varying(int me, std::uint64_t own, std::span<const std::uint64_t> recv,
                                  bool in_place) {
    const std::uint64_t n = recv.size();
    if (in_place) {
        const std::uint64_t mine = recv[static_cast<std::size_t>(me)];
        return {(n - 1) * mine, sum(recv) - mine};
    }
    return {n * own, sum(recv)};
}

CollectiveBytes reduce_scatter(int me, std::span<const std::uint64_t> blocks, bool in_place) {
    const std::uint64_t n = blocks.size();
    const std::uint64_t mine = blocks[static_cast<std::size_t>(me)];
    if (in_place) return {sum(blocks) - mine, (n - 1) * mine};
    return {sum(blocks), n * mine};
}

CollectiveBytes inter_rooted(int root, std::uint64_t at_root, std::uint64_t block, bool root_sends) {
    if (root == MPI_PROC_NULL) return {};
    if (root == MPI_ROOT) return root_sends ? CollectiveBytes{at_root, 0} : CollectiveBytes{0, at_root};
    return root_sends ? CollectiveBytes{0, block} : CollectiveBytes{block, 0};
}

CollectiveBytes scan(int me, int n, std::uint64_t block, bool in_place) {
    if (in_place) return {(u(n) - u(me) - 1) * block, u(me) * block};
    return {(u(n) - u(me)) * block, (u(me) + 1) * block};
}

}  // namespace hindsight::collect::rules
