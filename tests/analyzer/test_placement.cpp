// The communication matrix and the placement advice on builder scenarios
// whose traffic is derived by hand: a ring with an allreduce on 2 nodes,
// and a 2-D halo exchange on a 4 x 4 grid (16 ranks, analyzed in one
// process without a replay: the matrix needs none) on 4 nodes of 4 cores.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "analyses/communication/communication_matrix.hpp"
#include "analyzer/communication_structure.hpp"
#include "analyzer/placement.hpp"
#include "common/error.hpp"
#include "tests/analyses/builder_traces.hpp"
#include "tests/support/trace_builder.hpp"

using namespace hindsight;
using namespace hindsight::analyzer;
using namespace hindsight::testing;
using analyses::TrafficCell;

namespace {

struct Matrix {
    std::vector<trace::LocalTrace> traces;
    std::vector<std::vector<TrafficCell>> rows;
    std::vector<TrafficCell> cells;
    explicit Matrix(const TraceBuilder& builder) : traces(local_traces(builder)) {
        for (const trace::LocalTrace& t : traces) {
            rows.push_back(analyses::traffic_row(t, trace::MessageSlots(t)));
            cells.insert(cells.end(), rows.back().begin(), rows.back().end());
        }
    }
    const TrafficCell* cell(int from, int to) const {
        for (const TrafficCell& c : cells)
            if (c.from == from && c.to == to) return &c;
        return nullptr;
    }
};

// Rank r sends 100 bytes to r + 1 (mod 4) and receives from r - 1, then all
// four sum 8 bytes in an MPI_Allreduce. Ranks 0, 1 on node "a", 2, 3 on "b".
TraceBuilder ring() {
    TraceBuilder t(4);
    for (int r : {2, 3}) t.set_node_of_rank(r, "b");
    t.set_node_of_rank(0, "a");
    t.set_node_of_rank(1, "a");
    for (int r = 0; r < 4; ++r)
        t.rank(r).enter(0, "main").sendrecv(10, 20, (r + 1) % 4, 1, 100, (r + 3) % 4, 1, 100).allreduce(30, 40, 8)
            .leave(50);
    return t;
}

// The ring, where each rank also sends 700 bytes to itself first (the
// periodic boundary of a grid dimension one rank wide).
TraceBuilder ring_with_messages_to_oneself() {
    TraceBuilder t(4);
    for (int r = 0; r < 4; ++r) t.set_node_of_rank(r, r < 2 ? "a" : "b");
    for (int r = 0; r < 4; ++r)
        t.rank(r).enter(0, "main").sendrecv(1, 5, r, 2, 700, r, 2, 700)
            .sendrecv(10, 20, (r + 1) % 4, 1, 100, (r + 3) % 4, 1, 100).allreduce(30, 40, 8).leave(50);
    return t;
}

// A non-periodic 4 x 4 grid, rank = 4 * row + column (MPI's row-major
// order): every rank sends 1000 bytes to each neighbour it has (2 to 4),
// posted as MPI_Isend, received with MPI_Recv. Nodes of 4 ranks in rank
// order: node k holds row k.
constexpr int kSide = 4;
constexpr std::uint64_t kHalo = 1000;

TraceBuilder halo() {
    TraceBuilder t(kSide * kSide);
    const Comm grid = t.communicator([] {
        std::vector<int> all(kSide * kSide);
        for (int i = 0; i < kSide * kSide; ++i) all[static_cast<std::size_t>(i)] = i;
        return all;
    }(), t.world(), "MPI_Cart_create(reorder) @ main");
    for (int r = 0; r < kSide * kSide; ++r) t.set_node_of_rank(r, "n" + std::to_string(r / kSide));
    for (int r = 0; r < kSide * kSide; ++r) {
        const int row = r / kSide, column = r % kSide;
        std::vector<int> neighbours;
        if (row > 0) neighbours.push_back(r - kSide);
        if (row < kSide - 1) neighbours.push_back(r + kSide);
        if (column > 0) neighbours.push_back(r - 1);
        if (column < kSide - 1) neighbours.push_back(r + 1);
        RankBuilder& rank = t.rank(r).enter(0, "main");
        std::vector<RequestId> sends;
        Ticks at = 10;
        for (const int n : neighbours) {
            sends.push_back(rank.isend(at, at + 1, n, 5, kHalo, grid));
            at += 2;
        }
        at = 20;
        for (const int n : neighbours) {
            rank.recv(at, at + 5, n, 5, kHalo, grid);
            at += 10;
        }
        rank.waitall(70, 71, sends).leave(80);
    }
    return t;
}

std::set<std::set<int>> groups(const std::vector<int>& node_of_rank) {
    std::map<int, std::set<int>> by_node;
    for (std::size_t r = 0; r < node_of_rank.size(); ++r) by_node[node_of_rank[r]].insert(static_cast<int>(r));
    std::set<std::set<int>> out;
    for (const auto& [node, ranks] : by_node) out.insert(ranks);
    return out;
}

}  // namespace

TEST_CASE("communication matrix: a ring's messages and what its allreduce implies", "[placement]") {
    const Matrix m(ring());
    for (int r = 0; r < 4; ++r) {
        const TrafficCell* next = m.cell(r, (r + 1) % 4);
        REQUIRE(next);
        CHECK(next->messages == 1);
        CHECK(next->bytes == 100);
        // The allreduce: each rank sends N*8 = 32 bytes, 8 to every member;
        // its own share stays on the rank.
        CHECK(next->collective_bytes == 8);
        const TrafficCell* across = m.cell(r, (r + 2) % 4);
        REQUIRE(across);
        CHECK(across->messages == 0);
        CHECK(across->collective_bytes == 8);
        CHECK(m.cell(r, r) == nullptr);
    }
    CHECK(m.cells.size() == 4 * 3);
}

TEST_CASE("communication matrix: per node pair from the system tree", "[placement]") {
    const Matrix m(ring());
    const CommunicationStructure s =
        communication_structure(m.traces[0].definitions, {}, m.rows, 0, "ring.otf2");
    CHECK(s.nodes.names == std::vector<std::string>{"a", "b"});
    CHECK(s.nodes.node_of_rank == std::vector<int>{0, 0, 1, 1});
    // a -> a: 0 -> 1 (100 bytes, 8 collective); a -> b: 1 -> 2 (100) plus the
    // allreduce shares 0 -> 2, 0 -> 3, 1 -> 2, 1 -> 3 (4 x 8).
    REQUIRE(s.node_matrix.size() == 4);
    CHECK((s.node_matrix[0].from == 0 && s.node_matrix[0].to == 0));
    CHECK(s.node_matrix[0].bytes == 100);
    CHECK(s.node_matrix[0].collective_bytes == 2 * 8);
    CHECK((s.node_matrix[1].from == 0 && s.node_matrix[1].to == 1));
    CHECK(s.node_matrix[1].messages == 1);
    CHECK(s.node_matrix[1].bytes == 100);
    CHECK(s.node_matrix[1].collective_bytes == 4 * 8);
}

TEST_CASE("placement: a ring on 2 nodes of 2 cores", "[placement]") {
    const Matrix m(ring());
    const PlacementAdvice p = advise_placement(4, m.cells, 2);
    REQUIRE(p.mappings.size() == 3);
    CHECK(p.nodes == 2);
    // All traffic: 4 messages of 100 bytes and 12 collective shares of 8.
    CHECK(p.total_bytes == 4 * 100 + 12 * 8);
    // Any 2 + 2 split cuts 4 of the 6 rank pairs' collective shares (both ways).
    constexpr std::uint64_t collective_cut = 4 * 2 * 8;
    // Block {0,1} {2,3}: the messages 1 -> 2 and 3 -> 0 cross.
    CHECK(p.mappings[0].name == "block");
    CHECK(p.mappings[0].inter_node_bytes == 2 * 100 + collective_cut);
    // Round-robin {0,2} {1,3}: all four messages cross.
    CHECK(p.mappings[1].name == "round-robin");
    CHECK(p.mappings[1].inter_node_bytes == 4 * 100 + collective_cut);
    // Advised: two neighbours per node, as good as block.
    CHECK(p.mappings[2].name == "advised");
    CHECK(p.mappings[2].inter_node_bytes == 2 * 100 + collective_cut);
    const auto advised = groups(p.mappings[2].node_of_rank);
    CHECK((advised == std::set<std::set<int>>{{0, 1}, {2, 3}} || advised == std::set<std::set<int>>{{1, 2}, {0, 3}}));
}

TEST_CASE("placement: messages to oneself are on the diagonal and cross no node", "[placement]") {
    const Matrix m(ring_with_messages_to_oneself());
    for (int r = 0; r < 4; ++r) {
        const TrafficCell* own = m.cell(r, r);
        REQUIRE(own);
        CHECK(own->messages == 1);
        CHECK(own->bytes == 700);
        CHECK(own->collective_bytes == 0);
    }
    const PlacementAdvice p = advise_placement(4, m.cells, 2);
    // As for the ring alone: only traffic between different ranks counts.
    CHECK(p.total_bytes == 4 * 100 + 12 * 8);
    constexpr std::uint64_t collective_cut = 4 * 2 * 8;
    CHECK(p.mappings[0].inter_node_bytes == 2 * 100 + collective_cut);
    CHECK(p.mappings[2].inter_node_bytes == 2 * 100 + collective_cut);
}

TEST_CASE("placement: a 4 x 4 halo on 4 nodes of 4 cores goes to 2 x 2 blocks", "[placement]") {
    const Matrix m(halo());
    // 24 neighbour pairs, each exchanging 1000 bytes both ways.
    CHECK(m.cells.size() == 2 * 24);
    const CommunicationStructure s = communication_structure(m.traces[0].definitions, {}, m.rows, 0, "halo.otf2");
    const PlacementAdvice& p = s.placement;
    CHECK(p.cores_per_node == 4);  // the trace's nodes ran 4 ranks each
    CHECK(p.nodes == 4);
    CHECK(p.total_bytes == 2 * 24 * kHalo);
    // Block: node k = row k; the 3 x 4 vertical pairs between rows cross.
    CHECK(p.mappings[0].inter_node_bytes == 2 * 12 * kHalo);
    // Round-robin: node k = column k; the 4 x 3 horizontal pairs cross.
    CHECK(p.mappings[1].inter_node_bytes == 2 * 12 * kHalo);
    // 2 x 2 blocks: each has 4 pairs inside, 16 of 24 stay on a node; the
    // 8 pairs along the two middle lines cross.
    CHECK(p.mappings[2].inter_node_bytes == 2 * 8 * kHalo);
    CHECK(groups(p.mappings[2].node_of_rank) ==
          std::set<std::set<int>>{{0, 1, 4, 5}, {2, 3, 6, 7}, {8, 9, 12, 13}, {10, 11, 14, 15}});
    // The machine file starts rank r on node_of_rank[r], in rank order, on
    // the trace's own node names.
    const std::string file = machine_file(p.mappings[2], s.hosts);
    std::vector<std::string> host_of_rank;
    std::size_t at = 0;
    while (at < file.size()) {
        const std::size_t end = file.find('\n', at);
        const std::string line = file.substr(at, end - at);
        const std::size_t colon = line.rfind(':');
        for (int i = 0; i < std::stoi(line.substr(colon + 1)); ++i) host_of_rank.push_back(line.substr(0, colon));
        at = end + 1;
    }
    REQUIRE(host_of_rank.size() == 16);
    for (int r = 0; r < 16; ++r)
        CHECK(host_of_rank[static_cast<std::size_t>(r)] == s.hosts[static_cast<std::size_t>(p.mappings[2].node_of_rank[static_cast<std::size_t>(r)])]);
    CHECK(s.hosts == std::vector<std::string>{"n0", "n1", "n2", "n3"});
}

TEST_CASE("placement: cores per node given, more nodes than the trace had", "[placement]") {
    const Matrix m(halo());
    const CommunicationStructure s = communication_structure(m.traces[0].definitions, {}, m.rows, 2, "halo.otf2");
    CHECK_FALSE(s.cores_from_trace);
    CHECK(s.placement.nodes == 8);
    CHECK(s.hosts.front() == "node0");  // the trace names only 4 nodes
    for (int n = 0; n < 8; ++n)
        CHECK(std::count(s.placement.mappings[2].node_of_rank.begin(), s.placement.mappings[2].node_of_rank.end(), n) == 2);
    // Pairs of neighbours: 8 of the 24 pairs stay on a node at best.
    CHECK(s.placement.mappings[2].inter_node_bytes == 2 * (24 - 8) * kHalo);
}

TEST_CASE("placement: bad input", "[placement]") {
    const Matrix m(ring());
    CHECK_THROWS_WITH(advise_placement(4, m.cells, 0), "cores per node must be at least 1, not 0");
    std::vector<std::vector<TrafficCell>> rows = m.rows;
    rows[1].push_back({1, 9, 1, 10, 0});
    CHECK_THROWS_WITH(communication_structure(m.traces[0].definitions, {}, rows, 0, "ring.otf2"),
                      "ring.otf2: a message between ranks 1 and 9, outside the trace's 4 ranks");
}

TEST_CASE("placement: no node holds more ranks than it has cores", "[placement]") {
    // Rank 0 talks to everybody, most to the ranks with the highest numbers:
    // a partitioner that balances only up to a tolerance may overfill.
    for (const int ranks : {5, 7, 10, 23}) {
        std::vector<TrafficCell> cells;
        for (int r = 1; r < ranks; ++r) cells.push_back({0, r, 1, static_cast<std::uint64_t>(100 * r), 0});
        for (const int cores : {1, 2, 3, 4}) {
            const std::vector<int> node = partition_ranks(ranks, cells, cores);
            const int nodes = (ranks + cores - 1) / cores;
            for (int n = 0; n < nodes; ++n) CHECK(std::count(node.begin(), node.end(), n) <= cores);
            CHECK(*std::max_element(node.begin(), node.end()) < nodes);
        }
    }
}
