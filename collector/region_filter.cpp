#include "collector/region_filter.hpp"

#include <fnmatch.h>

#include <fstream>
#include <sstream>

#include "common/error.hpp"

namespace hindsight::collect {

namespace {
constexpr std::string_view kBegin = "SCOREP_REGION_NAMES_BEGIN";
constexpr std::string_view kEnd = "SCOREP_REGION_NAMES_END";
}  // namespace

RegionFilter RegionFilter::parse(std::string_view text, const std::string& file) {
    RegionFilter filter;
    bool in_block = false;
    bool seen_block = false;
    Rule* current = nullptr;
    std::istringstream lines{std::string(text)};
    std::string line;
    int number = 0;
    auto fail = [&](const std::string& problem) {
        throw Error(file, "line " + std::to_string(number) + ": " + problem);
    };
    while (std::getline(lines, line)) {
        ++number;
        if (const auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
        std::istringstream words(line);
        std::string word;
        while (words >> word) {
            if (word == kBegin) {
                if (in_block) fail("nested " + std::string(kBegin));
                in_block = seen_block = true;
                current = nullptr;
            } else if (word == kEnd) {
                if (!in_block) fail(std::string(kEnd) + " without " + std::string(kBegin));
                in_block = false;
                current = nullptr;
            } else if (!in_block) {
                fail("'" + word + "' outside a " + std::string(kBegin) + " block");
            } else if (word == "EXCLUDE" || word == "INCLUDE") {
                filter.rules_.push_back(Rule{word == "INCLUDE", {}});
                current = &filter.rules_.back();
            } else if (word == "MANGLED") {
                // Names are matched as recorded (demangled where possible).
                if (!current || !current->patterns.empty()) fail("MANGLED must follow EXCLUDE or INCLUDE");
            } else if (!current) {
                fail("pattern '" + word + "' before EXCLUDE or INCLUDE");
            } else {
                current->patterns.push_back(word);
            }
        }
    }
    if (in_block) throw Error(file, "missing " + std::string(kEnd));
    if (!seen_block) throw Error(file, "no " + std::string(kBegin) + " block");
    for (const Rule& rule : filter.rules_) {
        if (rule.patterns.empty()) throw Error(file, std::string(rule.include ? "INCLUDE" : "EXCLUDE") + " without a pattern");
    }
    return filter;
}

RegionFilter RegionFilter::load(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw Error(path, "cannot read the filter file");
    std::ostringstream text;
    text << in.rdbuf();
    return parse(text.str(), path);
}

bool RegionFilter::included(std::string_view region_name) const {
    const std::string name(region_name);
    bool include = true;
    for (const Rule& rule : rules_) {
        for (const std::string& pattern : rule.patterns) {
            if (fnmatch(pattern.c_str(), name.c_str(), 0) == 0) {
                include = rule.include;
                break;
            }
        }
    }
    return include;
}

}  // namespace hindsight::collect
