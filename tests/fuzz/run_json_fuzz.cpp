// Run files as `collbench compare` and `collbench report` read them (bench/cli/wiring/run_files.cpp):
// parsed and validated, their topology turned into matrix views, then compared, ranked,
// summarised and rendered to every output format. Files come from other machines and other
// versions, so none of this may crash, whatever the document holds.
#include <string>
#include <vector>

#include "bench/cli/wiring/topology_view.hpp"
#include "report/analysis/compare.hpp"
#include "report/analysis/node_ranking.hpp"
#include "report/analysis/summary_figures.hpp"
#include "report/documents/run_json.hpp"
#include "report/render/compare_format.hpp"
#include "report/render/csv_writer.hpp"
#include "report/render/gbench_json.hpp"
#include "report/render/html_report.hpp"
#include "report/render/ranking_format.hpp"
#include "report/render/run_charts.hpp"
#include "report/render/svg_chart.hpp"
#include "tests/fuzz/fuzz_entries.hpp"

namespace collbench::fuzz {
namespace {

bool has_measurements(const report::RunDocument& document) {
  for (const auto& row : document.rows) {
    if (!row.placements.empty()) return true;
  }
  return false;
}

void render_everything(const report::RunDocument& document) {
  const report::ReportRun run{"base", document, cli::topology_views(document.context)};
  const std::vector<report::ReportRun> runs = {run, {"new", document, run.topology}};
  const report::Comparison comparison = report::compare_runs(runs[0], runs[1], {});
  const report::Ranking ranking = report::rank_runs(runs, {});
  for (auto format : {report::TextFormat::kText, report::TextFormat::kMarkdown, report::TextFormat::kJson}) {
    COLLBENCH_FUZZ_REQUIRE(!report::format_comparison(comparison, format).empty());
    static_cast<void>(report::format_ranking(ranking, format));
  }
  static_cast<void>(report::summary_figures(document, {report::bottleneck_link_gbps(run)}));
  static_cast<void>(report::runs_csv(runs));
  static_cast<void>(report::gbench_json_text(document));
  for (const auto& charts : report::run_charts(runs)) {
    static_cast<void>(report::render_svg_chart(charts.busbw, true));
    static_cast<void>(report::render_svg_chart(charts.time, true));
  }
  static_cast<void>(report::render_html_report(runs, {}));
}

}  // namespace

void run_json(Bytes input) {
  auto document = report::parse_run_json(as_text(input));
  if (!document.ok()) return;
  // What collbench writes, it reads back to the same text (run_json.hpp).
  const std::string text = report::to_json_text(*document);
  auto again = report::parse_run_json(text);
  COLLBENCH_FUZZ_REQUIRE(again.ok());
  COLLBENCH_FUZZ_REQUIRE(report::to_json_text(*again) == text);
  if (has_measurements(*document)) render_everything(*document);
}

}  // namespace collbench::fuzz

COLLBENCH_FUZZ_TARGET(run_json)
