// The events a synthetic trace is made of, written to one location, each
// call a complete region with exact timestamps. Without an OTF2 writer the
// calls are only counted: generate_trace plans how many iterations every
// rank writes by running the shapes that way first.
#pragma once

#include <cstdint>

#include <otf2/otf2.h>

namespace hindsight::bench {

enum Region : OTF2_RegionRef {
    kMain, kWork, kSend, kRecv, kAllreduce, kInit, kFinalize, kAlltoall, kIprobe, kPut, kFence, kRegions
};
inline const char* const kRegionNames[kRegions] = {"main",          "work",     "MPI_Send",     "MPI_Recv",
                                                   "MPI_Allreduce", "MPI_Init", "MPI_Finalize", "MPI_Alltoall",
                                                   "MPI_Iprobe",    "MPI_Put",  "MPI_Win_fence"};
// The regions from kSend on are MPI's.
constexpr bool is_mpi(OTF2_RegionRef region) { return region >= kSend; }

constexpr OTF2_CommRef kWorld = 0;
// The one-sided shape's window, on MPI_COMM_WORLD.
constexpr OTF2_RmaWinRef kWindow = 0;
// Payload of a point-to-point message, and of an all-to-all per peer.
constexpr std::uint64_t kMessageBytes = 1024;

class Events {
public:
    explicit Events(OTF2_EvtWriter* writer) : w_(writer) {}

    std::uint64_t written() const { return written_; }

    void enter(OTF2_TimeStamp t, Region region) {
        if (w_) OTF2_EvtWriter_Enter(w_, nullptr, t, region);
        ++written_;
    }
    void leave(OTF2_TimeStamp t, Region region) {
        if (w_) OTF2_EvtWriter_Leave(w_, nullptr, t, region);
        ++written_;
    }
    void region(Region region, OTF2_TimeStamp begin, OTF2_TimeStamp end) {
        enter(begin, region);
        leave(end, region);
    }
    // An MPI_Send of 10 ticks; the message leaves 5 ticks after the call began.
    void send(OTF2_TimeStamp begin, int peer, std::uint32_t tag) {
        enter(begin, kSend);
        if (w_) OTF2_EvtWriter_MpiSend(w_, nullptr, begin + 5, static_cast<std::uint32_t>(peer), kWorld, tag,
                                       kMessageBytes);
        ++written_;
        leave(begin + 10, kSend);
    }
    // An MPI_Recv entered at begin whose message arrives at arrival.
    void recv(OTF2_TimeStamp begin, OTF2_TimeStamp arrival, int peer, std::uint32_t tag) {
        enter(begin, kRecv);
        if (w_) OTF2_EvtWriter_MpiRecv(w_, nullptr, arrival, static_cast<std::uint32_t>(peer), kWorld, tag,
                                       kMessageBytes);
        ++written_;
        leave(arrival + 5, kRecv);
    }
    // A collective on MPI_COMM_WORLD entered at begin; end is the same on
    // every rank and after the last rank entered.
    void collective(Region region, OTF2_CollectiveOp op, OTF2_TimeStamp begin, OTF2_TimeStamp end,
                    std::uint64_t bytes) {
        enter(begin, region);
        if (w_) {
            OTF2_EvtWriter_MpiCollectiveBegin(w_, nullptr, begin + 1);
            OTF2_EvtWriter_MpiCollectiveEnd(w_, nullptr, end, op, kWorld, OTF2_UNDEFINED_UINT32, bytes, bytes);
        }
        written_ += 2;
        leave(end + 1, region);
    }

    // An MPI_Put of 10 ticks to `peer`, issued 5 ticks after the call
    // began, which the next fence completes (its matching id is `id`).
    void put(OTF2_TimeStamp begin, int peer, std::uint64_t id) {
        enter(begin, kPut);
        if (w_) OTF2_EvtWriter_RmaPut(w_, nullptr, begin + 5, kWindow, static_cast<std::uint32_t>(peer),
                                      kMessageBytes, id);
        ++written_;
        leave(begin + 10, kPut);
    }
    // An MPI_Win_fence entered at begin that completes the rank's put with
    // matching id `put_id`; end is the same on every rank and after the
    // last rank entered (a barrier over the window), as in collective().
    void fence(OTF2_TimeStamp begin, OTF2_TimeStamp end, std::uint64_t put_id) {
        enter(begin, kFence);
        if (w_) {
            OTF2_EvtWriter_RmaCollectiveBegin(w_, nullptr, begin + 1);
            OTF2_EvtWriter_RmaOpCompleteBlocking(w_, nullptr, end - 1, kWindow, put_id);
            OTF2_EvtWriter_RmaCollectiveEnd(w_, nullptr, end, OTF2_COLLECTIVE_OP_BARRIER,
                                            static_cast<OTF2_RmaSyncLevel>(OTF2_RMA_SYNC_LEVEL_PROCESS |
                                                                           OTF2_RMA_SYNC_LEVEL_MEMORY),
                                            kWindow, OTF2_UNDEFINED_UINT32, 0, 0);
        }
        written_ += 3;
        leave(end + 1, kFence);
    }

private:
    OTF2_EvtWriter* w_;
    std::uint64_t written_ = 0;
};

}  // namespace hindsight::bench
