// The name of the region a loaded trace's Enter event opens: what tests of
// the loader compare a call's index with.
#pragma once

#include <string>

#include "trace/local_trace.hpp"

namespace hindsight::testing {

inline std::string region_at(const trace::LocalTrace& t, trace::EventIndex enter) {
    return t.region_of(t.events[enter].cnode).name;
}

}  // namespace hindsight::testing
