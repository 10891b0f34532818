#include "report/render/html_report.hpp"

#include <algorithm>

#include "common/strings.hpp"
#include "report/analysis/compare.hpp"
#include "report/render/compare_format.hpp"
#include "report/render/markup.hpp"
#include "report/format/number_format.hpp"
#include "report/render/run_charts.hpp"
#include "report/format/size_label.hpp"
#include "report/analysis/summary_figures.hpp"
#include "common/text_table.hpp"

namespace collbench::report {
namespace {

constexpr const char* kStyle = R"(
body { font-family: sans-serif; margin: 24px; color: #222; max-width: 1600px; }
h1 { font-size: 22px; margin-bottom: 4px; }
h2 { font-size: 18px; margin-top: 32px; border-bottom: 1px solid #ccc; padding-bottom: 4px; }
h3 { font-size: 15px; margin-top: 20px; }
table { border-collapse: collapse; font-size: 13px; margin: 8px 0; }
th, td { border: 1px solid #d0d0d0; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f2f2f2; }
td { font-variant-numeric: tabular-nums; }
tr.differs td { background: #fff4d6; }
tr.flagged td { background: #fde2e1; }
.warning { background: #fde2e1; border-left: 4px solid #c0392b; padding: 6px 10px; margin: 6px 0; }
.note { color: #555; font-size: 13px; }
.charts { display: flex; flex-wrap: wrap; gap: 16px; }
.charts svg { border: 1px solid #e0e0e0; }
footer { margin-top: 40px; color: #777; font-size: 12px; }
)";

std::string esc(const std::string& text) { return xml_escape(text); }

// The first row is the header; `row_class[i]` (if any) classes body row i.
std::string html_table(const TableRows& rows, const std::vector<std::string>& row_class = {}) {
  std::string out = "<table>\n";
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const char* cell = r == 0 ? "th" : "td";
    const std::string cls = r > 0 && r - 1 < row_class.size() && !row_class[r - 1].empty()
                                ? " class=\"" + row_class[r - 1] + "\""
                                : "";
    out += "<tr" + cls + ">";
    for (const auto& c : rows[r]) out += std::string("<") + cell + ">" + esc(c) + "</" + cell + ">";
    out += "</tr>\n";
  }
  return out + "</table>\n";
}

std::string h2(const std::string& id, const std::string& text) {
  return "<h2 id=\"" + id + "\">" + esc(text) + "</h2>\n";
}

std::string runs_section(const std::vector<ReportRun>& runs) {
  std::vector<const RunContext*> contexts;
  TableRows rows = {{"field"}};
  std::vector<std::string> classes;
  for (const auto& run : runs) {
    contexts.push_back(&run.document.context);
    rows[0].push_back(run.label);
  }
  const auto add = [&](const std::string& field, auto value_of, bool differs) {
    std::vector<std::string> cells = {field};
    for (const auto& run : runs) cells.push_back(value_of(run));
    rows.push_back(std::move(cells));
    classes.emplace_back(differs ? "differs" : "");
  };
  add(
      "status", [](const ReportRun& r) { return std::string(to_string(r.document.summary.status)); }, false);
  add(
      "started", [](const ReportRun& r) { return r.document.context.start_time; }, false);
  add(
      "ended", [](const ReportRun& r) { return r.document.summary.end_time; }, false);
  for (const auto& row : context_table(contexts)) {
    rows.push_back({row.field});
    rows.back().insert(rows.back().end(), row.values.begin(), row.values.end());
    classes.emplace_back(runs.size() > 1 && row.differs ? "differs" : "");
  }
  add(
      "command", [](const ReportRun& r) { return join(r.document.context.argv, " "); }, false);
  std::string out = h2("runs", "Runs");
  for (const auto& run : runs) {
    for (const auto& problem : run_problems(run.document)) {
      out += "<div class=\"warning\">" + esc(run.label + ": " + problem) + "</div>\n";
    }
  }
  if (runs.size() > 1) out += "<p class=\"note\">Highlighted rows differ between runs.</p>\n";
  return out + html_table(rows, classes);
}

std::string figures_section(const std::vector<ReportRun>& runs) {
  const bool with_link = std::any_of(runs.begin(), runs.end(),
                                     [](const ReportRun& r) { return bottleneck_link_gbps(r).has_value(); });
  std::vector<std::string> header = figures_header(with_link);
  header.insert(header.begin(), "run");
  TableRows rows = {header};
  for (const auto& run : runs) {
    for (const auto& f : summary_figures(run.document, FigureOptions{bottleneck_link_gbps(run)})) {
      std::vector<std::string> cells = figures_cells(f, with_link);
      cells.insert(cells.begin(), run.label);
      rows.push_back(std::move(cells));
    }
  }
  return h2("figures", "Summary figures") +
         "<p class=\"note\">Peak busbw and the size where it is reached; busbw at 1 MiB, 32 MiB and 1 GiB (~ marks a "
         "value interpolated between the neighbouring sizes, - a size outside the sweep); the smallest size reaching "
         "half the peak; the time at the smallest size (small-message latency); and nccl-tests' \"Avg bus "
         "bandwidth\", a mean over all sizes that depends on the sweep range, for contrast.</p>\n" +
         html_table(rows);
}

std::string charts_section(const std::vector<ReportRun>& runs) {
  std::string out = h2("charts", "Bandwidth and time over message size");
  out += "<p class=\"note\">One colour per run; solid lines with dots are out-of-place, dashed lines with squares "
         "in-place. Hover a point for its value.</p>\n";
  for (const auto& c : run_charts(runs)) {
    out += "<h3>" + esc(describe(c.group)) + "</h3>\n<div class=\"charts\">\n";
    out += render_svg_chart(c.busbw, false) + render_svg_chart(c.time, false) + "</div>\n";
  }
  return out;
}

std::string ranking_section(const std::vector<ReportRun>& runs, const RankingOptions& options) {
  const Ranking r = rank_runs(runs, options);
  if (runs.size() < 2 && r.stragglers.empty()) return "";
  std::string out = h2("ranking", "Node comparison");
  out += "<p>Score: " + esc(r.score_name()) + ". Runs more than " + esc(percent_text(r.flag_below)) +
         " below the median (" + esc(format_fixed(r.median_gbps, 2)) + " GB/s) are flagged.</p>\n";
  for (const auto& note : r.notes) out += "<p class=\"note\">" + esc(note) + "</p>\n";
  if (runs.size() > 1) {
    TableRows rows = {{"#", "run", "ranks", "hosts", "score GB/s", "vs median", "peak GB/s", "flag"}};
    std::vector<std::string> classes;
    for (const auto& run : r.runs) {
      rows.push_back({run.place > 0 ? format_int(run.place) : "-", run.label, format_int(run.nranks), run.hosts,
                      run.score_gbps ? format_fixed(*run.score_gbps, 2) : "-",
                      run.vs_median ? format_fixed(100 * (*run.vs_median - 1), 1) + "%" : "-",
                      run.figures ? format_fixed(run.figures->peak_busbw_gbps, 2) : "-", run.flagged ? "below" : ""});
      classes.emplace_back(run.flagged ? "flagged" : "");
    }
    out += html_table(rows, classes);
  }
  if (!r.stragglers.empty()) {
    TableRows rows = {{"run", "host", "slowest rank at", "median excess over the rank mean"}};
    for (const auto& s : r.stragglers) {
      rows.push_back({s.run, s.host, format_uint(s.slowest) + " of " + format_uint(s.points) + " points",
                      s.slowest > 0 ? format_fixed(100 * s.median_excess, 1) + "%" : "-"});
    }
    out += "<h3>Slowest rank by host</h3>\n" + html_table(rows);
  }
  return out;
}

std::string topology_section(const std::vector<ReportRun>& runs) {
  std::string out;
  for (const auto& run : runs) {
    for (const auto& t : run.topology) {
      TableRows rows = {{""}};
      rows[0].insert(rows[0].end(), t.labels.begin(), t.labels.end());
      for (std::size_t i = 0; i < t.cells.size(); ++i) {
        rows.push_back({i < t.labels.size() ? t.labels[i] : ""});
        rows.back().insert(rows.back().end(), t.cells[i].begin(), t.cells[i].end());
      }
      out += "<h3>" + esc(run.label + ": " + t.host) + "</h3>\n" + (t.labels.empty() ? "" : html_table(rows));
      if (!t.legend.empty()) out += "<p class=\"note\">" + esc(join(t.legend, "; ")) + "</p>\n";
      if (t.bottleneck_link_gbps) {
        out += "<p>Bottleneck link: " + esc(t.bottleneck_link + ", " + format_fixed(*t.bottleneck_link_gbps, 1)) +
               " GB/s per direction</p>\n";
      }
    }
  }
  return out.empty() ? "" : h2("topology", "Topology") + out;
}

void placement_cells(const Measurement* m, std::vector<std::string>& cells) {
  if (m == nullptr) {
    cells.insert(cells.end(), {"-", "-", "-", "-"});
    return;
  }
  cells.insert(cells.end(), {format_fixed(m->time_us, 2), format_fixed(m->algbw_gbps, 2),
                             format_fixed(m->busbw_gbps, 2), m->checked ? format_uint(m->wrong) : "N/A"});
}

const Measurement* find(const SizeRecord& row, Placement p) {
  for (const auto& m : row.placements) {
    if (m.placement == p) return &m;
  }
  return nullptr;
}

std::string results_section(const std::vector<ReportRun>& runs) {
  std::string out = h2("results", "All results");
  for (const auto& run : runs) {
    TableRows rows = {{"collective", "type", "op", "root", "size", "count", "oop time (us)", "oop algbw", "oop busbw",
                       "oop #wrong", "ip time (us)", "ip algbw", "ip busbw", "ip #wrong", "note"}};
    std::vector<std::string> classes;
    for (const auto& row : run.document.rows) {
      std::vector<std::string> cells = {
          row.collective, row.dtype, row.op, format_int(row.root), size_text(row.size_bytes), format_uint(row.count)};
      placement_cells(find(row, Placement::kOutOfPlace), cells);
      placement_cells(find(row, Placement::kInPlace), cells);
      cells.push_back(row.skipped ? "skipped: " + *row.skipped : "");
      bool wrong = false;
      for (const auto& m : row.placements) wrong = wrong || m.wrong > 0;
      classes.emplace_back(wrong ? "flagged" : "");
      rows.push_back(std::move(cells));
    }
    out += "<details><summary>" + esc(run.label) + ": " + format_uint(run.document.rows.size()) +
           " rows (times in us, bandwidths in GB/s)</summary>\n" + html_table(rows, classes) + "</details>\n";
  }
  return out;
}

}  // namespace

std::string render_html_report(const std::vector<ReportRun>& runs, const HtmlOptions& options) {
  std::vector<std::string> labels;
  labels.reserve(runs.size());
  for (const auto& run : runs) labels.push_back(run.label);
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  out += "<title>" + esc(options.title) + "</title>\n<style>" + kStyle + "</style>\n</head>\n<body>\n";
  out += "<h1>" + esc(options.title) + "</h1>\n<p class=\"note\">" + esc(join(labels, ", ")) + "</p>\n";
  out += charts_section(runs) + figures_section(runs) + ranking_section(runs, options.ranking) + runs_section(runs) +
         topology_section(runs) + results_section(runs);
  out += "<footer>Generated by " + esc(options.generator.empty() ? std::string("collbench") : options.generator) +
         ". Bandwidths are decimal GB/s; busbw follows nccl-tests (doc/PERFORMANCE.md).</footer>\n";
  return out + "</body>\n</html>\n";
}

}  // namespace collbench::report
