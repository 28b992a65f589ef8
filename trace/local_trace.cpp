#include "trace/local_trace.hpp"

namespace hindsight::trace {

std::string call_path_text(const LocalTrace& trace, CallPathId cnode, std::string_view separator) {
    std::string text;
    for (CallPathId c = cnode; c != kNoCallPath; c = trace.call_tree.node(c).parent)
        text = trace.region_of(c).name + (text.empty() ? "" : std::string(separator) + text);
    return text;
}

}  // namespace hindsight::trace
