#include "common/cube/inflate.hpp"

#include <zlib.h>

#include <climits>
#include <memory>

#include "common/error.hpp"

namespace hindsight::cube {

namespace {

struct InflateEnd {
    void operator()(z_stream* s) const { inflateEnd(s); }
};

}  // namespace

void inflate_into(std::string& out, std::string_view compressed, std::size_t limit) {
    if (compressed.size() > UINT_MAX) throw Error("", "compressed block is too large");
    z_stream stream{};
    if (inflateInit(&stream) != Z_OK) throw Error("", "cannot start zlib inflation");
    const std::unique_ptr<z_stream, InflateEnd> guard(&stream);
    // zlib's interface is not const-correct; it does not write to its input.
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
    stream.avail_in = static_cast<uInt>(compressed.size());
    char buffer[16384];
    for (;;) {
        stream.next_out = reinterpret_cast<Bytef*>(buffer);
        stream.avail_out = sizeof buffer;
        const int status = inflate(&stream, Z_NO_FLUSH);
        if (status != Z_OK && status != Z_STREAM_END && status != Z_BUF_ERROR)
            throw Error("", std::string("compressed block is damaged (") + (stream.msg ? stream.msg : "zlib error") + ")");
        const std::size_t produced = sizeof buffer - stream.avail_out;
        if (produced > limit - out.size()) throw Error("", "compressed block inflates beyond the data's size");
        out.append(buffer, produced);
        if (status == Z_STREAM_END) return;
        if (status == Z_BUF_ERROR || (produced == 0 && stream.avail_in == 0))
            throw Error("", "compressed block is truncated");
    }
}

}  // namespace hindsight::cube
