#include "common/cube/tar.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <filesystem>
#include <iterator>
#include <stdexcept>

#include "common/error.hpp"

namespace hindsight::cube::tar {

namespace {

constexpr std::size_t kBlock = 512;

// Offsets and widths of the ustar header fields we use.
struct Field {
    std::size_t offset;
    std::size_t width;
};
constexpr Field kName{0, 100};
constexpr Field kMode{100, 8};
constexpr Field kUid{108, 8};
constexpr Field kGid{116, 8};
constexpr Field kSize{124, 12};
constexpr Field kMtime{136, 12};
constexpr Field kChecksum{148, 8};
constexpr Field kTypeflag{156, 1};
constexpr Field kMagic{257, 6};
constexpr Field kVersion{263, 2};
constexpr Field kPrefix{345, 155};

using Block = std::array<char, kBlock>;

void put(Block& block, Field field, std::string_view text) {
    std::memcpy(block.data() + field.offset, text.data(), std::min(text.size(), field.width));
}

// Zero-padded octal filling all but the last byte, which stays NUL.
void put_octal(Block& block, Field field, std::uint64_t value) {
    std::string digits(field.width - 1, '0');
    for (std::size_t i = digits.size(); i-- > 0 && value != 0; value >>= 3)
        digits[i] = static_cast<char>('0' + (value & 7));
    put(block, field, digits);
}

std::uint64_t checksum_of(const Block& block) {
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < kBlock; ++i) {
        const bool in_checksum = i >= kChecksum.offset && i < kChecksum.offset + kChecksum.width;
        sum += in_checksum ? static_cast<unsigned char>(' ') : static_cast<unsigned char>(block[i]);
    }
    return sum;
}

std::string_view field_text(const char* header, Field field) {
    const char* begin = header + field.offset;
    const char* end = std::find(begin, begin + field.width, '\0');
    return {begin, static_cast<std::size_t>(end - begin)};
}

// Octal number padded with blanks or NULs; nullopt when malformed.
std::optional<std::uint64_t> parse_octal(std::string_view text) {
    std::uint64_t value = 0;
    bool digits = false;
    for (const char c : text) {
        if (c == ' ') {
            if (digits) break;
            continue;
        }
        if (c < '0' || c > '7') return std::nullopt;
        if (value > (UINT64_MAX >> 3)) return std::nullopt;
        value = (value << 3) | static_cast<std::uint64_t>(c - '0');
        digits = true;
    }
    if (!digits) return std::nullopt;
    return value;
}

// CubeLib 4.8 writes wrong header checksums (Cube's own readers and pycubexr
// accept them). A header with a wrong checksum is still taken when
// everything else in it is what a CUBE writer puts there: the ustar magic, a
// name, a valid size and a regular-file type.
bool sane_cube_header(const char* header, const std::optional<std::uint64_t>& size) {
    const char type = header[kTypeflag.offset];
    return field_text(header, kMagic) == "ustar" && !field_text(header, kName).empty() && size.has_value() &&
           (type == '0' || type == '\0');
}

}  // namespace

Writer::Writer(const std::filesystem::path& path) : path_(path), out_(path, std::ios::binary | std::ios::trunc) {
    if (!out_) throw Error(path.string(), "cannot create the file");
}

void Writer::check_stream(const char* doing) {
    if (!out_) throw Error(path_.string(), std::string("write error while ") + doing);
}

void Writer::add(std::string_view name, std::string_view contents) {
    if (name.empty() || name.size() > kName.width) throw std::logic_error("tar member name must have 1 to 100 bytes");
    if (!contents.empty() && contents.size() % kBlock == 0)
        throw std::logic_error("tar member size must not be a multiple of 512 (CubeLib compatibility)");

    Block header{};
    put(header, kName, name);
    put(header, kMode, "0000644");
    put_octal(header, kUid, 0);
    put_octal(header, kGid, 0);
    put_octal(header, kSize, contents.size());
    // A fixed time stamp keeps reports of the same analysis byte-identical.
    put_octal(header, kMtime, 0);
    put(header, kTypeflag, "0");
    put(header, kMagic, std::string_view("ustar\0", 6));
    put(header, kVersion, "00");
    // The checksum field is six octal digits, a NUL and a blank.
    const std::uint64_t sum = checksum_of(header);
    put_octal(header, Field{kChecksum.offset, 7}, sum);
    header[kChecksum.offset + 7] = ' ';

    out_.write(header.data(), kBlock);
    out_.write(contents.data(), static_cast<std::streamsize>(contents.size()));
    const std::size_t padding = (kBlock - contents.size() % kBlock) % kBlock;
    const Block zeros{};
    out_.write(zeros.data(), static_cast<std::streamsize>(padding));
    check_stream("adding a member");
}

void Writer::finish() {
    const Block zeros{};
    out_.write(zeros.data(), kBlock);
    out_.write(zeros.data(), kBlock);
    out_.close();
    check_stream("finishing the archive");
}

Archive Archive::load(const std::filesystem::path& path) {
    // Only a regular file is read: a directory gives no bytes to a stream,
    // and a FIFO or a device would block the read (or never end it).
    std::error_code error;
    const auto status = std::filesystem::status(path, error);
    if (status.type() == std::filesystem::file_type::not_found) throw Error(path.string(), "cannot open the file: no such file");
    if (error) throw Error(path.string(), "cannot open the file: " + error.message());
    if (status.type() == std::filesystem::file_type::directory) throw Error(path.string(), "is a directory");
    if (status.type() != std::filesystem::file_type::regular)
        throw Error(path.string(), "is not a regular file (a FIFO, socket or device)");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(path.string(), "cannot open the file");
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) throw Error(path.string(), "read error");
    return parse(std::move(bytes), path.string());
}

Archive Archive::parse(std::string bytes, const std::string& origin) {
    Archive archive;
    archive.bytes_ = std::move(bytes);
    const std::string& b = archive.bytes_;
    if (b.empty()) throw Error(origin, "the file is empty");
    std::size_t pos = 0;
    for (;;) {
        // Requiring the end-of-archive block (every tar writer we know of
        // adds it) is what tells a complete archive from a truncated one.
        if (pos + kBlock > b.size()) {
            if (archive.members_.empty())
                throw Error(origin, "not a tar archive (truncated header at byte " + std::to_string(pos) + ")");
            throw Error(origin, "the archive is truncated (it ends at byte " + std::to_string(b.size()) +
                                    " without an end-of-archive block)");
        }
        const char* header = b.data() + pos;
        if (std::all_of(header, header + kBlock, [](char c) { return c == '\0'; })) break;  // end of archive

        Block block;
        std::memcpy(block.data(), header, kBlock);
        const auto stored_sum = parse_octal(field_text(header, kChecksum));
        const auto size = parse_octal(field_text(header, kSize));
        if (!stored_sum || (*stored_sum != checksum_of(block) && !sane_cube_header(header, size)))
            throw Error(origin, "not a tar archive (bad header checksum at byte " + std::to_string(pos) + ")");
        if (!size) throw Error(origin, "tar header at byte " + std::to_string(pos) + " has a malformed size");
        const std::size_t data_begin = pos + kBlock;
        if (*size > b.size() - data_begin)
            throw Error(origin, "tar member at byte " + std::to_string(pos) + " is truncated");

        std::string name(field_text(header, kName));
        if (field_text(header, kMagic) == "ustar") {
            const std::string_view prefix = field_text(header, kPrefix);
            if (!prefix.empty()) name = std::string(prefix) + "/" + name;
        }
        const char type = header[kTypeflag.offset];
        if (type == '0' || type == '\0') {
            if (!archive.by_name_.emplace(name, archive.members_.size()).second)
                throw Error(origin, "the archive holds two members named " + name);
            archive.members_.push_back(Member{name, data_begin, *size});
        }

        const std::size_t padded = (*size + kBlock - 1) / kBlock * kBlock;
        if (padded > b.size() - data_begin) throw Error(origin, "the archive is truncated in member " + name);
        pos = data_begin + padded;
    }
    if (archive.members_.empty()) throw Error(origin, "the archive holds no files");
    return archive;
}

std::optional<std::string_view> Archive::file(std::string_view name) const {
    const auto found = by_name_.find(std::string(name));
    if (found == by_name_.end()) return std::nullopt;
    const Member& m = members_[found->second];
    return std::string_view(bytes_).substr(m.offset, m.size);
}

}  // namespace hindsight::cube::tar
