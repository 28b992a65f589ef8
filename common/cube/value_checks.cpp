#include "common/cube/value_checks.hpp"

#include <cmath>
#include <cstdio>

namespace hindsight::cube {

void Warnings::add(std::string problem) {
    if (lines_.size() < kMaxWarnings) lines_.push_back(where_ + ": " + std::move(problem));
    else ++left_out_;
}

void Warnings::hand_to(Report& report) {
    for (std::string& line : lines_) report.add_warning(std::move(line));
    if (left_out_ > 0) report.add_warning(where_ + ": " + std::to_string(left_out_) + " more warnings like these left out");
}

namespace {

std::string number_text(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", v);
    return text;
}

std::string rank_text(const Report& report, LocationIndex l) {
    const Location& location = report.locations()[l];
    const LocationGroup& group = report.location_groups()[location.group];
    return "rank " + std::to_string(group.rank) + (location.rank != 0 ? " thread " + std::to_string(location.rank) : "");
}

}  // namespace

// Turns the values of `metric`, stored call-tree inclusive, exclusive: each
// call path keeps its value less its children's.
//
// A caller's inclusive value can never be smaller than its callees' together
// in a sound report; where it is (a damaged or inconsistent file), the
// exclusive value comes out negative. It is kept as it is, so that the
// numbers still add up to what the file says, and a warning names the
// metric, the call path and the rank where it is most negative. A difference
// within the rounding of the subtraction (a billionth of the values
// involved) is rounding, not inconsistency, and becomes 0.
void make_call_tree_exclusive(Report& report, MetricIndex metric, Warnings& warnings, NamesOnDemand& names) {
    if (!report.has_values(metric)) return;
    const std::size_t width = report.locations().size();
    const auto& cnodes = report.cnodes();
    std::vector<double> exclusive(cnodes.size() * width), magnitude(cnodes.size() * width);
    for (CnodeIndex c = 0; c < cnodes.size(); ++c)
        for (LocationIndex l = 0; l < width; ++l) {
            exclusive[c * width + l] = report.value(metric, c, l);
            magnitude[c * width + l] = std::abs(exclusive[c * width + l]);
        }
    for (CnodeIndex c = 0; c < cnodes.size(); ++c) {
        if (cnodes[c].parent == kNone) continue;
        for (LocationIndex l = 0; l < width; ++l) {
            const double callee = report.value(metric, c, l);
            exclusive[cnodes[c].parent * width + l] -= callee;
            magnitude[cnodes[c].parent * width + l] += std::abs(callee);
        }
    }
    std::size_t negative = 0;
    std::size_t worst = 0;
    for (std::size_t i = 0; i < exclusive.size(); ++i) {
        if (exclusive[i] >= 0.0) continue;
        if (is_rounding_noise(exclusive[i], magnitude[i])) {
            exclusive[i] = 0.0;
            continue;
        }
        if (negative++ == 0 || exclusive[i] < exclusive[worst]) worst = i;
    }
    for (CnodeIndex c = 0; c < cnodes.size(); ++c)
        for (LocationIndex l = 0; l < width; ++l)
            if (exclusive[c * width + l] != report.value(metric, c, l))
                report.set_value(metric, c, l, exclusive[c * width + l]);
    if (negative == 0) return;
    if (!names) names.emplace(report);
    const Metric& m = report.metrics()[metric];
    const auto c = static_cast<CnodeIndex>(worst / width);
    const auto l = static_cast<LocationIndex>(worst % width);
    warnings.add("metric " + m.unique_name + " (call-tree inclusive): the callees of call path " +
                 names->abbreviated(c) + " exceed it on " + rank_text(report, l) + ", so its exclusive value is " +
                 number_text(exclusive[worst]) + (m.unit.empty() ? "" : " " + m.unit) +
                 (negative > 1 ? " (" + std::to_string(negative - 1) + " more negative values)" : ""));
}

// Values that are not finite numbers (NaN, infinities) measure nothing; they
// are kept, as the file has them, but named.
void check_finite(const Report& report, MetricIndex metric, Warnings& warnings, NamesOnDemand& names) {
    if (!report.has_values(metric)) return;
    const std::size_t width = report.locations().size();
    std::size_t count = 0;
    CnodeIndex first_cnode = kNone;
    LocationIndex first_location = 0;
    for (CnodeIndex c = 0; c < report.cnodes().size(); ++c)
        for (LocationIndex l = 0; l < width; ++l)
            if (!std::isfinite(report.value(metric, c, l)) && count++ == 0) {
                first_cnode = c;
                first_location = l;
            }
    if (count == 0) return;
    if (!names) names.emplace(report);
    warnings.add("metric " + report.metrics()[metric].unique_name + " holds " + std::to_string(count) +
                 " value(s) that are not finite numbers, e.g. " +
                 number_text(report.value(metric, first_cnode, first_location)) + " at call path " +
                 names->abbreviated(first_cnode) + " on " + rank_text(report, first_location));
}

}  // namespace hindsight::cube
