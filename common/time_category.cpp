#include "common/time_category.hpp"

#include <array>
#include <optional>
#include <string_view>

#include "common/file_calls.hpp"
#include "common/rma_calls.hpp"

namespace hindsight {

using metrics::Metric;
namespace {

bool starts_with(std::string_view s, std::string_view prefix) { return s.starts_with(prefix); }

// MPI functions that manage communicators, groups of processes and process
// topologies; they cost time but neither move data nor synchronize on
// purpose.
bool is_communicator_management(std::string_view name) {
    static constexpr std::array<std::string_view, 12> kPrefixes{
        "MPI_Comm_",      "MPI_Cart_",     "MPI_Cartdim_get", "MPI_Graph_",
        "MPI_Graphdims_get", "MPI_Dist_graph_", "MPI_Dims_create", "MPI_Intercomm_",
        "MPI_Topo_test",  "MPI_Open_port", "MPI_Close_port",  "MPI_Lookup_name",
    };
    static constexpr std::array<std::string_view, 2> kNames{"MPI_Publish_name",
                                                            "MPI_Unpublish_name"};
    for (auto p : kPrefixes)
        if (starts_with(name, p)) return true;
    for (auto n : kNames)
        if (name == n) return true;
    return false;
}

// MPI_Wait, MPI_Waitall, MPI_Test, ...: they complete point-to-point
// requests, but Score-P gives them no point-to-point role.
bool is_request_completion(std::string_view name) {
    for (std::string_view base : {"MPI_Wait", "MPI_Test"}) {
        if (!starts_with(name, base)) continue;
        const std::string_view rest = name.substr(base.size());
        if (rest.empty() || rest == "all" || rest == "any" || rest == "some") return true;
    }
    return false;
}

// Score-P's measurement regions that stand for its own work rather than the
// program's.
bool is_measurement_overhead(std::string_view name) { return name == "TRACING"; }

Metric mpi_time_category(const Region& region) {
    const std::string_view name = region.canonical_name.empty() ? region.name : region.canonical_name;
    if (is_init_or_finalize(name)) return Metric::MpiInitExit;
    if (is_communicator_management(name)) return Metric::MpiMgmtComm;
    if (const auto file = file_time_metric(file_call(name))) return *file;
    // By name before the role: a writer that gives MPI_Win_fence the role
    // of a barrier must not file it with MPI_Barrier.
    if (const auto rma = rma_time_metric(rma_call(name))) return *rma;
    switch (region.role) {
    case RegionRole::Barrier:
    case RegionRole::ImplicitBarrier:
        return Metric::MpiSyncCollective;
    case RegionRole::Point2Point:
        return Metric::MpiPoint2Point;
    case RegionRole::CollOne2All:
    case RegionRole::CollAll2One:
    case RegionRole::CollAll2All:
    case RegionRole::CollOther:
        return Metric::MpiCollective;
    default:
        break;
    }
    if (is_request_completion(name)) return Metric::MpiPoint2Point;
    return Metric::Mpi;
}

// "!$omp barrier" or "!$omp barrier @file:line": Score-P's names of the
// OpenMP constructs.
bool is_construct(std::string_view name, std::string_view construct) {
    if (!name.starts_with(construct)) return false;
    const std::string_view rest = name.substr(construct.size());
    return rest.empty() || rest.starts_with(" @");
}

// The OpenMP runtime's own work: barriers, the critical constructs (not
// their bodies, which are the program's work), lock functions, ordered,
// taskwait and flush. The parallel region's own time, loops and the
// bodies of critical sections are computation (the management metrics
// claim their share of the region's time).
std::optional<Metric> openmp_time_category(const Region& region) {
    const std::string_view name = region.name;
    if (region.role == RegionRole::ImplicitBarrier || is_construct(name, "!$omp implicit barrier") ||
        is_construct(name, "!$omp ibarrier"))
        return Metric::OmpIbarrier;
    if (region.role == RegionRole::Barrier || is_construct(name, "!$omp barrier")) return Metric::OmpEbarrier;
    if (region.role == RegionRole::Critical || is_construct(name, "!$omp critical")) return Metric::OmpCritical;
    if (is_construct(name, "!$omp ordered")) return Metric::OmpOrdered;
    if (is_construct(name, "!$omp taskwait")) return Metric::OmpTaskwait;
    if (is_construct(name, "!$omp flush")) return Metric::OmpFlush;
    if (name.starts_with("omp_") && name.find("_lock") != std::string_view::npos) return Metric::OmpLockApi;
    return std::nullopt;
}

}  // namespace

bool is_init_or_finalize(std::string_view name) {
    return name == "MPI_Init" || name == "MPI_Init_thread" || name == "MPI_Initialized" ||
           name == "MPI_Finalize" || name == "MPI_Finalized";
}

bool is_mpi_region(const Region& region) {
    if (region.paradigm == Paradigm::Mpi) return true;
    // Traces that do not state a paradigm still name MPI functions "MPI_...".
    return region.paradigm == Paradigm::Unknown && starts_with(region.name, "MPI_");
}

bool is_mpi_call(const Region& region) { return is_mpi_region(region) && region.name != "PARALLEL"; }

bool is_buffer_flush(std::string_view name, Paradigm paradigm) {
    return paradigm == Paradigm::MeasurementSystem && name == "TRACE BUFFER FLUSH";
}

Metric time_category(const Region& region) {
    if (is_mpi_call(region)) return mpi_time_category(region);
    if (is_buffer_flush(region.name, region.paradigm) ||
        (region.paradigm == Paradigm::MeasurementSystem && is_measurement_overhead(region.name)))
        return Metric::Overhead;
    if (region.paradigm == Paradigm::OpenMp || region.name.starts_with("!$omp"))
        if (const auto openmp = openmp_time_category(region)) return *openmp;
    return Metric::Comp;
}

}  // namespace hindsight
