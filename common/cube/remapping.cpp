#include "common/cube/remapping.hpp"

#include "common/cube/metric_files.hpp"
#include "common/cube/xml.hpp"

namespace hindsight::cube {

std::string write_remapping_spec(const Report& report, const FileNumbering& numbering) {
    // Not a document of its own: cube_remap2 reads the <doc> and <metrics>
    // elements one after the other, as Scalasca writes them, without an
    // XML declaration or a common root.
    xml::Writer w(xml::Writer::Declaration::None);
    w.open("doc");
    w.open("mirrors");
    for (const std::string& url : report.mirrors()) w.leaf("murl", url);
    w.close();
    w.close();
    w.open("metrics");
    // A <metric> without a type is copied from the report by its unique
    // name, values and all. File order is preorder, so `open` holds the
    // chain of ancestors of the metric being written.
    std::vector<MetricIndex> open;
    for (const MetricIndex m : numbering.metrics) {
        const Metric& metric = report.metrics()[m];
        while (!open.empty() && open.back() != metric.parent) {
            w.close();
            open.pop_back();
        }
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
    return w.finish();
}

}  // namespace hindsight::cube
