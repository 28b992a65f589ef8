// The wait-state patterns and where collective ones arise. The patterns
// themselves (metrics, delay costs, flags, advice) are rows in
// common/wait_pattern_rows.def; this header adds what needs the trace's
// operations:
//  - kCollectiveShapes (rows in collective_shape_rows.def): each shape's
//    wait pattern, whether ranks may leave it before the others entered,
//    whom a rank that synchronized there is tied to (the delay analysis's
//    synchronization groups) and how the activity graph joins the members'
//    lengths there;
//  - kCollectiveOps: each collective operation's shape.
//
// A new collective pattern on an existing shape is its row in
// wait_pattern_rows.def, the shape's row naming it, its detection in
// wait_states/collective_wait_states.cpp and a test; a new shape adds a
// row in collective_shape_rows.def. The summary, the page, the delay
// analysis, the activity graph and the documentation follow from the rows.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "analyses/metrics.hpp"
#include "common/wait_patterns.hpp"
#include "trace/event.hpp"

namespace hindsight::analyses {

using metrics::CostPattern;
using metrics::delay_metrics;
using metrics::DelayMetrics;
using metrics::kCostPatterns;
using metrics::kWaitPatternCount;
using metrics::kWaitPatterns;
using metrics::pattern_info;
using metrics::pattern_of;
using metrics::PatternInfo;
using metrics::PointToPointMetrics;
using metrics::WaitPattern;

// Whom a member that synchronized in a collective operation is tied to,
// where the forward pass did not list the members that synchronized
// (ForwardFacts::partial_groups()).
enum class SyncGroup : std::uint8_t {
    Members,             // every member of the communicator
    PartnerElseMembers,  // the rank it waited for (or that waited for it), else every member
    PartnerElseRoot,     // the rank it waited for (or that waited for it), else the root
};

// How the activity graph joins the members' lengths at a collective
// operation (ActivityGraph::synchronize).
enum class GraphEdges : std::uint8_t {
    None,      // no edge: the members did not wait for each other
    AllToAll,  // each member takes the longest of all members
    FromRoot,  // the others take the root's length
    ToRoot,    // the root takes the longest of all members
    Prefix,    // each member takes the longest of the members up to itself
    // each member takes the longest of the members it received from, where
    // the trace lists them (trace::Collective::sources), else of all
    FromSources,
};

enum class Leaving : std::uint8_t { WaitsForEntry, MayLeaveEarly };

enum class CollectiveShape : std::uint8_t {
#define HINDSIGHT_COLLECTIVE_SHAPE(id, name, pattern, leaving, sync_group, graph_edges) id,
#include "analyses/collective_shape_rows.def"
#undef HINDSIGHT_COLLECTIVE_SHAPE
    Count_,
};
inline constexpr std::size_t kCollectiveShapeCount = static_cast<std::size_t>(CollectiveShape::Count_);

struct ShapeInfo {
    CollectiveShape shape;
    std::string_view name;  // as the documentation says it
    WaitPattern pattern;
    // MPI lets a rank leave MPI_Init and MPI_Finalize before another one
    // entered, even on one node with one clock: there an end before the
    // awaited entry is no clock-condition violation.
    bool may_leave_early;
    SyncGroup sync_group;
    GraphEdges graph_edges;
};

// To whom a rank's bytes of a collective operation go, in the model of the
// communication matrix (communication/communication_matrix.hpp).
enum class Receivers : std::uint8_t {
    Members,              // every member of the communicator, itself included
    Root,                 // the root alone (reductions and gathers)
    LaterMembers,         // the members after it (an exclusive scan)
    LaterMembersAndSelf,  // the members after it and itself (an inclusive scan)
    Nobody,               // no data (MPI_Init, MPI_Finalize)
};

struct CollectiveOpInfo {
    trace::CollectiveOp op;
    std::string_view name;
    CollectiveShape shape;
    Receivers receivers;
};

// trace::CollectiveOp ends with Other.
inline constexpr std::size_t kCollectiveOpCount = static_cast<std::size_t>(trace::CollectiveOp::Other) + 1;

// The tables, with short names for the enums they list.
namespace pattern_tables {

using S = CollectiveShape;
using Op = trace::CollectiveOp;
using R = Receivers;

inline constexpr std::array<ShapeInfo, kCollectiveShapeCount> kCollectiveShapes{{
#define HINDSIGHT_COLLECTIVE_SHAPE(id, name, pattern, leaving, sync_group, graph_edges)                     \
    {S::id, name, WaitPattern::pattern, Leaving::leaving == Leaving::MayLeaveEarly, SyncGroup::sync_group, \
     GraphEdges::graph_edges},
#include "analyses/collective_shape_rows.def"
#undef HINDSIGHT_COLLECTIVE_SHAPE
}};

inline constexpr std::array<CollectiveOpInfo, kCollectiveOpCount> kCollectiveOps{{
    // operation, name, shape, receivers of its bytes
    {Op::Barrier, "MPI_Barrier", S::Barrier, R::Members},
    {Op::Bcast, "MPI_Bcast", S::OneToN, R::Members},
    {Op::Gather, "MPI_Gather", S::NToOne, R::Root},
    {Op::Gatherv, "MPI_Gatherv", S::NToOne, R::Root},
    {Op::Scatter, "MPI_Scatter", S::OneToN, R::Members},
    {Op::Scatterv, "MPI_Scatterv", S::OneToN, R::Members},
    {Op::Allgather, "MPI_Allgather", S::NToN, R::Members},
    {Op::Allgatherv, "MPI_Allgatherv", S::NToN, R::Members},
    {Op::Alltoall, "MPI_Alltoall", S::NToN, R::Members},
    {Op::Alltoallv, "MPI_Alltoallv", S::Sparse, R::Members},
    {Op::Alltoallw, "MPI_Alltoallw", S::Sparse, R::Members},
    {Op::Allreduce, "MPI_Allreduce", S::NToN, R::Members},
    {Op::Reduce, "MPI_Reduce", S::NToOne, R::Root},
    {Op::ReduceScatter, "MPI_Reduce_scatter", S::NToN, R::Members},
    {Op::ReduceScatterBlock, "MPI_Reduce_scatter_block", S::NToN, R::Members},
    {Op::Scan, "MPI_Scan", S::Prefix, R::LaterMembersAndSelf},
    {Op::Exscan, "MPI_Exscan", S::Prefix, R::LaterMembers},
    {Op::Init, "MPI_Init", S::Init, R::Nobody},
    {Op::Finalize, "MPI_Finalize", S::Finalize, R::Nobody},
    // Its bytes go to the file, not to other members.
    {Op::FileIo, "MPI-IO collective operation", S::FileIo, R::Nobody},
    // The window's collective operations move no data between its members.
    {Op::RmaWinCreate, "MPI_Win_create (and _allocate, _allocate_shared, _create_dynamic)", S::RmaCreate, R::Nobody},
    {Op::RmaWinFree, "MPI_Win_free", S::RmaFree, R::Nobody},
    {Op::RmaFence, "MPI_Win_fence", S::RmaFence, R::Nobody},
    {Op::Other, "any other operation", S::Unresolved, R::Members},
}};

}  // namespace pattern_tables

// What the shape and operation rows must satisfy: the operations' rows sit
// at the index of their enum value (trace::CollectiveOp is the trace's);
// no shape yields a point-to-point pattern (those arise between two ranks
// only); a shape whose rule needs a root has one in its data flow;
// the activity graph joins lengths wherever a wait state can arise, except
// at MPI_Init, where the ranks start at unrelated times.
constexpr bool are_valid_shapes(const auto& shapes, const auto& ops) {
    for (std::size_t i = 0; i < shapes.size(); ++i) {
        const ShapeInfo& shape = shapes[i];
        if (static_cast<std::size_t>(shape.shape) != i) return false;
        if (pattern_info(shape.pattern).point_to_point) return false;
        const bool rooted_group = shape.sync_group == SyncGroup::PartnerElseRoot;
        const bool rooted_edges = shape.graph_edges == GraphEdges::FromRoot || shape.graph_edges == GraphEdges::ToRoot;
        if (rooted_group && !rooted_edges) return false;
        if (shape.graph_edges == GraphEdges::None && pattern_info(shape.pattern).wait) return false;
    }
    for (std::size_t i = 0; i < ops.size(); ++i)
        if (static_cast<std::size_t>(ops[i].op) != i) return false;
    return true;
}
static_assert(are_valid_shapes(pattern_tables::kCollectiveShapes, pattern_tables::kCollectiveOps),
              "shape rows: operations in enum order, no point-to-point pattern, rules that fit the data flow");

using pattern_tables::kCollectiveOps;
using pattern_tables::kCollectiveShapes;

constexpr const ShapeInfo& shape_info(CollectiveShape shape) {
    return kCollectiveShapes[static_cast<std::size_t>(shape)];
}
constexpr const CollectiveOpInfo& collective_op_info(trace::CollectiveOp op) {
    return kCollectiveOps[static_cast<std::size_t>(op)];
}
constexpr CollectiveShape collective_shape(trace::CollectiveOp op) { return collective_op_info(op).shape; }
constexpr WaitPattern collective_wait_pattern(trace::CollectiveOp op) {
    return shape_info(collective_shape(op)).pattern;
}

}  // namespace hindsight::analyses
