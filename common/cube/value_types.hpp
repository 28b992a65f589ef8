// The value types a CUBE 4 file may declare in a metric's <dtype>, and how
// one value of each is laid out in a .data member. Every type becomes one
// double in the model (common/cube/report.hpp):
//
//   DOUBLE, FLOAT                      8-byte IEEE double
//   MINDOUBLE, MAXDOUBLE               the same, aggregated by min / max
//   INT8 .. INT64, UINT8 .. UINT64     integers of their own width (and the
//                                      older names INTEGER, INT, CHAR, ...)
//   TAU_ATOMIC                         uint32 N, then doubles min, max, sum,
//                                      sum of squares (36 bytes): its sum
//   RATE                               doubles main and time: main / time
//   COMPLEX                            doubles real and imaginary: real part
//   NDOUBLES(n)                        n doubles: their sum
//   HISTOGRAM(n)                       doubles min, max, then n bins: the
//                                      sum of the bins
//   SCALE_FUNC                         not interpreted: the metric is read
//                                      as "not computed"
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "common/cube/report.hpp"

namespace hindsight::cube {

struct ValueType {
    enum class Layout : std::uint8_t {
        Float64, Signed, Unsigned, TauAtomic, Rate, Complex, Doubles, Histogram, Opaque
    };
    Layout layout = Layout::Float64;
    DataType model = DataType::Double;  // what the model keeps it as
    std::size_t width = 8;  // bytes per value; 0: not known (Opaque: the data's size tells)
    std::size_t count = 0;  // n of NDOUBLES(n) and HISTOGRAM(n)
};

// The type named in <dtype>; throws Error("", ...) naming an unknown one.
ValueType value_type_from_name(std::string_view name);

// The scalar the model keeps for one value of `type` at `bytes` (`type.width`
// bytes, in the file's byte order). Not for Opaque types.
double decode_value(const ValueType& type, const char* bytes, bool big_endian);

}  // namespace hindsight::cube
