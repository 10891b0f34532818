// `collbench report -o report.html`: one self-contained page (inline CSS and SVG; no script,
// no font, no link to anything) with the charts, summary figures, node ranking, contexts,
// topology matrices when known, and every result row.
#pragma once

#include <string>
#include <vector>

#include "report/analysis/node_ranking.hpp"
#include "report/documents/report_input.hpp"

namespace collbench::report {

struct HtmlOptions {
  std::string title = "collbench report";
  RankingOptions ranking;
  std::string generator;  // "collbench 0.1.0 (abc123)", shown in the footer
};

std::string render_html_report(const std::vector<ReportRun>& runs, const HtmlOptions& options);

}  // namespace collbench::report
