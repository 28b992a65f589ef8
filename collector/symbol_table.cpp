#include "collector/symbol_table.hpp"

#include <cxxabi.h>
#include <dlfcn.h>
#include <elf.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <vector>

namespace hindsight::collect {

namespace {

struct FreeDeleter {
    void operator()(char* p) const { std::free(p); }
};

template <class T>
bool read_at(const std::vector<char>& image, std::uint64_t offset, T& out) {
    if (offset > image.size() || image.size() - offset < sizeof(T)) return false;
    std::memcpy(&out, image.data() + offset, sizeof(T));
    return true;
}

}  // namespace

std::string demangle(const std::string& name) {
    int status = 0;
    std::unique_ptr<char, FreeDeleter> plain(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status));
    return status == 0 && plain ? std::string(plain.get()) : name;
}

const SymbolTable::ObjectSymbols& SymbolTable::symbols_of(const std::string& file, std::uintptr_t base) {
    auto [it, added] = objects_.try_emplace(base);
    if (!added) return it->second;
    ObjectSymbols& symbols = it->second;
    std::ifstream in(file.empty() ? std::string("/proc/self/exe") : file, std::ios::binary);
    if (!in) in.open("/proc/self/exe", std::ios::binary);
    const std::vector<char> image((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    Elf64_Ehdr header{};
    if (!read_at(image, 0, header) || std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 ||
        header.e_ident[EI_CLASS] != ELFCLASS64) {
        return symbols;
    }
    symbols.position_independent = header.e_type == ET_DYN;
    std::vector<Elf64_Shdr> sections(header.e_shnum);
    for (std::size_t i = 0; i < sections.size(); ++i) {
        if (!read_at(image, header.e_shoff + i * sizeof(Elf64_Shdr), sections[i])) return symbols;
    }
    for (const Elf64_Shdr& table : sections) {
        if (table.sh_type != SHT_SYMTAB && table.sh_type != SHT_DYNSYM) continue;
        if (table.sh_link >= sections.size() || table.sh_entsize != sizeof(Elf64_Sym)) continue;
        const Elf64_Shdr& strings = sections[table.sh_link];
        for (std::uint64_t off = 0; off + sizeof(Elf64_Sym) <= table.sh_size; off += sizeof(Elf64_Sym)) {
            Elf64_Sym sym{};
            if (!read_at(image, table.sh_offset + off, sym)) break;
            // An undefined function may carry the address of its PLT stub.
            if (ELF64_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_value == 0 || sym.st_shndx == SHN_UNDEF) continue;
            if (sym.st_name >= strings.sh_size) continue;
            const char* name = image.data() + strings.sh_offset + sym.st_name;
            const std::size_t max = strings.sh_size - sym.st_name;
            symbols.functions.try_emplace(sym.st_value, sym.st_size, std::string(name, strnlen(name, max)));
        }
    }
    return symbols;
}

std::string SymbolTable::name_of(const void* address) {
    Dl_info info{};
    if (dladdr(address, &info) == 0) return {};
    if (info.dli_sname && info.dli_saddr == address) return info.dli_sname;
    const auto base = reinterpret_cast<std::uintptr_t>(info.dli_fbase);
    const ObjectSymbols& symbols = symbols_of(info.dli_fname ? info.dli_fname : "", base);
    const auto addr = reinterpret_cast<std::uintptr_t>(address);
    const std::uint64_t key = symbols.position_independent ? addr - base : addr;
    auto it = symbols.functions.upper_bound(key);
    if (it == symbols.functions.begin()) return info.dli_sname ? info.dli_sname : "";
    --it;
    if (key == it->first || key < it->first + it->second.first) return it->second.second;
    return info.dli_sname ? info.dli_sname : "";
}

bool SymbolTable::executable_defines(const std::string& name) {
    // The executable is no shared object, so no load address of a library
    // can be the key 0.
    for (const auto& [start, function] : symbols_of("/proc/self/exe", 0).functions) {
        if (function.second == name) return true;
    }
    return false;
}

}  // namespace hindsight::collect
