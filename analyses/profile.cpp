#include "analyses/profile.hpp"

#include "analyses/time_category.hpp"
#include "common/error.hpp"

namespace hindsight {

void ProfileAnalysis::begin_pass(const replay::LocalTrace& trace, replay::Direction direction) {
    if (direction != replay::Direction::Forward)
        throw Error(trace.anchor_path, "the profile needs a forward replay");
    category_.clear();
    category_.reserve(trace.call_tree.size());
    for (CallPathId c = 0; c < trace.call_tree.size(); ++c)
        category_.push_back(time_category(trace.region_of(c)));
    stack_.clear();
}

void ProfileAnalysis::on_enter(const replay::EventView& view) {
    cube_->add(Metric::Visits, view.cnode(), 1.0);
    stack_.push_back({view.time(), 0});
}

void ProfileAnalysis::on_leave(const replay::EventView& view) {
    if (stack_.empty()) return;  // the event store guarantees nesting; stay safe anyway
    const Frame frame = stack_.back();
    stack_.pop_back();
    const Ticks duration = view.time() - frame.enter;
    const CallPathId cnode = view.cnode();
    cube_->add(category_[cnode], cnode, view.trace().seconds(duration - frame.children));
    if (!stack_.empty()) stack_.back().children += duration;
}

}  // namespace hindsight
