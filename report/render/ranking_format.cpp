#include "report/render/ranking_format.hpp"

#include "common/strings.hpp"
#include "report/analysis/json_views.hpp"
#include "report/format/number_format.hpp"
#include "report/format/size_label.hpp"
#include "common/text_table.hpp"
#include "report/render/compare_format.hpp"

namespace collbench::report {
namespace {

std::string opt_gbps(const std::optional<double>& v) { return v ? format_fixed(*v, 2) : "-"; }

TableRows ranking_rows(const Ranking& r) {
  std::vector<std::string> header = {"#", "run", "ranks", "hosts", "score GB/s", "vs median", "flag"};
  for (auto size : kReferenceSizes) header.push_back("@" + short_size(size));
  header.insert(header.end(), {"peak GB/s", "at", "problems"});
  TableRows rows = {header};
  for (const auto& run : r.runs) {
    std::vector<std::string> cells = {run.place > 0 ? format_int(run.place) : "-",
                                      run.label,
                                      format_int(run.nranks),
                                      run.hosts,
                                      opt_gbps(run.score_gbps),
                                      run.vs_median ? format_fixed(100 * (*run.vs_median - 1), 1) + "%" : "-",
                                      run.flagged ? "BELOW" : ""};
    for (std::size_t i = 0; i < kReferenceSizes.size(); ++i) {
      cells.push_back(run.figures ? reference_cell(run.figures->at_reference[i]) : "-");
    }
    cells.push_back(run.figures ? format_fixed(run.figures->peak_busbw_gbps, 2) : "-");
    cells.push_back(run.figures ? short_size(run.figures->peak_size_bytes) : "-");
    cells.push_back(join(run.problems, "; "));
    rows.push_back(std::move(cells));
  }
  return rows;
}

TableRows context_rows(const Ranking& r) {
  std::vector<std::string> header = {"field"};
  header.insert(header.end(), r.labels.begin(), r.labels.end());
  header.emplace_back("differs");
  TableRows rows = {header};
  for (const auto& row : r.context) {
    std::vector<std::string> cells = {row.field};
    cells.insert(cells.end(), row.values.begin(), row.values.end());
    cells.emplace_back(row.differs ? "yes" : "");
    rows.push_back(std::move(cells));
  }
  return rows;
}

TableRows straggler_rows(const Ranking& r) {
  TableRows rows = {{"run", "host", "slowest rank at", "median excess over the rank mean"}};
  for (const auto& s : r.stragglers) {
    rows.push_back({s.run, s.host, format_uint(s.slowest) + " of " + format_uint(s.points) + " points",
                    s.slowest > 0 ? format_fixed(100 * s.median_excess, 1) + "%" : "-"});
  }
  return rows;
}

std::string human(const Ranking& r, bool markdown) {
  const auto table = [markdown](const TableRows& rows) {
    return markdown ? render_markdown_table(rows) : render_text_table(rows);
  };
  const auto heading = [markdown](const std::string& text) {
    return markdown ? "\n### " + text + "\n\n" : "\n" + text + "\n";
  };
  std::string out = markdown ? "## collbench node ranking\n\n" : "collbench node ranking\n";
  out += (markdown ? "- " : "  ") + std::string("Score: ") + r.score_name() + "; flagged when more than " +
         percent_text(r.flag_below) + " below the median (" + format_fixed(r.median_gbps, 2) + " GB/s)\n";
  for (const auto& note : r.notes) out += (markdown ? "- " : "  ") + std::string("Note: ") + note + "\n";
  out += heading("Ranking") + table(ranking_rows(r));
  out += heading("Side by side") + table(context_rows(r));
  if (!r.stragglers.empty()) out += heading("Slowest rank by host") + table(straggler_rows(r));
  out += std::string(markdown ? "\n**" : "\n") + format_uint(r.flagged()) + " of " + format_uint(r.runs.size()) +
         " runs flagged" + (markdown ? "**\n" : "\n");
  return out;
}

std::string json(const Ranking& r) {
  Json runs = Json::array();
  for (const auto& run : r.runs) {
    runs.push_back({{"place", run.place},
                    {"label", run.label},
                    {"nranks", run.nranks},
                    {"hosts", run.hosts},
                    {"score_gbps", run.score_gbps ? real(*run.score_gbps) : Json(nullptr)},
                    {"vs_median", run.vs_median ? real(*run.vs_median) : Json(nullptr)},
                    {"flagged", run.flagged},
                    {"figures", run.figures ? figures_json(*run.figures) : Json(nullptr)},
                    {"problems", run.problems}});
  }
  Json context = Json::array();
  for (const auto& row : r.context)
    context.push_back({{"field", row.field}, {"values", row.values}, {"differs", row.differs}});
  Json stragglers = Json::array();
  for (const auto& s : r.stragglers) {
    stragglers.push_back({{"run", s.run},
                          {"host", s.host},
                          {"slowest", s.slowest},
                          {"points", s.points},
                          {"median_excess", real(s.median_excess)}});
  }
  const Json j = {{"schema", "collbench.ranking"},
                  {"schema_version", 1},
                  {"basis", r.basis ? series_key_json(*r.basis) : Json(nullptr)},
                  {"score", r.score_name()},
                  {"score_size_bytes", r.score_size ? Json(*r.score_size) : Json(nullptr)},
                  {"flag_below", r.flag_below},
                  {"median_gbps", real(r.median_gbps)},
                  {"flagged", r.flagged()},
                  {"runs", runs},
                  {"labels", r.labels},
                  {"context", context},
                  {"stragglers", stragglers},
                  {"notes", r.notes}};
  return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace

std::string format_ranking(const Ranking& ranking, TextFormat format) {
  switch (format) {
    case TextFormat::kText: return human(ranking, false);
    case TextFormat::kMarkdown: return human(ranking, true);
    case TextFormat::kJson: return json(ranking);
  }
  return human(ranking, false);
}

}  // namespace collbench::report
