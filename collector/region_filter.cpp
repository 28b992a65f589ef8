#include "collector/region_filter.hpp"

#include <fnmatch.h>

#include <fstream>
#include <sstream>

#include "common/error.hpp"

namespace hindsight::collect {

namespace {

struct Block {
    std::string_view begin;
    std::string_view end;
};
constexpr Block kRegionBlock{"SCOREP_REGION_NAMES_BEGIN", "SCOREP_REGION_NAMES_END"};
constexpr Block kFileBlock{"SCOREP_FILE_NAMES_BEGIN", "SCOREP_FILE_NAMES_END"};

bool matches(const std::string& pattern, std::string_view text) {
    return fnmatch(pattern.c_str(), std::string(text).c_str(), 0) == 0;
}

}  // namespace

RegionFilter RegionFilter::parse(std::string_view text, const std::string& file) {
    RegionFilter filter;
    const Block* block = nullptr;       // the block being read
    std::vector<Rule>* rules = nullptr;  // its rules
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
            if (word == kRegionBlock.begin || word == kFileBlock.begin) {
                if (block) fail("'" + word + "' inside a " + std::string(block->begin) + " block");
                block = word == kRegionBlock.begin ? &kRegionBlock : &kFileBlock;
                rules = block == &kRegionBlock ? &filter.names_ : &filter.files_;
                seen_block = true;
                current = nullptr;
            } else if (word == kRegionBlock.end || word == kFileBlock.end) {
                if (!block || word != block->end) {
                    fail("'" + word + "' without its " + (word == kRegionBlock.end ? std::string(kRegionBlock.begin)
                                                                                  : std::string(kFileBlock.begin)));
                }
                block = nullptr;
                current = nullptr;
            } else if (!block) {
                fail("'" + word + "' outside a " + std::string(kRegionBlock.begin) + " or " +
                     std::string(kFileBlock.begin) + " block");
            } else if (word == "EXCLUDE" || word == "INCLUDE") {
                if (current && current->patterns.empty()) fail(word + " follows a rule without a pattern");
                rules->push_back(Rule{word == "INCLUDE", false, {}});
                current = &rules->back();
            } else if (word == "MANGLED") {
                if (block == &kFileBlock) fail("MANGLED belongs to region names, not file names");
                if (!current || current->mangled || !current->patterns.empty()) {
                    fail("MANGLED must directly follow EXCLUDE or INCLUDE");
                }
                current->mangled = true;
            } else if (!current) {
                fail("pattern '" + word + "' before EXCLUDE or INCLUDE");
            } else {
                current->patterns.push_back(word);
            }
        }
    }
    if (block) throw Error(file, "missing " + std::string(block->end));
    if (!seen_block) {
        throw Error(file, "no " + std::string(kRegionBlock.begin) + " or " + std::string(kFileBlock.begin) +
                              " block");
    }
    for (const std::vector<Rule>* list : {&filter.names_, &filter.files_}) {
        for (const Rule& rule : *list) {
            if (rule.patterns.empty()) {
                throw Error(file, std::string(rule.include ? "INCLUDE" : "EXCLUDE") + " without a pattern");
            }
        }
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

bool RegionFilter::last_match_includes(const std::vector<Rule>& rules, std::string_view name,
                                       std::string_view mangled) {
    bool include = true;
    for (const Rule& rule : rules) {
        const std::string_view subject = rule.mangled && !mangled.empty() ? mangled : name;
        for (const std::string& pattern : rule.patterns) {
            if (matches(pattern, subject)) {
                include = rule.include;
                break;
            }
        }
    }
    return include;
}

bool RegionFilter::included(std::string_view name, std::string_view mangled, std::string_view source_file) const {
    if (!source_file.empty() && !last_match_includes(files_, source_file, {})) return false;
    return last_match_includes(names_, name, mangled);
}

}  // namespace hindsight::collect
