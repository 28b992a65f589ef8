// A trace's size foretold from a profile (hindsight-collect --profile,
// hindsight-report --score). The profile counts, per call path, the visits
// (each an ENTER and a LEAVE in a trace) and the other events a trace would
// hold there (messages, collectives, requests: the metric below); the
// bytes per event are those of the collector's OTF2 traces, fitted on the
// examples (doc/report.md#planning-a-trace says how well they hold).
#pragma once

namespace hindsight::trace_size {

// The profile's metric of the events besides ENTER and LEAVE.
inline constexpr const char* kTraceEventsMetric = "trace_events";

// Bytes of one ENTER or LEAVE, and of one other event, in a trace file.
inline constexpr double kBytesPerRegionEvent = 13.5;
inline constexpr double kBytesPerOtherEvent = 14.7;
// The archive's anchor and definitions of a small program.
inline constexpr double kFixedBytes = 1024;

}  // namespace hindsight::trace_size
