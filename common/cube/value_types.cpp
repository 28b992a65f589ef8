#include "common/cube/value_types.hpp"

#include <array>
#include <bit>
#include <charconv>

#include "common/error.hpp"

namespace hindsight::cube {

namespace {

using Layout = ValueType::Layout;

struct Named {
    std::string_view name;
    ValueType type;
};

// The fixed-width types, under every name CUBE writers have used for them.
constexpr std::array kFixed{
    Named{"DOUBLE", {Layout::Float64, DataType::Double, 8, 0}},
    Named{"FLOAT", {Layout::Float64, DataType::Double, 8, 0}},  // CUBE's older name for DOUBLE
    Named{"MINDOUBLE", {Layout::Float64, DataType::MinDouble, 8, 0}},
    Named{"MAXDOUBLE", {Layout::Float64, DataType::MaxDouble, 8, 0}},
    Named{"INT8", {Layout::Signed, DataType::Int64, 1, 0}},
    Named{"INT16", {Layout::Signed, DataType::Int64, 2, 0}},
    Named{"SHORT INT", {Layout::Signed, DataType::Int64, 2, 0}},
    Named{"SIGNED SHORT INT", {Layout::Signed, DataType::Int64, 2, 0}},
    Named{"INT32", {Layout::Signed, DataType::Int64, 4, 0}},
    Named{"INT", {Layout::Signed, DataType::Int64, 4, 0}},
    Named{"SIGNED INT", {Layout::Signed, DataType::Int64, 4, 0}},
    Named{"INT64", {Layout::Signed, DataType::Int64, 8, 0}},
    Named{"INTEGER", {Layout::Signed, DataType::Int64, 8, 0}},  // Scalasca's counts
    Named{"SIGNED INTEGER", {Layout::Signed, DataType::Int64, 8, 0}},
    Named{"CHAR", {Layout::Unsigned, DataType::Uint64, 1, 0}},
    Named{"UINT8", {Layout::Unsigned, DataType::Uint64, 1, 0}},
    Named{"UINT16", {Layout::Unsigned, DataType::Uint64, 2, 0}},
    Named{"UNSIGNED SHORT INT", {Layout::Unsigned, DataType::Uint64, 2, 0}},
    Named{"UINT32", {Layout::Unsigned, DataType::Uint64, 4, 0}},
    Named{"UNSIGNED INT", {Layout::Unsigned, DataType::Uint64, 4, 0}},
    Named{"UINT64", {Layout::Unsigned, DataType::Uint64, 8, 0}},
    Named{"UNSIGNED INTEGER", {Layout::Unsigned, DataType::Uint64, 8, 0}},
    Named{"TAU_ATOMIC", {Layout::TauAtomic, DataType::Double, 36, 0}},
    Named{"RATE", {Layout::Rate, DataType::Double, 16, 0}},
    Named{"COMPLEX", {Layout::Complex, DataType::Double, 16, 0}},
    Named{"SCALE_FUNC", {Layout::Opaque, DataType::Double, 0, 0}},
};

std::uint64_t unsigned_at(const char* bytes, std::size_t width, bool big_endian) {
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < width; ++i) {
        const auto byte = static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[i]));
        v |= byte << (big_endian ? 8 * (width - 1 - i) : 8 * i);
    }
    return v;
}

double double_at(const char* bytes, bool big_endian) { return std::bit_cast<double>(unsigned_at(bytes, 8, big_endian)); }

double signed_at(const char* bytes, std::size_t width, bool big_endian) {
    const std::uint64_t v = unsigned_at(bytes, width, big_endian);
    // Sign-extend from the value's own width.
    const std::uint64_t sign = std::uint64_t{1} << (8 * width - 1);
    return static_cast<double>(static_cast<std::int64_t>((v ^ sign) - sign));
}

}  // namespace

ValueType value_type_from_name(std::string_view name) {
    for (const Named& n : kFixed)
        if (n.name == name) return n.type;
    // NDOUBLES(n) and HISTOGRAM(n) carry their length.
    struct Sized {
        std::string_view prefix;
        Layout layout;
        std::size_t extra;  // doubles before the n values
    };
    for (const auto& [prefix, layout, extra] : {Sized{"NDOUBLES(", Layout::Doubles, 0}, Sized{"HISTOGRAM(", Layout::Histogram, 2}}) {
        if (!name.starts_with(prefix) || !name.ends_with(")")) continue;
        const std::string_view digits = name.substr(prefix.size(), name.size() - prefix.size() - 1);
        std::size_t n = 0;
        const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
        if (ec == std::errc() && ptr == digits.data() + digits.size() && n > 0 && n < 65536)
            return ValueType{layout, DataType::Double, 8 * (n + extra), n};
    }
    throw Error("", "unsupported metric data type '" + std::string(name) + "'");
}

double decode_value(const ValueType& type, const char* bytes, bool big_endian) {
    switch (type.layout) {
    case Layout::Signed: return signed_at(bytes, type.width, big_endian);
    case Layout::Unsigned: return static_cast<double>(unsigned_at(bytes, type.width, big_endian));
    case Layout::TauAtomic: return double_at(bytes + 4 + 2 * 8, big_endian);  // N, min, max, then the sum
    case Layout::Rate: {
        const double time = double_at(bytes + 8, big_endian);
        return time == 0.0 ? 0.0 : double_at(bytes, big_endian) / time;
    }
    case Layout::Doubles:
    case Layout::Histogram: {
        const std::size_t first = type.layout == Layout::Histogram ? 2 : 0;  // after min and max
        double sum = 0.0;
        for (std::size_t i = first; i < first + type.count; ++i) sum += double_at(bytes + 8 * i, big_endian);
        return sum;
    }
    case Layout::Complex:  // the real part
    case Layout::Float64:
    case Layout::Opaque: break;
    }
    return double_at(bytes, big_endian);
}

}  // namespace hindsight::cube
