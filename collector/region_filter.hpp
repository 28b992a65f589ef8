// Which user and compiler-instrumented regions are recorded. The filter
// file uses Score-P's syntax, so existing filter files keep working:
//
//     SCOREP_REGION_NAMES_BEGIN
//       EXCLUDE *
//       INCLUDE main work*
//     SCOREP_REGION_NAMES_END
//
// Rules apply in order and the last rule whose glob (fnmatch: * ? [...])
// matches a name decides; a name no rule matches is recorded. A rule's
// patterns may continue over several lines; "#" starts a comment. MPI
// regions are never filtered: the analysis needs every MPI call.
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
    // Reads and parses a filter file.
    static RegionFilter load(const std::string& path);

    bool included(std::string_view region_name) const;
    std::size_t rule_count() const { return rules_.size(); }

private:
    struct Rule {
        bool include = true;
        std::vector<std::string> patterns;
    };
    std::vector<Rule> rules_;
};

}  // namespace hindsight::collect
