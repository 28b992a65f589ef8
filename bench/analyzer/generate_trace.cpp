// Writes a synthetic OTF2 trace for the analyzer benchmark:
//   generate_trace DIR RANKS EVENTS_PER_RANK [WAIT_PERCENT [ALLREDUCE_EVERY]]
// Each iteration of every rank: a compute region, then a message exchange
// with its partner (even ranks send first, odd ranks receive first), and
// every ALLREDUCE_EVERY-th iteration (default 64) an MPI_Allreduce -- 8
// events per iteration, a mix close to a bulk-synchronous code. In
// WAIT_PERCENT percent of the iterations (default 10, spread evenly) the
// sender comes late (a Late Sender); in the others the receive begins after
// the send ended (no wait state).
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <otf2/otf2.h>

namespace {

OTF2_FlushType pre_flush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) { return OTF2_FLUSH; }
OTF2_TimeStamp post_flush(void*, OTF2_FileType, OTF2_LocationRef) { return 0; }
const OTF2_FlushCallbacks kFlush = {pre_flush, post_flush};

struct CloseArchive {
    void operator()(OTF2_Archive* a) const { OTF2_Archive_Close(a); }
};

enum Region : OTF2_RegionRef { kMain, kWork, kSend, kRecv, kAllreduce, kInit, kFinalize, kRegions };
const char* const kRegionNames[kRegions] = {"main", "work", "MPI_Send", "MPI_Recv", "MPI_Allreduce",
                                            "MPI_Init", "MPI_Finalize"};
constexpr OTF2_CommRef kWorld = 0;

// Returns the number of events written. Iteration i spans the ticks
// [base, base + 2000) on every rank, with fixed offsets inside, so that each
// receive ends after its send began (no clock-condition violations) and the
// compute skew of ranks 1 and 2 (mod 3) makes their partners wait.
struct Mix {
    unsigned wait_percent = 10;
    std::uint64_t allreduce_every = 64;
};

std::uint64_t write_rank(OTF2_EvtWriter* w, int rank, int ranks, std::uint64_t events, const Mix& mix) {
    OTF2_EvtWriter_Enter(w, nullptr, 10, kMain);
    OTF2_EvtWriter_Enter(w, nullptr, 20, kInit);
    OTF2_EvtWriter_Leave(w, nullptr, 900, kInit);
    const int partner = (rank % 2 == 0) ? rank + 1 : rank - 1;
    const bool has_partner = partner < ranks;
    std::uint64_t written = 5;  // main, init and finalize frames
    OTF2_TimeStamp base = 1000;
    for (std::uint64_t i = 0; written + 9 < events; ++i, base += 2000) {
        OTF2_EvtWriter_Enter(w, nullptr, base + 10, kWork);
        OTF2_EvtWriter_Leave(w, nullptr, base + 110 + static_cast<OTF2_TimeStamp>(rank % 3) * 20, kWork);
        written += 2;
        // Late sender: the send begins 50 ticks after the receive; else the
        // receive begins after the send has ended.
        const bool late = (i * 37) % 100 < mix.wait_percent;
        for (int phase = 0; phase < 2 && has_partner; ++phase) {
            const OTF2_TimeStamp t = base + 300 + static_cast<OTF2_TimeStamp>(phase) * 400;
            if ((phase == 0) == (rank % 2 == 0)) {
                const OTF2_TimeStamp s = late ? t + 50 : t;
                OTF2_EvtWriter_Enter(w, nullptr, s, kSend);
                OTF2_EvtWriter_MpiSend(w, nullptr, s + 5, static_cast<std::uint32_t>(partner), kWorld, 1, 1024);
                OTF2_EvtWriter_Leave(w, nullptr, s + 10, kSend);
            } else {
                OTF2_EvtWriter_Enter(w, nullptr, late ? t + 2 : t + 20, kRecv);
                OTF2_EvtWriter_MpiRecv(w, nullptr, t + 200, static_cast<std::uint32_t>(partner), kWorld, 1, 1024);
                OTF2_EvtWriter_Leave(w, nullptr, t + 205, kRecv);
            }
            written += 3;
        }
        if (i % mix.allreduce_every == mix.allreduce_every - 1) {
            OTF2_EvtWriter_Enter(w, nullptr, base + 1200 + static_cast<OTF2_TimeStamp>(rank) * 10, kAllreduce);
            OTF2_EvtWriter_MpiCollectiveBegin(w, nullptr, base + 1201 + static_cast<OTF2_TimeStamp>(rank) * 10);
            OTF2_EvtWriter_MpiCollectiveEnd(w, nullptr, base + 1500, OTF2_COLLECTIVE_OP_ALLREDUCE, kWorld,
                                            OTF2_UNDEFINED_UINT32, 8, 8);
            OTF2_EvtWriter_Leave(w, nullptr, base + 1501, kAllreduce);
            written += 4;
        }
    }
    OTF2_EvtWriter_Enter(w, nullptr, base + 10, kFinalize);
    OTF2_EvtWriter_Leave(w, nullptr, base + 100, kFinalize);
    OTF2_EvtWriter_Leave(w, nullptr, base + 110, kMain);
    return written;
}

void write_definitions(OTF2_GlobalDefWriter* d, int ranks, const std::vector<std::uint64_t>& counts) {
    std::vector<std::string> strings{"", "machine", "Linux", "node", "node0", "Master thread", "MPI_COMM_WORLD"};
    const OTF2_StringRef first_region = static_cast<OTF2_StringRef>(strings.size());
    for (const char* name : kRegionNames) strings.emplace_back(name);
    const OTF2_StringRef first_rank = static_cast<OTF2_StringRef>(strings.size());
    for (int r = 0; r < ranks; ++r) strings.push_back("MPI Rank " + std::to_string(r));
    for (std::size_t i = 0; i < strings.size(); ++i)
        OTF2_GlobalDefWriter_WriteString(d, static_cast<OTF2_StringRef>(i), strings[i].c_str());
    OTF2_GlobalDefWriter_WriteClockProperties(d, 1'000'000'000, 0, 0, OTF2_UNDEFINED_TIMESTAMP);
    OTF2_GlobalDefWriter_WriteSystemTreeNode(d, 0, 2, 1, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    OTF2_GlobalDefWriter_WriteSystemTreeNode(d, 1, 4, 3, 0);
    for (int r = 0; r < ranks; ++r)
        OTF2_GlobalDefWriter_WriteLocationGroup(d, static_cast<OTF2_LocationGroupRef>(r), first_rank + r,
                                                OTF2_LOCATION_GROUP_TYPE_PROCESS, 1, OTF2_UNDEFINED_LOCATION_GROUP);
    for (int r = 0; r < ranks; ++r)
        OTF2_GlobalDefWriter_WriteLocation(d, static_cast<OTF2_LocationRef>(r), 5, OTF2_LOCATION_TYPE_CPU_THREAD,
                                           counts[static_cast<std::size_t>(r)],
                                           static_cast<OTF2_LocationGroupRef>(r));
    for (OTF2_RegionRef r = 0; r < kRegions; ++r) {
        const bool mpi = r >= kSend;
        OTF2_GlobalDefWriter_WriteRegion(d, r, first_region + r, first_region + r, 0,
                                         OTF2_REGION_ROLE_FUNCTION,
                                         mpi ? OTF2_PARADIGM_MPI : OTF2_PARADIGM_USER, OTF2_REGION_FLAG_NONE, 0, 0, 0);
    }
    std::vector<std::uint64_t> members(static_cast<std::size_t>(ranks));
    for (int r = 0; r < ranks; ++r) members[static_cast<std::size_t>(r)] = static_cast<std::uint64_t>(r);
    OTF2_GlobalDefWriter_WriteGroup(d, 0, 0, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                    static_cast<std::uint32_t>(ranks), members.data());
    OTF2_GlobalDefWriter_WriteGroup(d, 1, 0, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                    static_cast<std::uint32_t>(ranks), members.data());
    OTF2_GlobalDefWriter_WriteComm(d, kWorld, 6, 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 4 || argc > 6) {
        std::cerr << "usage: generate_trace DIR RANKS EVENTS_PER_RANK [WAIT_PERCENT [ALLREDUCE_EVERY]]\n";
        return 2;
    }
    const int ranks = std::atoi(argv[2]);
    const auto events = std::strtoull(argv[3], nullptr, 10);
    Mix mix;
    if (argc > 4) mix.wait_percent = static_cast<unsigned>(std::atoi(argv[4]));
    if (argc > 5) mix.allreduce_every = std::max<std::uint64_t>(1, std::strtoull(argv[5], nullptr, 10));
    // 1 MiB chunks for events and definitions, as the collector writes them
    // (Score-P: 1 MiB and 256 KiB). A reader allocates and fills a whole
    // chunk's buffer for even a tiny definitions file.
    constexpr std::uint64_t kChunk = 1024 * 1024;
    std::unique_ptr<OTF2_Archive, CloseArchive> archive(OTF2_Archive_Open(
        argv[1], "traces", OTF2_FILEMODE_WRITE, kChunk, kChunk, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE));
    if (!archive || ranks < 1) {
        std::cerr << "generate_trace: " << argv[1] << ": cannot create the archive\n";
        return 1;
    }
    OTF2_Archive_SetFlushCallbacks(archive.get(), &kFlush, nullptr);
    OTF2_Archive_SetSerialCollectiveCallbacks(archive.get());
    OTF2_Archive_OpenEvtFiles(archive.get());
    OTF2_Archive_OpenDefFiles(archive.get());
    std::vector<std::uint64_t> counts;
    for (int r = 0; r < ranks; ++r) {
        OTF2_EvtWriter* w = OTF2_Archive_GetEvtWriter(archive.get(), static_cast<OTF2_LocationRef>(r));
        counts.push_back(write_rank(w, r, ranks, events, mix));
        OTF2_Archive_CloseEvtWriter(archive.get(), w);
        OTF2_Archive_CloseDefWriter(archive.get(),
                                    OTF2_Archive_GetDefWriter(archive.get(), static_cast<OTF2_LocationRef>(r)));
    }
    OTF2_Archive_CloseEvtFiles(archive.get());
    OTF2_Archive_CloseDefFiles(archive.get());
    write_definitions(OTF2_Archive_GetGlobalDefWriter(archive.get()), ranks, counts);
    return 0;
}
