// Which user and compiler-instrumented regions are recorded. The filter
// file uses Score-P's syntax, so existing Score-P filter files work as they
// are:
//
//     SCOREP_REGION_NAMES_BEGIN
//       EXCLUDE *
//       INCLUDE main work*
//       EXCLUDE MANGLED _ZN6detail*
//     SCOREP_REGION_NAMES_END
//     SCOREP_FILE_NAMES_BEGIN
//       EXCLUDE */third_party/*
//     SCOREP_FILE_NAMES_END
//
// Within each kind of block (region names, file names) rules apply in
// order and the last rule whose glob (fnmatch: * ? [...]) matches decides;
// nothing matching means recorded. As in Score-P, a region is left out when
// its name or its source file is excluded. MANGLED makes a rule's patterns
// match the mangled name. The collector knows no source files of user and
// compiler regions (dladdr and the symbol table give none), so file rules
// are accepted but match nothing. A rule's patterns may continue over
// several lines; "#" starts a comment. MPI regions are never filtered: the
// analysis needs every MPI call.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hindsight::collect {

class RegionFilter {
public:
    // Records everything.
    RegionFilter() = default;

    // Parses filter text; `file` names it in errors (hindsight::Error
    // "FILE: line N: problem").
    static RegionFilter parse(std::string_view text, const std::string& file);
    // Reads and parses a filter file: a regular file of at most 1 MiB,
    // read without ever waiting (a FIFO or device is refused unopened).
    static RegionFilter load(const std::string& path);

    // `mangled` is what MANGLED rules match (empty: the name itself);
    // `source_file` is empty when unknown, and file rules then decide nothing.
    bool included(std::string_view name, std::string_view mangled = {}, std::string_view source_file = {}) const;
    std::size_t rule_count() const { return names_.size() + files_.size(); }

private:
    struct Rule {
        bool include = true;
        bool mangled = false;  // match the mangled name (region rules only)
        std::vector<std::string> patterns;
    };
    // The verdict of the last rule in `rules` that matches (true: none does).
    static bool last_match_includes(const std::vector<Rule>& rules, std::string_view name,
                                    std::string_view mangled);

    std::vector<Rule> names_;
    std::vector<Rule> files_;
};

}  // namespace hindsight::collect
