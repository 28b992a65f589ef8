// The <doc> (documentation mirrors) and <metrics> elements, which both
// anchor.xml and remapping.spec hold: the metric tree in file order, each
// metric with its names, type, unit, documentation link and description.
#pragma once

#include "common/cube/numbering.hpp"
#include "common/cube/report.hpp"
#include "common/cube/xml.hpp"

namespace hindsight::cube {

// Where the metrics say what they are: anchor.xml gives each its id and
// type (EXCLUSIVE); remapping.spec gives none, which makes cube_remap2 copy
// the metric from the report by its unique name.
enum class MetricTags { IdAndType, NamesOnly };

void write_doc_and_metrics(xml::Writer& w, const Report& report, const FileNumbering& numbering, MetricTags tags);

}  // namespace hindsight::cube
