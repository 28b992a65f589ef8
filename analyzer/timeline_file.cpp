#include "analyzer/timeline_file.hpp"

#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include "analyses/patterns.hpp"
#include "analyses/timeline/lane.hpp"
#include "analyzer/row_gathering.hpp"
#include "common/error.hpp"
#include "common/text_fields.hpp"

namespace hindsight::analyzer {
namespace {

using analyses::Lane;

// Seconds since the trace's start to the nanosecond over runs of days:
// 12 significant digits, not the 17 of a number that must come back exact.
std::string seconds_text(const trace::LocalTrace& trace, Ticks ticks) {
    char text[32];
    std::snprintf(text, sizeof text, "%.12g", trace.seconds(ticks));
    return text;
}

// A pattern's name in the report (Scalasca's identifier) and for people.
const analyses::MetricInfo* pattern_metric(analyses::WaitPattern pattern) {
    const auto metric = analyses::pattern_info(pattern).own_metric();
    return metric ? &analyses::info(*metric) : nullptr;
}

class TimelineWriter {
public:
    TimelineWriter(const trace::LocalTrace& trace, std::ostream& out) : trace_(trace), out_(out) {}

    void window(const analyses::TimelineWindow& w, const std::vector<Lane>& lanes) {
        const analyses::MetricInfo* metric = pattern_metric(w.wait.pattern);
        if (metric) patterns_.insert(w.wait.pattern);
        paths_.insert(w.wait.cnode);
        out_ << "{\"instance\":{\"pattern\":" << hindsight::json_string(metric ? metric->unique_name : "")
             << ",\"rank\":" << w.rank << ",\"start\":" << time(w.wait.start)
             << ",\"waiting\":" << seconds_text(trace_, w.wait.waiting) << ",\"path\":" << w.wait.cnode
             << "},\"from\":" << time(w.from) << ",\"to\":" << time(w.to) << ",\"lanes\":[";
        for (std::size_t r = 0; r < lanes.size(); ++r) {
            out_ << (r ? ",\n  " : "\n  ");
            lane(static_cast<int>(r), lanes[r]);
        }
        out_ << "]}";
    }

    // The names the windows refer to.
    void names(std::ostream& out) const {
        out << "\"patterns\":{";
        const char* separator = "";
        for (const analyses::WaitPattern p : patterns_) {
            const analyses::MetricInfo& m = *pattern_metric(p);
            out << separator << hindsight::json_string(m.unique_name) << ':' << hindsight::json_string(m.display_name);
            separator = ",";
        }
        out << "},\n\"paths\":{";
        separator = "";
        for (const CallPathId c : paths_) {
            const Region& region = trace_.region_of(c);
            out << separator << '"' << c << "\":{\"name\":" << hindsight::json_string(region.name)
                 << ",\"path\":" << hindsight::json_string(trace::call_path_text(trace_, c, " > "))
                 << ",\"mpi\":" << (region.paradigm == Paradigm::Mpi ? "true" : "false") << '}';
            separator = ",\n  ";
        }
        out << "},\n\"communicators\":{";
        separator = "";
        for (const CommId c : communicators_) {
            out << separator << '"' << c << "\":" << hindsight::json_string(trace_.definitions.comm_display_name(c));
            separator = ",";
        }
        out << '}';
    }

private:
    std::string time(Ticks t) const { return seconds_text(trace_, t); }

    void lane(int rank, const Lane& lane) {
        out_ << "{\"rank\":" << rank << ",\"from\":" << time(lane.from) << ",\"to\":" << time(lane.to) << ",\"bars\":[";
        bars(lane.bars);
        out_ << "],\"sends\":[";
        list(lane.sends, [&](const analyses::LaneMessage& m) { message(m); });
        out_ << "],\"receives\":[";
        list(lane.receives, [&](const analyses::LaneMessage& m) { message(m); });
        out_ << "],\"collectives\":[";
        list(lane.collectives, [&](const analyses::LaneCollective& c) {
            communicators_.insert(c.comm);
            out_ << '[' << time(c.enter) << ',' << time(c.leave) << ',' << c.comm << ',' << c.number << ']';
        });
        out_ << "],\"waits\":[";
        bool first = true;
        for (const analyses::LaneWait& w : lane.waits) {
            const analyses::MetricInfo* metric = pattern_metric(w.pattern);
            if (!metric) continue;  // a pattern the report has no time of
            patterns_.insert(w.pattern);
            out_ << (first ? "" : ",") << '[' << time(w.start) << ',' << time(w.end) << ','
                 << hindsight::json_string(metric->unique_name) << ']';
            first = false;
        }
        out_ << "],\"critical\":[";
        list(lane.critical,
             [&](const analyses::LaneInterval& c) { out_ << '[' << time(c.from) << ',' << time(c.to) << ']'; });
        out_ << "],\"threads\":[";
        list(lane.threads, [&](const analyses::ThreadLane& t) {
            out_ << "{\"thread\":" << t.thread << ",\"from\":" << time(t.from) << ",\"to\":" << time(t.to)
                 << ",\"bars\":[";
            bars(t.bars);
            out_ << "]}";
        });
        out_ << "]}";
    }

    void bars(const std::vector<analyses::LaneBar>& items) {
        list(items, [&](const analyses::LaneBar& b) {
            paths_.insert(b.path);
            out_ << '[' << time(b.start) << ',' << time(b.end) << ',' << b.depth << ',' << b.path << ']';
        });
    }

    void message(const analyses::LaneMessage& m) { out_ << '[' << time(m.time) << ',' << m.peer << ',' << m.slot << ']'; }

    template <typename T, typename Show>
    void list(const std::vector<T>& items, Show show) {
        for (std::size_t i = 0; i < items.size(); ++i) {
            if (i) out_ << ',';
            show(items[i]);
        }
    }

    const trace::LocalTrace& trace_;
    std::ostream& out_;
    std::set<analyses::WaitPattern> patterns_;
    std::set<CallPathId> paths_;
    std::set<CommId> communicators_;
};

}  // namespace

std::vector<std::vector<std::byte>> gather_lanes(const std::vector<std::byte>& mine, MPI_Comm world,
                                                 replay::ProgressWatch& watch) {
    return gather_records(mine, world, watch, "the timeline lanes of all ranks");
}

std::string timeline_json(const std::vector<analyses::TimelineWindow>& windows,
                          const std::vector<std::vector<std::byte>>& lanes_by_rank, const trace::LocalTrace& trace,
                          const std::string& origin) {
    // Each rank's lanes, by window.
    std::vector<std::vector<Lane>> by_window(windows.size());
    for (std::size_t r = 0; r < lanes_by_rank.size(); ++r) {
        ByteReader in(lanes_by_rank[r]);
        try {
            for (std::vector<Lane>& lanes : by_window) lanes.push_back(Lane::read(in));
        } catch (const Error&) {
            throw Error(origin, "the timeline lanes of rank " + std::to_string(r) + " are damaged");
        }
        if (!in.empty()) throw Error(origin, "the timeline lanes of rank " + std::to_string(r) + " are too long");
    }
    std::ostringstream body;
    TimelineWriter writer(trace, body);
    for (std::size_t w = 0; w < windows.size(); ++w) {
        body << (w ? ",\n" : "\n");
        writer.window(windows[w], by_window[w]);
    }
    std::ostringstream out;
    out << "{\"schema\":\"hindsight-timeline\",\"version\":1,\"ranks\":" << lanes_by_rank.size() << ",\n";
    writer.names(out);
    out << ",\n\"windows\":[" << body.str() << "\n]}\n";
    return out.str();
}

}  // namespace hindsight::analyzer
