// The POSIX ustar container of a .cubex report: regular files only, flat
// names, written and read without any archive library.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace hindsight::cube::tar {

class Writer {
public:
    // Creates (truncates) the archive; throws hindsight::Error when it cannot.
    explicit Writer(const std::filesystem::path& path);

    // Appends one regular file. CubeLib's tar reader skips one block too many
    // after a member whose size is a non-zero multiple of 512 bytes, so such
    // sizes are refused (std::logic_error): callers shape their members to
    // avoid them. Names are at most 100 bytes.
    void add(std::string_view name, std::string_view contents);

    // Writes the end-of-archive blocks and closes; errors throw.
    void finish();

private:
    void check_stream(const char* doing);
    std::filesystem::path path_;
    std::ofstream out_;
};

// A whole archive held in memory.
class Archive {
public:
    struct Member {
        std::string name;
        std::size_t offset = 0;  // of the contents within the archive bytes
        std::size_t size = 0;
    };

    // Throws hindsight::Error naming `path` when the file cannot be read or
    // is not a well-formed ustar archive. Only regular files are members:
    // links, directories and extension headers are skipped, never followed,
    // and nothing is ever written to disk. A name used by two regular
    // members is an error (which one would a CUBE reader take?).
    static Archive load(const std::filesystem::path& path);
    static Archive parse(std::string bytes, const std::string& origin);

    const std::vector<Member>& members() const { return members_; }
    // A hash lookup: reports hold two members per metric.
    std::optional<std::string_view> file(std::string_view name) const;

private:
    std::string bytes_;
    std::vector<Member> members_;
    std::unordered_map<std::string, std::size_t> by_name_;  // member name -> index in members_
};

}  // namespace hindsight::cube::tar
