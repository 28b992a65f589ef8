#include "collector/region_filter.hpp"

#include <fcntl.h>
#include <fnmatch.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <sstream>

#include "common/error.hpp"
#include "common/shortened.hpp"

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

// A filter file is a short list of rules; anything larger is the wrong file.
constexpr off_t kLargestFilterFile = off_t{1} << 20;

// What keeps `status` from being read as a filter file; empty when nothing.
std::string not_a_filter_file(const struct stat& status) {
    if (S_ISDIR(status.st_mode)) return "is a directory";
    if (!S_ISREG(status.st_mode)) return "is not a regular file";
    if (status.st_size > kLargestFilterFile) {
        return "has " + std::to_string(status.st_size) + " bytes, more than a filter file can have (1 MiB)";
    }
    return {};
}

// The text of the filter file `path` (named `shown` in errors). A FIFO, a
// device or a directory is refused before it is read: the launcher must
// never wait for a writer that does not come. The type is looked at before
// opening (opening some devices acts on them) and again on the open file
// (the name may have changed in between), which is opened without waiting.
std::string read_filter_file(const std::string& path, const std::string& shown) {
    const auto fail = [&](const std::string& problem) { throw Error(shown, problem); };
    const auto unreadable = [&] { fail(std::string("cannot read: ") + std::strerror(errno)); };
    struct stat status {};
    if (stat(path.c_str(), &status) != 0) unreadable();
    if (std::string why = not_a_filter_file(status); !why.empty()) fail(why);
    const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) unreadable();
    struct Closer {
        int fd;
        ~Closer() { close(fd); }
    } closer{fd};
    if (fstat(fd, &status) != 0) unreadable();
    if (std::string why = not_a_filter_file(status); !why.empty()) fail(why);
    std::string text;
    char block[4096];
    for (;;) {
        const ssize_t got = read(fd, block, sizeof block);
        if (got == 0) break;
        if (got < 0) {
            if (errno == EINTR) continue;
            unreadable();
        }
        text.append(block, static_cast<std::size_t>(got));
        if (text.size() > static_cast<std::size_t>(kLargestFilterFile)) fail("grew beyond 1 MiB while being read");
    }
    return text;
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
    const std::string shown = shortened(path);
    return parse(read_filter_file(path, shown), shown);
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
