#include "report/compression.hpp"

#include <stdexcept>

#include <zlib.h>

namespace hindsight::report {

namespace {

// Owns a deflate stream, so that every exit ends it.
class Deflater {
public:
    Deflater() {
        // 15 + 16: the largest window, with a gzip header and trailer.
        if (deflateInit2(&stream_, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
            throw std::runtime_error("cannot start gzip compression");
    }
    ~Deflater() { deflateEnd(&stream_); }
    Deflater(const Deflater&) = delete;
    Deflater& operator=(const Deflater&) = delete;

    std::string compress(std::string_view bytes) {
        std::string out(deflateBound(&stream_, bytes.size()), '\0');
        // zlib's interface is not const-correct; it never writes the input.
        stream_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
        stream_.avail_in = static_cast<uInt>(bytes.size());
        stream_.next_out = reinterpret_cast<Bytef*>(out.data());
        stream_.avail_out = static_cast<uInt>(out.size());
        if (deflate(&stream_, Z_FINISH) != Z_STREAM_END) throw std::runtime_error("gzip compression failed");
        out.resize(stream_.total_out);
        return out;
    }

private:
    z_stream stream_{};
};

}  // namespace

std::string gzip(std::string_view bytes) {
    // uInt counts are 32 bits: larger inputs would need chunking, and no page
    // gets near 4 GiB.
    if (bytes.size() > 0xffff0000u) throw std::length_error("page data larger than 4 GiB");
    return Deflater().compress(bytes);
}

std::string base64(std::string_view bytes) {
    static constexpr char kDigits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    std::size_t i = 0;
    for (; i + 3 <= bytes.size(); i += 3) {
        const unsigned v = static_cast<unsigned char>(bytes[i]) << 16 | static_cast<unsigned char>(bytes[i + 1]) << 8 |
                           static_cast<unsigned char>(bytes[i + 2]);
        out += kDigits[v >> 18];
        out += kDigits[(v >> 12) & 63];
        out += kDigits[(v >> 6) & 63];
        out += kDigits[v & 63];
    }
    const std::size_t rest = bytes.size() - i;
    if (rest > 0) {
        unsigned v = static_cast<unsigned char>(bytes[i]) << 16;
        if (rest == 2) v |= static_cast<unsigned char>(bytes[i + 1]) << 8;
        out += kDigits[v >> 18];
        out += kDigits[(v >> 12) & 63];
        out += rest == 2 ? kDigits[(v >> 6) & 63] : '=';
        out += '=';
    }
    return out;
}

}  // namespace hindsight::report
