// A small hand-built report shared by the CUBE tests, with every value chosen
// by hand, plus helpers to name call paths and locations independently of
// the indices a report happens to use.
//
// Metric tree (own shares):          Call tree (regions by index):
//   time [sec]                         main
//     mpi [sec]                          compute
//       mpi_latesender [sec]               MPI_Recv      (added last)
//       mpi_barrier_wait [sec]           MPI_Recv
//   visits [occ, UINT64]                 MPI_Barrier
//
// System tree: machine "cluster" with node "n0" (rank 0 with one thread,
// rank 1 with two threads) and node "n1" (rank 2 with one thread). The
// groups and threads are added out of depth-first order on purpose, as are
// the call paths, so that the writer's renumbering is exercised.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/cube/report.hpp"

namespace cube_test {

using namespace hindsight::cube;

struct Fixture {
    Report report;
    MetricIndex time, mpi, latesender, barrier_wait, visits;
    CnodeIndex main, compute, main_recv, main_barrier, compute_recv;
    // Locations by (rank, thread).
    LocationIndex r0t0, r1t0, r1t1, r2t0;
};

inline Fixture make_fixture() {
    Fixture f;
    Report& r = f.report;
    r.set_attribute("Creator", "Hindsight test");
    r.add_mirror("https://example.org/patterns/");

    f.time = r.add_metric({"time", "Time", "sec", "Total time", "@mirror@#time", DataType::Double, kNone});
    f.mpi = r.add_metric({"mpi", "MPI", "sec", "Time in MPI", "", DataType::Double, f.time});
    f.visits = r.add_metric({"visits", "Visits", "occ", "Number of visits", "", DataType::Uint64, kNone});
    f.latesender = r.add_metric({"mpi_latesender", "Late Sender", "sec", "Waiting for a late sender", "",
                                 DataType::Double, f.mpi});
    f.barrier_wait = r.add_metric({"mpi_barrier_wait", "Wait at Barrier", "sec", "Waiting in a barrier", "",
                                   DataType::Double, f.mpi});

    const RegionIndex main = r.add_region({"main", "main", "", "", "app.c", 10, 90, hindsight::Paradigm::User,
                                           hindsight::RegionRole::Function});
    const RegionIndex compute = r.add_region({"compute", "_Z7computev", "", "", "app.c", 20, 40,
                                              hindsight::Paradigm::Compiler, hindsight::RegionRole::Function});
    const RegionIndex recv = r.add_region({"MPI_Recv", "MPI_Recv", "", "", "", -1, -1, hindsight::Paradigm::Mpi,
                                           hindsight::RegionRole::Point2Point});
    const RegionIndex barrier = r.add_region({"MPI_Barrier", "MPI_Barrier", "", "", "", -1, -1,
                                              hindsight::Paradigm::Mpi, hindsight::RegionRole::Barrier});
    f.main = r.add_cnode(main, kNone);
    f.compute = r.add_cnode(compute, f.main);
    f.main_recv = r.add_cnode(recv, f.main);
    f.main_barrier = r.add_cnode(barrier, f.main);
    f.compute_recv = r.add_cnode(recv, f.compute);

    const SystemNodeIndex machine = r.add_system_node({"cluster", "machine", "", kNone});
    const SystemNodeIndex n0 = r.add_system_node({"n0", "node", "", machine});
    const SystemNodeIndex n1 = r.add_system_node({"n1", "node", "first node", machine});
    const LocationGroupIndex p2 = r.add_location_group({"MPI Rank 2", 2, n1});
    const LocationGroupIndex p0 = r.add_location_group({"MPI Rank 0", 0, n0});
    const LocationGroupIndex p1 = r.add_location_group({"MPI Rank 1", 1, n0});
    f.r2t0 = r.add_location({"Master thread", 0, p2});
    f.r1t1 = r.add_location({"Thread 1", 1, p1});
    f.r0t0 = r.add_location({"Master thread", 0, p0});
    f.r1t0 = r.add_location({"Master thread", 0, p1});

    // Own shares, all exactly representable so that sums and differences
    // are exact. Rank 1's second thread only computes.
    struct V {
        MetricIndex m;
        CnodeIndex c;
        LocationIndex l;
        double v;
    };
    const std::vector<V> values = {
        {f.time, f.main, f.r0t0, 1.0},         {f.time, f.main, f.r1t0, 1.5},
        {f.time, f.main, f.r2t0, 2.0},         {f.time, f.compute, f.r0t0, 10.0},
        {f.time, f.compute, f.r1t0, 12.0},     {f.time, f.compute, f.r1t1, 12.5},
        {f.time, f.compute, f.r2t0, 8.0},      {f.mpi, f.main_recv, f.r0t0, 0.25},
        {f.mpi, f.main_recv, f.r1t0, 0.5},     {f.mpi, f.main_recv, f.r2t0, 0.75},
        {f.latesender, f.main_recv, f.r0t0, 1.5}, {f.latesender, f.main_recv, f.r2t0, 0.125},
        {f.mpi, f.compute_recv, f.r1t0, 0.25}, {f.latesender, f.compute_recv, f.r1t0, 3.0},
        {f.mpi, f.main_barrier, f.r0t0, 0.5},  {f.mpi, f.main_barrier, f.r1t0, 0.5},
        {f.mpi, f.main_barrier, f.r2t0, 0.5},  {f.barrier_wait, f.main_barrier, f.r0t0, 2.0},
        {f.barrier_wait, f.main_barrier, f.r1t0, 0.0625},
        {f.visits, f.main, f.r0t0, 1},         {f.visits, f.main, f.r1t0, 1},
        {f.visits, f.main, f.r2t0, 1},         {f.visits, f.compute, f.r0t0, 100},
        {f.visits, f.compute, f.r1t0, 120},    {f.visits, f.compute, f.r1t1, 120},
        {f.visits, f.compute, f.r2t0, 80},     {f.visits, f.main_recv, f.r0t0, 7},
        {f.visits, f.compute_recv, f.r1t0, 3}, {f.visits, f.main_barrier, f.r0t0, 2},
        {f.visits, f.main_barrier, f.r1t0, 2}, {f.visits, f.main_barrier, f.r2t0, 2},
    };
    for (const V& v : values) r.add_value(v.m, v.c, v.l, v.v);
    return f;
}

// A region known by its name (and source file) only.
inline Region region_named(std::string name, std::string source_file = "") {
    Region region;
    region.name = std::move(name);
    region.source_file = std::move(source_file);
    return region;
}

// Region names from the root down to `c`.
inline std::vector<std::string> path_of(const Report& r, CnodeIndex c) {
    std::vector<std::string> path;
    for (; c != kNone; c = r.cnodes()[c].parent) path.insert(path.begin(), r.regions()[r.cnodes()[c].region].name);
    return path;
}

// The location with this process rank and thread rank; kNone if absent.
inline LocationIndex location_of(const Report& r, std::int64_t rank, std::int64_t thread) {
    for (LocationIndex l = 0; l < r.locations().size(); ++l)
        if (r.locations()[l].rank == thread && r.location_groups()[r.locations()[l].group].rank == rank) return l;
    return kNone;
}

// A fresh directory under the system's temporary directory, removed with
// everything in it when the object goes.
class ScratchDir {
public:
    ScratchDir() {
        std::string pattern = (std::filesystem::temp_directory_path() / "hindsight-cube-XXXXXX").string();
        if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("cannot create a scratch directory");
        path_ = pattern;
    }
    ~ScratchDir() {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
    std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

private:
    std::filesystem::path path_;
};

}  // namespace cube_test
