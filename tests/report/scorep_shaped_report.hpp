// A small report in the shape Score-P writes its profile.cubex, built byte
// by byte (not with our writer) so that the reader meets what Score-P and
// CubeLib put into files: value types of several widths, minimum and
// maximum metrics, a TAU_ATOMIC metric, a call-tree-INCLUSIVE metric, a
// derived metric, compressed data, extra archive members and a tar header
// with the wrong checksum CubeLib 4.8 writes.
//
// The scenario, with values chosen by hand (rank 0, rank 1; one thread each):
//
//   call tree      main -> foo -> baz
//                  main -> bar
//
//   visits     UINT64     main 1, 1    foo 10, 20   baz 5, 0      bar 2, 2
//   time       DOUBLE     exclusive:   main 1, 2    foo 4, 3      baz 0.5, 0    bar 2.5, 1
//              stored INCLUSIVE (main 8, 6; foo 4.5, 3; ...), rows in CubeLib's
//              inclusive order (main, foo, bar, baz)
//   min_time   MINDOUBLE  main 8, 6    foo 0.25, 0.5  baz 0.5, (none)  bar 1.25, 1
//   max_time   MAXDOUBLE  main 8, 6    foo 2, 3       baz 0.5, (none)  bar 2.5, 1
//   delta      INT8       main -3, 5   foo 0, -1      bar 7, 0
//   counter    UINT16     main 300, 65535
//   msg_size   TAU_ATOMIC foo: N 2, min 10, max 30, sum 40, sum2 1000 on rank 0;
//                              N 1, min 7, max 7, sum 7, sum2 49 on rank 1
//   flops      DOUBLE     foo 100, 200   bar 300, 400   (ZCUBEX.DATA, two blocks)
//   avg_time   POSTDERIVED, CubePL "metric::time(i)/metric::visits(e)"
#pragma once

#include <string>

namespace hindsight::testing {

inline constexpr const char* kDerivedExpression = "metric::time(i)/metric::visits(e)";

// The whole .cubex file.
std::string scorep_shaped_report();

// Byte-level pieces of such files, for other hand-built reports.
// One ustar member appended to `tar`. `cube48_checksum` writes the checksum
// as CubeLib 4.8 does: 32 less than the right one (as if its field held 7
// blanks, not 8).
void add_member(std::string& tar, const std::string& name, const std::string& contents, bool cube48_checksum = false);
// One zlib stream of `raw`.
std::string compressed(const std::string& raw);

}  // namespace hindsight::testing
