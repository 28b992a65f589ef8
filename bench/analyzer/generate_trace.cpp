// Writes a synthetic OTF2 trace for the analyzer benchmarks:
//   generate_trace [--shape SHAPE] [--unmatched PERCENT] DIR RANKS EVENTS_PER_RANK [WAIT_PERCENT [ALLREDUCE_EVERY]]
// Every rank repeats an iteration of the SHAPE (shapes.cpp; default pairs:
// a compute region, then a message exchange with a partner, 8 events, a mix
// close to a bulk-synchronous code), and after every ALLREDUCE_EVERY-th
// iteration (default 64) an MPI_Allreduce, until it has written about
// EVENTS_PER_RANK events (within 10). WAIT_PERCENT (default 10) is the
// share of Late Senders in the pairs shape; the other shapes wait where
// their pattern makes them. --unmatched PERCENT (pairs only, default 0):
// that share of the messages has no receive.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <otf2/otf2.h>

#include "bench/analyzer/shapes.hpp"
#include "bench/analyzer/synthetic_events.hpp"

namespace {

using namespace hindsight::bench;

OTF2_FlushType pre_flush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) { return OTF2_FLUSH; }
OTF2_TimeStamp post_flush(void*, OTF2_FileType, OTF2_LocationRef) { return 0; }
const OTF2_FlushCallbacks kFlush = {pre_flush, post_flush};

struct CloseArchive {
    void operator()(OTF2_Archive* a) const { OTF2_Archive_Close(a); }
};

struct Options {
    const char* dir = nullptr;
    int ranks = 0;
    std::uint64_t events = 0;
    const Shape* shape = find_shape("pairs");
    unsigned wait_percent = 10;
    std::uint64_t allreduce_every = 64;
    unsigned unmatched_percent = 0;
};

// Every iteration takes its shape's body, then this window for the
// allreduce (which begins at the body's end) and a gap.
constexpr OTF2_TimeStamp kCollectiveWindow = 800;
constexpr OTF2_TimeStamp kFirstIteration = 1000;
// The ranks stop before an iteration once the fullest one's count, with
// the closing frames, is within kSlack of the requested events: an
// iteration writes at most 18 (a halo exchange and an allreduce), so every
// rank ends within 10 of the request.
constexpr std::uint64_t kSlack = 8;
constexpr std::uint64_t kClosingEvents = 3;

OTF2_TimeStamp iteration_base(const Options& o, std::uint64_t i) {
    return kFirstIteration + i * (o.shape->body(o.ranks) + kCollectiveWindow);
}

void open_frames(Events& events) {
    events.enter(10, kMain);
    events.region(kInit, 20, 900);
}

void close_frames(Events& events, OTF2_TimeStamp at) {
    events.region(kFinalize, at + 10, at + 100);
    events.leave(at + 110, kMain);
}

// The shape's iteration, then the allreduce if it is due. Ranks enter it
// 10 ticks apart (up to 150), so that the earlier ones wait.
void write_iteration(Events& events, const Options& o, const Step& step) {
    o.shape->write(events, step);
    if (step.iteration % o.allreduce_every != o.allreduce_every - 1) return;
    const OTF2_TimeStamp at = step.base + o.shape->body(o.ranks);
    events.collective(kAllreduce, OTF2_COLLECTIVE_OP_ALLREDUCE, at + static_cast<OTF2_TimeStamp>(step.rank % 16) * 10,
                      at + 300, 8);
}

Step step_of(const Options& o, int rank, std::uint64_t i) {
    return Step{rank, o.ranks, i, iteration_base(o, i), o.wait_percent, 1, o.unmatched_percent};
}

// All ranks write the same number of iterations (their messages and
// collectives must match): as many as the fullest rank needs. A rank that
// writes fewer events per iteration fills up with extra compute calls,
// spread evenly over its iterations.
struct Plan {
    std::uint64_t iterations = 0;
    std::vector<std::uint64_t> extra_work_calls;  // per rank
};

Plan plan(const Options& o) {
    std::vector<Events> counts(static_cast<std::size_t>(o.ranks), Events(nullptr));
    for (Events& events : counts) open_frames(events);
    const auto most = [&] {
        return std::max_element(counts.begin(), counts.end(), [](const Events& a, const Events& b) {
                   return a.written() < b.written();
               })->written();
    };
    Plan p;
    for (; most() + kClosingEvents + kSlack < o.events; ++p.iterations)
        for (int r = 0; r < o.ranks; ++r)
            write_iteration(counts[static_cast<std::size_t>(r)], o, step_of(o, r, p.iterations));
    for (const Events& events : counts) p.extra_work_calls.push_back((most() - events.written() + 1) / 2);
    return p;
}

// Returns the number of events written.
std::uint64_t write_rank(OTF2_EvtWriter* w, const Options& o, int rank, const Plan& p) {
    Events events(w);
    open_frames(events);
    const std::uint64_t extra = p.extra_work_calls[static_cast<std::size_t>(rank)];
    for (std::uint64_t i = 0; i < p.iterations; ++i) {
        Step step = step_of(o, rank, i);
        step.work_calls += extra * (i + 1) / p.iterations - extra * i / p.iterations;
        write_iteration(events, o, step);
    }
    close_frames(events, iteration_base(o, p.iterations));
    return events.written();
}

void write_definitions(OTF2_GlobalDefWriter* d, int ranks, const std::vector<std::uint64_t>& counts) {
    std::vector<std::string> strings{"", "machine", "Linux", "node", "node0", "Master thread", "MPI_COMM_WORLD",
                                     "MPI window 0"};
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
        OTF2_GlobalDefWriter_WriteRegion(d, r, first_region + r, first_region + r, 0,
                                         OTF2_REGION_ROLE_FUNCTION,
                                         is_mpi(r) ? OTF2_PARADIGM_MPI : OTF2_PARADIGM_USER, OTF2_REGION_FLAG_NONE, 0, 0, 0);
    }
    std::vector<std::uint64_t> members(static_cast<std::size_t>(ranks));
    for (int r = 0; r < ranks; ++r) members[static_cast<std::size_t>(r)] = static_cast<std::uint64_t>(r);
    OTF2_GlobalDefWriter_WriteGroup(d, 0, 0, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                    static_cast<std::uint32_t>(ranks), members.data());
    OTF2_GlobalDefWriter_WriteGroup(d, 1, 0, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                    static_cast<std::uint32_t>(ranks), members.data());
    OTF2_GlobalDefWriter_WriteComm(d, kWorld, 6, 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
    OTF2_GlobalDefWriter_WriteRmaWin(d, kWindow, 7, kWorld, OTF2_RMA_WIN_FLAG_NONE);
}

// --shape NAME (or --shape=NAME) and --unmatched PERCENT anywhere, the
// rest positional.
bool parse(int argc, char** argv, Options& o) {
    std::vector<const char*> positional;
    for (int i = 1; i < argc; ++i) {
        const char* shape = nullptr;
        if (std::strcmp(argv[i], "--shape") == 0 && i + 1 < argc)
            shape = argv[++i];
        else if (std::strncmp(argv[i], "--shape=", 8) == 0)
            shape = argv[i] + 8;
        else if (std::strcmp(argv[i], "--unmatched") == 0 && i + 1 < argc)
            o.unmatched_percent = static_cast<unsigned>(std::atoi(argv[++i]));
        else
            positional.push_back(argv[i]);
        if (shape && !(o.shape = find_shape(shape))) return false;
    }
    if (positional.size() < 3 || positional.size() > 5) return false;
    o.dir = positional[0];
    o.ranks = std::atoi(positional[1]);
    o.events = std::strtoull(positional[2], nullptr, 10);
    if (positional.size() > 3) o.wait_percent = static_cast<unsigned>(std::atoi(positional[3]));
    if (positional.size() > 4) o.allreduce_every = std::max<std::uint64_t>(1, std::strtoull(positional[4], nullptr, 10));
    return o.ranks >= 1;
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    if (!parse(argc, argv, o)) {
        std::cerr << "usage: generate_trace [--shape " << shape_names()
                  << "] [--unmatched PERCENT] DIR RANKS EVENTS_PER_RANK [WAIT_PERCENT [ALLREDUCE_EVERY]]\n";
        return 2;
    }
    // 1 MiB chunks for events and definitions, as the collector writes them
    // (Score-P: 1 MiB and 256 KiB). A reader allocates and fills a whole
    // chunk's buffer for even a tiny definitions file.
    constexpr std::uint64_t kChunk = 1024 * 1024;
    std::unique_ptr<OTF2_Archive, CloseArchive> archive(OTF2_Archive_Open(
        o.dir, "traces", OTF2_FILEMODE_WRITE, kChunk, kChunk, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE));
    if (!archive) {
        std::cerr << "generate_trace: " << o.dir << ": cannot create the archive\n";
        return 1;
    }
    OTF2_Archive_SetFlushCallbacks(archive.get(), &kFlush, nullptr);
    OTF2_Archive_SetSerialCollectiveCallbacks(archive.get());
    OTF2_Archive_OpenEvtFiles(archive.get());
    OTF2_Archive_OpenDefFiles(archive.get());
    const Plan p = plan(o);
    std::vector<std::uint64_t> counts;
    for (int r = 0; r < o.ranks; ++r) {
        OTF2_EvtWriter* w = OTF2_Archive_GetEvtWriter(archive.get(), static_cast<OTF2_LocationRef>(r));
        counts.push_back(write_rank(w, o, r, p));
        OTF2_Archive_CloseEvtWriter(archive.get(), w);
        OTF2_Archive_CloseDefWriter(archive.get(),
                                    OTF2_Archive_GetDefWriter(archive.get(), static_cast<OTF2_LocationRef>(r)));
    }
    OTF2_Archive_CloseEvtFiles(archive.get());
    OTF2_Archive_CloseDefFiles(archive.get());
    write_definitions(OTF2_Archive_GetGlobalDefWriter(archive.get()), o.ranks, counts);
    return 0;
}
