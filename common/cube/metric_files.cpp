#include "common/cube/metric_files.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

#include "common/cube/inflate.hpp"
#include "common/error.hpp"

namespace hindsight::cube {

namespace {

constexpr std::string_view kIndexMarker = "CUBEX.INDEX";
constexpr std::string_view kDataMarker = "CUBEX.DATA";
constexpr std::string_view kCompressedDataMarker = "ZCUBEX.DATA";
constexpr std::uint8_t kSparse = 1;
constexpr std::uint8_t kDense = 3;

template <typename T>
void put_le(std::string& out, T value) {
    for (std::size_t i = 0; i < sizeof(T); ++i) out += static_cast<char>((static_cast<std::uint64_t>(value) >> (8 * i)) & 0xff);
}

// Reads fixed-size numbers in the byte order the index declared.
class Cursor {
public:
    Cursor(std::string_view bytes, bool big_endian, const char* what)
        : bytes_(bytes), big_endian_(big_endian), what_(what) {}

    template <typename T>
    T get() {
        if (bytes_.size() - pos_ < sizeof(T))
            throw Error("", std::string(what_) + " is truncated at byte " + std::to_string(pos_));
        std::uint64_t v = 0;
        for (std::size_t i = 0; i < sizeof(T); ++i) {
            const auto byte = static_cast<std::uint64_t>(static_cast<unsigned char>(bytes_[pos_ + i]));
            const std::size_t shift = big_endian_ ? 8 * (sizeof(T) - 1 - i) : 8 * i;
            v |= byte << shift;
        }
        pos_ += sizeof(T);
        return static_cast<T>(v);
    }
    void skip(std::size_t n) { pos_ += n; }
    std::size_t remaining() const { return bytes_.size() - pos_; }

private:
    std::string_view bytes_;
    std::size_t pos_ = 0;
    bool big_endian_;
    const char* what_;
};

std::size_t value_size(DataType) { return 8; }  // every type we write is 8 bytes wide

// The rows of a ZCUBEX.DATA member (after its marker), inflated. Inflation
// stops at `expected` bytes, so a damaged or hostile stream cannot make us
// allocate more than the rows can hold.
std::string inflate_rows(std::string_view data, bool big_endian, std::size_t expected) {
    Cursor in(data, big_endian, "compressed data");
    const auto blocks = in.get<std::uint64_t>();
    if (blocks > in.remaining() / 24) throw Error("", "compressed data lists more blocks than it can hold");
    std::vector<std::uint64_t> sizes;
    for (std::uint64_t i = 0; i < blocks; ++i) {
        in.get<std::uint64_t>();  // positions: the blocks follow each other, so
        in.get<std::uint64_t>();  // their sizes alone place them
        sizes.push_back(in.get<std::uint64_t>());
    }
    // No reservation of `expected`: it is what the index and the anchor
    // claim, and a small hostile file may claim terabytes; the string grows
    // with what the streams really inflate to.
    std::string rows;
    std::size_t at = data.size() - in.remaining();
    for (const std::uint64_t size : sizes) {
        if (size > data.size() - at) throw Error("", "compressed data is truncated");
        inflate_into(rows, data.substr(at, size), expected);
        at += size;
    }
    if (at != data.size()) throw Error("", "compressed data has trailing bytes");
    return rows;
}

}  // namespace

std::string_view data_type_name(DataType type) {
    switch (type) {
    case DataType::Uint64: return "UINT64";
    case DataType::Int64: return "INT64";
    case DataType::MinDouble: return "MINDOUBLE";
    case DataType::MaxDouble: return "MAXDOUBLE";
    case DataType::Double: break;
    }
    // CUBE's name for 8-byte floating point, which Scalasca writes and
    // CubeLib's tools read as such; given "DOUBLE" they print 11 for 11.56.
    return "FLOAT";
}

std::string encode_index(const std::vector<std::uint32_t>& rows) {
    std::string out(kIndexMarker);
    put_le<std::uint32_t>(out, 1);
    put_le<std::uint16_t>(out, 0);
    put_le<std::uint8_t>(out, kSparse);
    put_le<std::uint32_t>(out, static_cast<std::uint32_t>(rows.size()));
    for (const std::uint32_t r : rows) put_le<std::uint32_t>(out, r);
    return out;
}

std::string encode_data(DataType type, const std::vector<double>& values) {
    std::string out(kDataMarker);
    out.reserve(out.size() + values.size() * value_size(type));
    for (const double v : values) {
        if (type == DataType::Uint64) {
            // Counts: round to the nearest integer, clamping what has none.
            const double r = std::isfinite(v) && v > 0 ? std::round(v) : 0.0;
            put_le<std::uint64_t>(out, r >= 18446744073709551615.0 ? UINT64_MAX : static_cast<std::uint64_t>(r));
        } else if (type == DataType::Int64) {
            const double r = std::isfinite(v) ? std::clamp(std::round(v), -9223372036854775808.0, 9223372036854774784.0) : 0.0;
            put_le<std::uint64_t>(out, std::bit_cast<std::uint64_t>(static_cast<std::int64_t>(r)));
        } else {
            put_le<std::uint64_t>(out, std::bit_cast<std::uint64_t>(v));
        }
    }
    return out;
}

MetricRows decode_metric(std::string_view index, std::string_view data, const ValueType& type, std::size_t row_count,
                         std::size_t location_count) {
    if (!index.starts_with(kIndexMarker)) throw Error("", "index does not start with CUBEX.INDEX");
    index.remove_prefix(kIndexMarker.size());
    if (index.size() < 4) throw Error("", "index is truncated");
    // The marker 1 reads as 1 in the writer's byte order only.
    const bool big_endian = index[0] == 0 && index[3] == 1;
    Cursor in(index, big_endian, "index");
    if (in.get<std::uint32_t>() != 1) throw Error("", "index has an unknown byte-order marker");
    in.get<std::uint16_t>();  // version: 0 in every CUBE 4 file
    const auto format = in.get<std::uint8_t>();

    MetricRows result;
    if (format == kSparse) {
        // CubeLib writes the count only when there are rows: the index of a
        // metric without any (what cube_diff, cube_mean, cube_cut, ... write
        // for a metric that came out zero) ends after the format byte.
        const auto n = in.remaining() == 0 ? std::uint32_t{0} : in.get<std::uint32_t>();
        if (in.remaining() != std::size_t{n} * 4) throw Error("", "index size does not match its entry count");
        result.rows.reserve(n);
        for (std::uint32_t i = 0; i < n; ++i) {
            const auto row = in.get<std::uint32_t>();
            if (row >= row_count) throw Error("", "index names row " + std::to_string(row) + " of only " + std::to_string(row_count) + " call paths");
            if (!result.rows.empty() && row <= result.rows.back()) throw Error("", "index rows are not ascending");
            result.rows.push_back(row);
        }
    } else if (format == kDense) {
        if (in.remaining() != 0) throw Error("", "dense index has trailing bytes");
        for (std::size_t r = 0; r < row_count; ++r) result.rows.push_back(static_cast<std::uint32_t>(r));
    } else {
        throw Error("", "unknown index format " + std::to_string(format));
    }

    const bool compressed = data.starts_with(kCompressedDataMarker);
    if (!compressed && !data.starts_with(kDataMarker))
        throw Error("", "data does not start with CUBEX.DATA or ZCUBEX.DATA");
    if (type.layout == ValueType::Layout::Opaque) {
        // Not interpreted, so not inflated either (its width is unknown: no
        // bound on what it could inflate to). It comes back without rows.
        result.rows.clear();
        return result;
    }
    // Every size below is checked before anything of that size is allocated.
    const std::size_t cells = result.rows.size() * location_count;
    if (type.width != 0 && cells > SIZE_MAX / type.width) throw Error("", "index declares more values than memory can hold");
    const std::size_t expected = cells * type.width;
    std::string inflated;
    if (compressed) {
        inflated = inflate_rows(data.substr(kCompressedDataMarker.size()), big_endian, expected);
        data = inflated;
    } else {
        data.remove_prefix(kDataMarker.size());
    }
    if (data.size() != expected)
        throw Error("", "data holds " + std::to_string(data.size()) + " bytes where " + std::to_string(expected) + " were expected");
    result.values.assign(cells, 0.0);
    for (std::size_t i = 0; i < cells; ++i) result.values[i] = decode_value(type, data.data() + i * type.width, big_endian);
    return result;
}

}  // namespace hindsight::cube
