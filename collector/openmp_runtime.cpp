#include "collector/openmp_runtime.hpp"

#include <elf.h>

#include <cstring>
#include <filesystem>
#include <fstream>

namespace hindsight::collect {

namespace {

template <typename T>
bool read_at(std::ifstream& in, std::uint64_t offset, T& out) {
    in.seekg(static_cast<std::streamoff>(offset));
    return static_cast<bool>(in.read(reinterpret_cast<char*>(&out), sizeof out));
}

}  // namespace

std::vector<std::string> needed_libraries(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    Elf64_Ehdr header{};
    if (!read_at(in, 0, header) || std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 ||
        header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_phentsize != sizeof(Elf64_Phdr)) {
        return {};
    }
    std::vector<Elf64_Phdr> loads;
    Elf64_Phdr dynamic{};
    for (int i = 0; i < header.e_phnum; ++i) {
        Elf64_Phdr segment{};
        if (!read_at(in, header.e_phoff + static_cast<std::uint64_t>(i) * sizeof segment, segment)) return {};
        if (segment.p_type == PT_LOAD) loads.push_back(segment);
        if (segment.p_type == PT_DYNAMIC) dynamic = segment;
    }
    std::vector<std::uint64_t> needed;
    std::uint64_t strtab = 0;
    std::uint64_t strsz = 0;
    for (std::uint64_t at = 0; at + sizeof(Elf64_Dyn) <= dynamic.p_filesz; at += sizeof(Elf64_Dyn)) {
        Elf64_Dyn entry{};
        if (!read_at(in, dynamic.p_offset + at, entry) || entry.d_tag == DT_NULL) break;
        if (entry.d_tag == DT_NEEDED) needed.push_back(entry.d_un.d_val);
        if (entry.d_tag == DT_STRTAB) strtab = entry.d_un.d_ptr;
        if (entry.d_tag == DT_STRSZ) strsz = entry.d_un.d_val;
    }
    // The string table is named by its address: its file offset is in the
    // loaded segment that holds it.
    std::uint64_t strtab_offset = 0;
    bool found = false;
    for (const Elf64_Phdr& load : loads) {
        if (strtab >= load.p_vaddr && strtab + strsz <= load.p_vaddr + load.p_filesz) {
            strtab_offset = strtab - load.p_vaddr + load.p_offset;
            found = true;
        }
    }
    constexpr std::uint64_t kMaxStrings = 64u << 20;
    if (!found || strsz > kMaxStrings) return {};
    std::string strings(strsz, '\0');
    in.seekg(static_cast<std::streamoff>(strtab_offset));
    if (!in.read(strings.data(), static_cast<std::streamsize>(strsz))) return {};
    std::vector<std::string> names;
    for (const std::uint64_t offset : needed)
        if (offset < strsz) names.emplace_back(strings.c_str() + offset);
    return names;
}

OpenMpRuntime openmp_runtime_for(const std::string& program_path, const std::string& libomp) {
    bool gomp = false;
    for (const std::string& name : needed_libraries(program_path)) gomp = gomp || name.rfind("libgomp.so", 0) == 0;
    if (!gomp) return {};
    std::error_code ec;
    if (!libomp.empty() && std::filesystem::is_regular_file(libomp, ec)) return {libomp, ""};
    return {"", program_path + ": uses GCC's OpenMP runtime (libgomp), which has no tools interface, and LLVM's "
                "libomp (Debian package libomp-dev), which can replace it, is not installed: its OpenMP threads "
                "are not recorded"};
}

}  // namespace hindsight::collect
