#include "common/cube/remapping.hpp"

#include "common/cube/metric_tree_xml.hpp"
#include "common/cube/xml.hpp"

namespace hindsight::cube {

std::string write_remapping_spec(const Report& report, const FileNumbering& numbering) {
    // Not a document of its own: cube_remap2 reads the <doc> and <metrics>
    // elements one after the other, as Scalasca writes them, without an
    // XML declaration or a common root.
    xml::Writer w(xml::Writer::Declaration::None);
    write_doc_and_metrics(w, report, numbering, MetricTags::NamesOnly);
    return w.finish();
}

}  // namespace hindsight::cube
