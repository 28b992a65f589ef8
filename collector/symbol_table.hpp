// Names of functions by address, for compiler instrumentation: dladdr
// knows the exported symbols only, so the ELF symbol table of the object
// the address lies in (executable or shared library) fills the gaps.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace hindsight::collect {

class SymbolTable {
public:
    // The (mangled) name of the function at `address`; empty when unknown.
    std::string name_of(const void* address);
    // Whether the running executable itself defines the function `name`.
    bool executable_defines(const std::string& name);

private:
    struct ObjectSymbols {
        bool position_independent = true;
        std::map<std::uint64_t, std::pair<std::uint64_t, std::string>> functions;  // start -> (size, name)
    };
    const ObjectSymbols& symbols_of(const std::string& file, std::uintptr_t base);
    std::map<std::uintptr_t, ObjectSymbols> objects_;  // by load address
};

// "_Z4workv" -> "work()"; a name that is not mangled comes back unchanged.
std::string demangle(const std::string& name);

}  // namespace hindsight::collect
