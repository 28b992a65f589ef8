#include "common/cube/metric_tree_xml.hpp"

#include <string>
#include <vector>

#include "common/cube/metric_files.hpp"

namespace hindsight::cube {

void write_doc_and_metrics(xml::Writer& w, const Report& report, const FileNumbering& numbering, MetricTags tags) {
    w.open("doc");
    w.open("mirrors");
    for (const std::string& url : report.mirrors()) w.leaf("murl", url);
    w.close();
    w.close();
    w.open("metrics");
    // Metrics are numbered in preorder, so walking the file ids opens them in
    // document order; `open` tracks the chain of currently open ancestors.
    std::vector<MetricIndex> open;
    for (const MetricIndex m : numbering.metrics) {
        const Metric& metric = report.metrics()[m];
        while (!open.empty() && open.back() != metric.parent) {
            w.close();
            open.pop_back();
        }
        if (tags == MetricTags::IdAndType)
            w.open("metric", {{"id", std::to_string(numbering.metric_id[m])}, {"type", "EXCLUSIVE"}});
        else
            w.open("metric");
        w.leaf("disp_name", metric.display_name);
        w.leaf("uniq_name", metric.unique_name);
        w.leaf("dtype", data_type_name(metric.data_type));
        w.leaf("uom", metric.unit);
        w.leaf("url", metric.url);
        w.leaf("descr", metric.description);
        open.push_back(m);
    }
    for (; !open.empty(); open.pop_back()) w.close();
    w.close();
}

}  // namespace hindsight::cube
