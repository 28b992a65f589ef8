#include "bench/analyzer/shapes.hpp"

#include <algorithm>
#include <array>

namespace hindsight::bench {

namespace {

// Compute time beyond 100 ticks: ranks 1 and 2 (mod 3) come later to the
// communication than rank 0 (mod 3), so that their peers wait.
OTF2_TimeStamp skew(int rank) { return static_cast<OTF2_TimeStamp>(rank % 3) * 20; }

// The compute region [begin, end], in step.work_calls calls of equal length.
void work(Events& events, const Step& step, OTF2_TimeStamp begin, OTF2_TimeStamp end) {
    const OTF2_TimeStamp length = (end - begin) / step.work_calls;
    for (std::uint64_t call = 0; call + 1 < step.work_calls; ++call)
        events.region(kWork, begin + call * length, begin + (call + 1) * length - 1);
    events.region(kWork, begin + (step.work_calls - 1) * length, end);
}

// The neighbours on the ring of all ranks.
int left_of(int rank, int ranks) { return (rank + ranks - 1) % ranks; }
int right_of(int rank, int ranks) { return (rank + 1) % ranks; }

// A message arrives 100 ticks after both its send and its receive began.
OTF2_TimeStamp arrival(OTF2_TimeStamp receive, OTF2_TimeStamp send) { return std::max(receive, send) + 100; }

// When a shift (below) that sent at send, from a peer that sent at
// peer_send, has ended.
OTF2_TimeStamp shift_end(OTF2_TimeStamp send, OTF2_TimeStamp peer_send) { return arrival(send + 12, peer_send) + 5; }

// One step of a shift along the ring: send to `to` at send, then receive
// what `from` sent at from_send.
void shift(Events& events, int to, int from, std::uint32_t tag, OTF2_TimeStamp send, OTF2_TimeStamp from_send) {
    events.send(send, to, tag);
    events.recv(send + 12, arrival(send + 12, from_send), from, tag);
}

// Rank pairs (0-1, 2-3, ...) exchange a message each way: even ranks send
// first. In wait_percent percent of the iterations (spread evenly) the
// sender comes late (a Late Sender); in the others the receive begins after
// the send ended. In unmatched_percent percent of them (spread evenly too)
// neither message is received: they go with tag 2 (as to a receive the
// trace does not show), so that the others still pair.
OTF2_TimeStamp pairs_body(int) { return 1200; }
void pairs(Events& events, const Step& step) {
    const OTF2_TimeStamp base = step.base;
    work(events, step, base + 10, base + 110 + skew(step.rank));
    const int partner = (step.rank % 2 == 0) ? step.rank + 1 : step.rank - 1;
    if (partner >= step.ranks) return;
    const bool late = (step.iteration * 37) % 100 < step.wait_percent;
    const bool unmatched = (step.iteration * 53) % 100 < step.unmatched_percent;
    for (int phase = 0; phase < 2; ++phase) {
        const OTF2_TimeStamp t = base + 300 + static_cast<OTF2_TimeStamp>(phase) * 400;
        if ((phase == 0) == (step.rank % 2 == 0))
            events.send(late ? t + 50 : t, partner, unmatched ? 2 : 1);
        else if (!unmatched)
            events.recv(late ? t + 2 : t + 20, t + 200, partner, 1);
    }
}

// The pairs' exchange with a receiver that polls: MPI_Iprobe calls of 5
// ticks every 20 (a loop with work between the calls, each recorded in
// full) from when it is ready, until its MPI_Recv finds the message. The
// sender is always late, by 100 ticks: half of the calls wait.
constexpr OTF2_TimeStamp kPollEvery = 20;
OTF2_TimeStamp polling_body(int) { return 1200; }
void polling(Events& events, const Step& step) {
    const OTF2_TimeStamp base = step.base;
    work(events, step, base + 10, base + 110 + skew(step.rank));
    const int partner = (step.rank % 2 == 0) ? step.rank + 1 : step.rank - 1;
    if (partner >= step.ranks) return;
    for (int phase = 0; phase < 2; ++phase) {
        const OTF2_TimeStamp t = base + 300 + static_cast<OTF2_TimeStamp>(phase) * 400;
        if ((phase == 0) == (step.rank % 2 == 0)) {
            events.send(t + 100, partner, 1);
            continue;
        }
        for (OTF2_TimeStamp poll = t; poll < t + 200; poll += kPollEvery) events.region(kIprobe, poll, poll + 5);
        events.recv(t + 200, t + 210, partner, 1);
    }
}

// A wavefront: rank r receives from r - 1, computes, sends to r + 1. All
// ranks enter their receive at the iteration's start, so rank r waits for
// the r stages before it (a chain of Late Senders across all ranks).
constexpr OTF2_TimeStamp kStage = 200;
OTF2_TimeStamp pipeline_body(int ranks) { return 100 + static_cast<OTF2_TimeStamp>(ranks) * kStage; }
void pipeline(Events& events, const Step& step) {
    const OTF2_TimeStamp ready = step.base + 10 + static_cast<OTF2_TimeStamp>(step.rank) * kStage;
    if (step.rank > 0) events.recv(step.base + 10, ready, step.rank - 1, 0);
    work(events, step, ready + 10, ready + 110);
    if (step.rank + 1 < step.ranks) events.send(ready + 120, step.rank + 1, 0);
}

// A 1-D periodic halo exchange after a skewed compute region: send right
// and receive from the left, then send left and receive from the right.
// Each phase's times follow from the neighbours' (shift_end), so a rank
// whose neighbour computed longer waits for it.
OTF2_TimeStamp halo_body(int) { return 500; }
void halo(Events& events, const Step& step) {
    const int ranks = step.ranks;
    const auto first_send = [&](int rank) { return step.base + 120 + skew(rank); };
    const auto second_send = [&](int rank) {
        return shift_end(first_send(rank), first_send(left_of(rank, ranks))) + 10;
    };
    work(events, step, step.base + 10, first_send(step.rank) - 10);
    if (ranks < 2) return;
    const int left = left_of(step.rank, ranks);
    const int right = right_of(step.rank, ranks);
    shift(events, right, left, 0, first_send(step.rank), first_send(left));
    shift(events, left, right, 1, second_send(step.rank), second_send(right));
}

// A skewed compute region, then an MPI_Alltoall of kMessageBytes per peer
// (Wait at NxN for the earlier ranks), and every kShiftEvery-th iteration a
// point-to-point shift to the right neighbour.
constexpr std::uint64_t kShiftEvery = 8;
OTF2_TimeStamp alltoall_body(int) { return 500; }
void alltoall(Events& events, const Step& step) {
    const OTF2_TimeStamp base = step.base;
    work(events, step, base + 10, base + 110 + skew(step.rank));
    events.collective(kAlltoall, OTF2_COLLECTIVE_OP_ALLTOALL, base + 120 + skew(step.rank), base + 300,
                      kMessageBytes * static_cast<std::uint64_t>(step.ranks));
    if (step.iteration % kShiftEvery == 0 && step.ranks > 1)
        shift(events, right_of(step.rank, step.ranks), left_of(step.rank, step.ranks), 0, base + 320, base + 320);
}

// One-sided: a skewed compute region, an MPI_Put to the right neighbour,
// and the MPI_Win_fence that ends the epoch (Wait at Fence for the earlier
// ranks): as many events as the alltoall shape, through the RMA records.
OTF2_TimeStamp rma_body(int) { return 500; }
void rma(Events& events, const Step& step) {
    const OTF2_TimeStamp base = step.base;
    const OTF2_TimeStamp ready = base + 120 + skew(step.rank);
    work(events, step, base + 10, ready - 10);
    events.put(ready - 5, right_of(step.rank, step.ranks), step.iteration);
    events.fence(ready + 10, base + 300, step.iteration);
}

constexpr std::array<Shape, 6> kShapes = {{{"pairs", pairs_body, pairs},
                                           {"polling", polling_body, polling},
                                           {"pipeline", pipeline_body, pipeline},
                                           {"halo", halo_body, halo},
                                           {"alltoall", alltoall_body, alltoall},
                                           {"rma", rma_body, rma}}};

}  // namespace

const Shape* find_shape(std::string_view name) {
    const auto* found = std::find_if(kShapes.begin(), kShapes.end(), [&](const Shape& s) { return s.name == name; });
    return found == kShapes.end() ? nullptr : found;
}

const char* shape_names() { return "pairs|polling|pipeline|halo|alltoall|rma"; }

}  // namespace hindsight::bench
