#include "common/cube/call_paths.hpp"

#include <algorithm>

namespace hindsight::cube {

CallPathNames::CallPathNames(const Report& report)
    : report_(report), depth_(report.cnodes().size()), head_end_(report.cnodes().size()) {
    // Parents precede their children (Report::add_cnode), so one forward
    // pass sees every parent's results before its children need them.
    for (CnodeIndex c = 0; c < depth_.size(); ++c) {
        const CnodeIndex parent = report.cnodes()[c].parent;
        depth_[c] = parent == kNone ? 1 : depth_[parent] + 1;
        head_end_[c] = depth_[c] <= kHead ? c : head_end_[parent];
    }
}

namespace {

// Names of `count` call paths upwards from `cnode`, joined root first.
std::string joined_upwards(const Report& report, CnodeIndex cnode, std::size_t count) {
    std::vector<std::string_view> names;
    for (; cnode != kNone && names.size() < count; cnode = report.cnodes()[cnode].parent)
        names.push_back(report.regions()[report.cnodes()[cnode].region].name);
    std::string text;
    for (auto name = names.rbegin(); name != names.rend(); ++name) {
        if (!text.empty()) text += '/';
        text += *name;
    }
    return text;
}

}  // namespace

std::string CallPathNames::full(CnodeIndex cnode) const { return joined_upwards(report_, cnode, depth_[cnode]); }

std::string CallPathNames::abbreviated(CnodeIndex cnode) const {
    const std::size_t depth = depth_[cnode];
    if (depth <= kHead + kTail + 1) return full(cnode);
    return joined_upwards(report_, head_end_[cnode], kHead) + "/…(" + std::to_string(depth - kHead - kTail) +
           " more)…/" + joined_upwards(report_, cnode, kTail);
}

CnodeIndex CallPathNames::find(std::string_view text) const {
    const CnodeIndex from_root = find_from_root(text);
    return from_root != kNone ? from_root : find_ending(text);
}

CnodeIndex CallPathNames::find_ending(std::string_view text) const {
    std::vector<std::string_view> names;  // the regions of `text`, last first
    for (std::size_t begin = 0;;) {
        const std::size_t slash = text.find('/', begin);
        names.push_back(text.substr(begin, slash == std::string_view::npos ? slash : slash - begin));
        if (slash == std::string_view::npos) break;
        begin = slash + 1;
    }
    std::reverse(names.begin(), names.end());
    const auto& cnodes = report_.cnodes();
    for (CnodeIndex c = 0; c < cnodes.size(); ++c) {
        // Only a path with regions above the ones `text` names ends with it.
        if (depth_[c] <= names.size()) continue;
        CnodeIndex at = c;
        std::size_t k = 0;
        while (k < names.size() && report_.regions()[cnodes[at].region].name == names[k]) {
            at = cnodes[at].parent;
            ++k;
        }
        if (k == names.size()) return c;
    }
    return kNone;
}

CnodeIndex CallPathNames::find_from_root(std::string_view text) const {
    // matched[c]: how much of `text` the path of c spells, with its '/';
    // npos when it is no prefix. Each call path compares only its own name.
    constexpr std::size_t kNo = std::string_view::npos;
    const auto& cnodes = report_.cnodes();
    std::vector<std::size_t> matched(cnodes.size(), kNo);
    for (CnodeIndex c = 0; c < cnodes.size(); ++c) {
        const CnodeIndex parent = cnodes[c].parent;
        std::size_t at = 0;
        if (parent != kNone) {
            if (matched[parent] == kNo || matched[parent] >= text.size() || text[matched[parent]] != '/') continue;
            at = matched[parent] + 1;
        }
        const std::string& name = report_.regions()[cnodes[c].region].name;
        if (text.substr(at, name.size()) != name) continue;
        matched[c] = at + name.size();
        if (matched[c] == text.size()) return c;
    }
    return kNone;
}

}  // namespace hindsight::cube
