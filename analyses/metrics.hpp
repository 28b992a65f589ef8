// The metric tree of Hindsight's reports. Identifiers (CUBE uniq_name) and
// the tree follow Scalasca's, so that users' scripts and habits carry over
// and both tools compare metric by metric on the same trace. As in Scalasca,
// the performance-impact metrics hang below two grouping metrics
// (performance_impact, performance_impact_criticalpath) of their own rather
// than below the critical path: each impact sums to a share of the whole
// allocation time, which is no part of the critical path's wall-clock time.
//
// Values an analysis records are each metric's *own share*: exclusive along
// the metric tree (a parent holds only what none of its children holds) and
// along the call tree. The report writer adds children into parents, as CUBE
// stores them.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace hindsight::analyses {

enum class Metric : std::uint16_t {
    Time,
    Execution,
    Comp,
    Mpi,
    MpiManagement,
    MpiInitExit,
    MpiInitCompletion,
    MpiFinalizeWait,
    MpiMgmtComm,
    MpiSynchronization,
    MpiSyncCollective,
    MpiBarrierWait,
    MpiBarrierCompletion,
    MpiCommunication,
    MpiPoint2Point,
    MpiLateSender,
    MpiLateSenderWo,
    MpiLswoDifferent,
    MpiLswoSame,
    MpiLateReceiver,
    MpiCollective,
    MpiEarlyReduce,
    MpiEarlyScan,
    MpiLateBroadcast,
    MpiWaitNxN,
    MpiNxNCompletion,
    Overhead,
    Visits,
    Syncs,
    SyncsP2p,
    SyncsSend,
    MpiSlrCount,
    SyncsRecv,
    MpiSlsCount,
    MpiSlswoCount,
    SyncsColl,
    Comms,
    CommsP2p,
    CommsSend,
    MpiClrCount,
    CommsRecv,
    MpiClsCount,
    MpiClswoCount,
    CommsColl,
    CommsCxch,
    CommsCsrc,
    CommsCdst,
    Bytes,
    BytesP2p,
    BytesSent,
    BytesRcvd,
    BytesColl,
    BytesCout,
    BytesCin,
    Delay,
    DelayMpi,
    DelayP2p,
    DelayLateSenderAggregate,
    DelayLateSender,
    DelayLateSenderLongterm,
    DelayLateReceiverAggregate,
    DelayLateReceiver,
    DelayLateReceiverLongterm,
    DelayCollective,
    DelayBarrierAggregate,
    DelayBarrier,
    DelayBarrierLongterm,
    DelayN21Aggregate,
    DelayN21,
    DelayN21Longterm,
    Delay12nAggregate,
    Delay12n,
    Delay12nLongterm,
    DelayN2nAggregate,
    DelayN2n,
    DelayN2nLongterm,
    WaitstatesPropagatingVsTerminal,
    MpiWaitPropagating,
    MpiWaitPropagatingLs,
    MpiWaitPropagatingLr,
    MpiWaitTerminal,
    MpiWaitTerminalLs,
    MpiWaitTerminalLr,
    WaitstatesDirectVsIndirect,
    MpiWaitDirect,
    MpiWaitDirectLatesender,
    MpiWaitDirectLatereceiver,
    MpiWaitIndirect,
    MpiWaitIndirectLatesender,
    MpiWaitIndirectLatereceiver,
    CriticalPath,
    CriticalPathImbalance,
    PerformanceImpact,
    PerformanceImpactCriticalPath,
    CriticalPathActivities,
    CriticalImbalanceImpact,
    IntraPartitionImbalance,
    InterPartitionImbalance,
    NonCriticalPathActivities,
    CollCalls,
    CollWaitBefore,
    CollExecution,
    CollWaitAfter,
    Count_,  // number of metrics; not a metric
};

inline constexpr std::size_t kMetricCount = static_cast<std::size_t>(Metric::Count_);

enum class Unit : std::uint8_t { Seconds, Occurrences, Bytes };

struct MetricInfo {
    Metric metric;
    std::optional<Metric> parent;
    std::string_view unique_name;   // Scalasca's identifier
    std::string_view display_name;
    Unit unit;
    std::string_view description;   // in our own words; doc/metrics.md says more
};

// Every metric, parents before children, in the order of the report.
const std::array<MetricInfo, kMetricCount>& metric_table();
const MetricInfo& info(Metric m);
std::optional<Metric> metric_by_name(std::string_view unique_name);

}  // namespace hindsight::analyses
