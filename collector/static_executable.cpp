#include "collector/static_executable.hpp"

#include <elf.h>

#include <cstring>
#include <fstream>

namespace hindsight::collect {

bool is_static_executable(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    Elf64_Ehdr header{};
    if (!in.read(reinterpret_cast<char*>(&header), sizeof header)) return false;
    if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 || header.e_ident[EI_CLASS] != ELFCLASS64 ||
        (header.e_type != ET_EXEC && header.e_type != ET_DYN) || header.e_phentsize != sizeof(Elf64_Phdr)) {
        return false;  // not a 64-bit executable this check knows how to read
    }
    for (int i = 0; i < header.e_phnum; ++i) {
        Elf64_Phdr segment{};
        in.seekg(static_cast<std::streamoff>(header.e_phoff + i * sizeof segment));
        if (!in.read(reinterpret_cast<char*>(&segment), sizeof segment)) return false;
        if (segment.p_type == PT_INTERP) return false;
    }
    // Started without an interpreter (a static executable or static PIE),
    // the program's code is all the kernel loads.
    return true;
}

}  // namespace hindsight::collect
