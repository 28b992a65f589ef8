// The profile per communicator on the split-communicator scenario
// (split_communicators.hpp): operations counted once per communicator, time,
// waiting and bytes summed over the participants.
#include <catch2/catch.hpp>

#include <string>

#include "analyses/communication/communicator_profile.hpp"
#include "tests/analyses/analysis_harness.hpp"
#include "tests/analyses/backward/nonblocking_allreduce.hpp"
#include "tests/analyses/split_communicators.hpp"

using namespace hindsight;
using namespace hindsight::analyses;
using namespace hindsight::testing;

namespace {

constexpr CommId kWorldComm = 0, kEven = 2, kOdd = 3;  // builder ids: world, self, then in order of creation

CommunicatorProfile all_ranks(const AnalysisResults& r, int ranks) {
    CommunicatorProfile sum;
    for (int rank = 0; rank < ranks; ++rank) merge_into(sum, r.findings(rank).communicators);
    return sum;
}

const CommOperationStats& entry(const CommunicatorProfile& profile, const trace::LocalTrace& t, CommId comm,
                                const std::string& operation) {
    for (const CommOperationStats& s : profile)
        if (s.comm == comm && t.definitions.regions[s.region].name == operation) return s;
    FAIL("no entry for " << operation << " on communicator " << comm);
    throw;  // not reached
}

}  // namespace

TEST_CASE("communicator profile: collectives count once per communicator", "[communicators]") {
    const AnalysisResults r(split_communicators());
    const CommunicatorProfile p = all_ranks(r, 4);
    const trace::LocalTrace& t = r.trace(0);

    // even: one allreduce of ranks 0 (10..40) and 2 (30..40); rank 0 waits
    // for rank 2 from 10 to 30. Each sends and receives N*8 = 16 bytes.
    const CommOperationStats& even_allreduce = entry(p, t, kEven, "MPI_Allreduce");
    CHECK(even_allreduce.operations == 1);
    CHECK(even_allreduce.calls == 2);
    CHECK(even_allreduce.time == (40 - 10) + (40 - 30));
    CHECK(even_allreduce.waiting == 30 - 10);
    CHECK(even_allreduce.bytes_sent == 2 * 16);
    CHECK(even_allreduce.bytes_received == 2 * 16);
    const CommOperationStats& even_barrier = entry(p, t, kEven, "MPI_Barrier");
    CHECK(even_barrier.operations == 1);
    CHECK(even_barrier.calls == 2);
    CHECK(even_barrier.time == 2 * (60 - 50));
    CHECK(even_barrier.waiting == 0);

    // odd: two allreduces; in the second rank 1 (25) waits for rank 3 (30).
    const CommOperationStats& odd_allreduce = entry(p, t, kOdd, "MPI_Allreduce");
    CHECK(odd_allreduce.operations == 2);
    CHECK(odd_allreduce.calls == 4);
    CHECK(odd_allreduce.time == 2 * (20 - 10) + (35 - 25) + (35 - 30));
    CHECK(odd_allreduce.waiting == 30 - 25);
    CHECK(odd_allreduce.bytes_sent == 4 * 16);

    // The late message: rank 1 receives from 82, rank 3 sends at 85.
    const CommOperationStats& send = entry(p, t, kOdd, "MPI_Send");
    CHECK(send.operations == 1);
    CHECK(send.time == 86 - 85);
    CHECK(send.bytes_sent == 100);
    const CommOperationStats& recv = entry(p, t, kOdd, "MPI_Recv");
    CHECK(recv.operations == 1);
    CHECK(recv.time == 90 - 82);
    CHECK(recv.waiting == 85 - 82);
    CHECK(recv.bytes_received == 100);

    // world: one broadcast of 4 ranks; the root sends N*4 = 16 bytes.
    const CommOperationStats& bcast = entry(p, t, kWorldComm, "MPI_Bcast");
    CHECK(bcast.operations == 1);
    CHECK(bcast.calls == 4);
    CHECK(bcast.time == 4 * (80 - 70));
    CHECK(bcast.bytes_sent == 16);
    CHECK(bcast.bytes_received == 4 * 4);

    // Nothing else: MPI_Init/MPI_Finalize are no operations of the program.
    CHECK(p.size() == 6);
}

TEST_CASE("communicator profile: the communicator's rank 0 counts its collectives", "[communicators]") {
    const AnalysisResults r(split_communicators());
    const trace::LocalTrace& t = r.trace(0);
    // odd's rank 0 is world rank 3: it counts both allreduces, rank 1 none.
    CHECK(entry(r.findings(3).communicators, t, kOdd, "MPI_Allreduce").operations == 2);
    CHECK(entry(r.findings(1).communicators, t, kOdd, "MPI_Allreduce").operations == 0);
    CHECK(entry(r.findings(1).communicators, t, kOdd, "MPI_Allreduce").calls == 2);
}

TEST_CASE("communicator profile: merging adds entry by entry", "[communicators]") {
    CommunicatorProfile a{{1, 5, 1, 1, 10, 2, 8, 0}, {2, 5, 1, 1, 10, 0, 0, 0}};
    const CommunicatorProfile b{{0, 7, 1, 1, 3, 0, 0, 0}, {2, 5, 0, 1, 20, 4, 0, 8}};
    merge_into(a, b);
    REQUIRE(a.size() == 3);
    CHECK((a[0].comm == 0 && a[1].comm == 1 && a[2].comm == 2));
    CHECK(a[2].operations == 1);
    CHECK(a[2].calls == 2);
    CHECK(a[2].time == 30);
    CHECK(a[2].waiting == 4);
    CHECK(a[2].bytes_received == 8);
}

TEST_CASE("communicator profile: a non-blocking collective counts with its starting call", "[communicators]") {
    // nonblocking_allreduce.hpp: MPI_Iallreduce calls of 2 ticks, awaited
    // in MPI_Wait from 27, 57 and 37 to 80; 24 + 14 ticks of waiting, 8
    // bytes sent and received by each rank.
    const AnalysisResults r(nonblocking_allreduce_trace());
    const CommunicatorProfile p = all_ranks(r, 3);
    const CommOperationStats& iallreduce = entry(p, r.trace(0), kWorldComm, "MPI_Iallreduce");
    CHECK(iallreduce.operations == 1);
    CHECK(iallreduce.calls == 3);
    CHECK(iallreduce.time == 3 * 2 + (80 - 27) + (80 - 57) + (80 - 37));
    CHECK(iallreduce.waiting == 24 + 14);
    CHECK(iallreduce.bytes_sent == 3 * 8);
    CHECK(iallreduce.bytes_received == 3 * 8);
    CHECK(p.size() == 1);  // no entry of its own for MPI_Wait
}
