#include "analyses/graph/what_if.hpp"

#include <charconv>
#include <cmath>

#include "common/time_category.hpp"
#include "common/error.hpp"

namespace hindsight::analyses {
namespace {

[[noreturn]] void bad(std::string_view text, const std::string& problem) {
    throw Error("", "--what-if '" + std::string(text) + "': " + problem);
}

bool is_mpi_call(const trace::LocalTrace& trace, CallPathId c) { return hindsight::is_mpi_call(trace.region_of(c)); }

}  // namespace

WhatIf parse_what_if(std::string_view text) {
    WhatIf w;
    w.text = std::string(text);
    bool scaled = false;
    std::string_view rest = text;
    while (!rest.empty()) {
        const auto comma = rest.find(',');
        const std::string_view part = rest.substr(0, comma);
        rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
        const auto equals = part.find('=');
        const std::string_view key = part.substr(0, equals);
        const std::string_view value = equals == std::string_view::npos ? std::string_view{} : part.substr(equals + 1);
        if (key == "balance" && equals == std::string_view::npos) {
            w.balance = true;
        } else if (key == "callpath" && !value.empty()) {
            w.call_path = std::string(value);
        } else if (key == "rank") {
            const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), w.rank);
            if (ec != std::errc() || end != value.data() + value.size() || w.rank < 0)
                bad(text, "rank= needs a rank number");
        } else if (key == "scale") {
            // std::from_chars for double is in gcc 11 and later.
            const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), w.scale);
            if (ec != std::errc() || end != value.data() + value.size() || !(w.scale >= 0) || !std::isfinite(w.scale))
                bad(text, "scale= needs a factor of at least 0");
            scaled = true;
        } else {
            bad(text, "unknown part '" + std::string(part) + "' (expected callpath=PATH, rank=N, scale=F or balance)");
        }
    }
    if (w.call_path.empty()) bad(text, "callpath= is missing");
    if (w.balance == scaled) bad(text, "give either scale=F or balance");
    if (w.balance && w.rank >= 0) bad(text, "balance applies to all ranks; leave out rank=");
    return w;
}

CallPathId find_from_root(const trace::LocalTrace& trace, std::string_view path) {
    CallPathId node = kNoCallPath;
    while (!path.empty()) {
        const auto slash = path.find('/');
        const std::string_view name = path.substr(0, slash);
        path = slash == std::string_view::npos ? std::string_view{} : path.substr(slash + 1);
        CallPathId next = kNoCallPath;
        for (RegionId id = 0; id < trace.definitions.regions.size() && next == kNoCallPath; ++id)
            if (trace.definitions.regions[id].name == name) next = trace.call_tree.find(node, id);
        if (next == kNoCallPath) return kNoCallPath;
        node = next;
    }
    return node;
}

// From the root, else the first call path whose names end with `path`: the
// program's own region (e.g. the executable's name) need not be written.
CallPathId find_call_path(const trace::LocalTrace& trace, std::string_view path) {
    if (const CallPathId node = find_from_root(trace, path); node != kNoCallPath) return node;
    const std::string tail = "/" + std::string(path);
    for (CallPathId c = 0; c < trace.call_tree.size(); ++c) {
        const std::string text = trace::call_path_text(trace, c);
        if (text.size() > tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0) return c;
    }
    return kNoCallPath;
}

std::vector<bool> what_if_scope(const trace::LocalTrace& trace, CallPathId root, bool own_time_only) {
    const std::size_t paths = trace.call_tree.size();
    std::vector<bool> scope(paths, false);
    if (root >= paths) return scope;
    scope[root] = true;
    if (own_time_only || is_mpi_call(trace, root)) return scope;
    // Parents precede their children in the call tree's numbering.
    for (CallPathId c = root + 1; c < paths; ++c) {
        const CallPathId parent = trace.call_tree.node(c).parent;
        if (parent != kNoCallPath && scope[parent] && !is_mpi_call(trace, c)) scope[c] = true;
    }
    return scope;
}

}  // namespace hindsight::analyses
