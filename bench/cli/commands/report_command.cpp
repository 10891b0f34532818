#include "bench/cli/commands/report_command.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <array>
#include <ostream>

#include "bench/cli/wiring/run_files.hpp"
#include "common/text_table.hpp"
#include "report/analysis/node_ranking.hpp"
#include "report/analysis/summary_figures.hpp"
#include "report/documents/atomic_file.hpp"
#include "report/render/bencher_json.hpp"
#include "report/render/csv_writer.hpp"
#include "report/render/gbench_json.hpp"
#include "report/render/github_benchmark_json.hpp"
#include "report/render/html_report.hpp"
#include "report/render/nccl_tests_json.hpp"
#include "report/render/prometheus_text.hpp"
#include "report/render/ranking_format.hpp"
#include "report/render/run_charts.hpp"

namespace collbench::cli {
namespace {

struct RenderInput {
  const std::vector<report::ReportRun>& runs;
  const RawReportFlags& raw;
  const report::RankingOptions& ranking;
  const std::string& generator;
};

// report's output formats: one row each (docs/architecture.md, "Adding an output format").
struct ReportFormat {
  std::string_view name;
  std::string_view help;
  bool one_run;             // the format holds one run only
  bool to_standard_output;  // without -o the document goes to stdout (else the summary is printed)
  std::string (*render)(const RenderInput&);
};

std::string html_page(const RenderInput& in) {
  return report::render_html_report(in.runs, {in.raw.title, in.ranking, in.generator});
}
std::string gbench_json(const RenderInput& in) { return report::gbench_json_text(in.runs.front().document); }
std::string openmetrics(const RenderInput& in) { return report::prometheus_text(in.runs.front().document); }
std::string nccl_tests_json(const RenderInput& in) { return report::nccl_tests_json_text(in.runs.front().document); }
std::string bencher_json(const RenderInput& in) { return report::bencher_json_text(in.runs.front().document); }
std::string github_busbw(const RenderInput& in) {
  return report::github_benchmark_json_text(in.runs.front().document, report::GithubBenchmarkQuantity::kBusbw);
}
std::string github_time(const RenderInput& in) {
  return report::github_benchmark_json_text(in.runs.front().document, report::GithubBenchmarkQuantity::kTime);
}

constexpr std::array kFormats = {
    ReportFormat{"html", "one self-contained HTML page (with -o; without, a summary on stdout)", false, false,
                 &html_page},
    ReportFormat{"gbench", "Google Benchmark's JSON (one run)", true, true, &gbench_json},
    ReportFormat{"openmetrics",
                 "Prometheus text format 0.0.4 for node_exporter's textfile collector (one run; -o FILE.prom is "
                 "replaced atomically; see docs/health.md)",
                 true, true, &openmetrics},
    ReportFormat{"nccl-tests-json",
                 "nccl-tests' own JSON, as nccl-tests 2.19's -J writes it, for its tools/analyze_perf_json.py "
                 "(one run; docs/reports.md)",
                 true, true, &nccl_tests_json},
    ReportFormat{"bencher",
                 "Bencher Metric Format JSON for bencher run --adapter json: measures busbw and algbw (GB/s) and "
                 "latency (ns) per point (one run; docs/reports.md)",
                 true, true, &bencher_json},
    ReportFormat{"github-action-benchmark",
                 "github-action-benchmark's custom JSON of busbw in GB/s, for tool: customBiggerIsBetter (one run; "
                 "docs/reports.md)",
                 true, true, &github_busbw},
    ReportFormat{"github-action-benchmark-time",
                 "github-action-benchmark's custom JSON of the time in us, for tool: customSmallerIsBetter (one "
                 "run; docs/reports.md)",
                 true, true, &github_time},
};

std::string format_help() {
  std::string text;
  for (const auto& f : kFormats) text += (text.empty() ? "" : "; ") + std::string(f.name) + ": " + std::string(f.help);
  return text;
}

struct Outputs {
  const ReportFormat* format = &kFormats.front();
  bool announce = true;  // "# wrote FILE" lines, unless standard output carries the document
  bool time_chart = false;
  report::RankingOptions ranking;
};

Result<Outputs> resolve(const RawReportFlags& raw) {
  Outputs o;
  const auto it = std::find_if(kFormats.begin(), kFormats.end(), [&](const auto& f) { return f.name == raw.format; });
  if (it == kFormats.end()) {
    std::string names;
    for (const auto& f : kFormats) names += (names.empty() ? "" : ", ") + std::string(f.name);
    return Status::error(ErrorCode::kUsage, "--format: unknown format '" + raw.format + "' (" + names + ")");
  }
  o.format = &*it;
  o.announce = !(o.format->to_standard_output && raw.output.empty());
  if (o.format->one_run && raw.files.size() != 1) {
    return Status::error(ErrorCode::kUsage, "--format " + raw.format + " takes one run file");
  }
  if (raw.chart != "busbw" && raw.chart != "time") {
    return Status::error(ErrorCode::kUsage, "--chart: unknown chart '" + raw.chart + "' (busbw, time)");
  }
  o.time_chart = raw.chart == "time";
  COLLBENCH_ASSIGN_OR_RETURN(o.ranking.flag_below, parse_fraction("--flag-below", raw.flag_below));
  for (const auto& [flag, path] :
       {std::pair{"-o/--output", &raw.output}, std::pair{"--svg", &raw.svg}, std::pair{"--csv", &raw.csv}}) {
    if (!path->empty()) COLLBENCH_RETURN_IF_ERROR(check_not_an_input(flag, *path, raw.files));
  }
  return o;
}

Status write(const std::string& path, const std::string& text, const Outputs& o, std::ostream& out) {
  COLLBENCH_RETURN_IF_ERROR(report::write_file_atomically(path, text));
  if (o.announce) out << "# wrote " << path << "\n";
  return ok_status();
}

std::string figures_text(const std::vector<report::ReportRun>& runs) {
  std::vector<std::pair<std::string, report::SeriesFigures>> all;
  std::vector<report::SeriesFigures> figures;
  for (const auto& run : runs) {
    for (auto& f : report::summary_figures(run.document, {report::bottleneck_link_gbps(run)})) {
      figures.push_back(f);
      all.emplace_back(run.label, std::move(f));
    }
  }
  const bool with_link = report::any_percent_of_link(figures);
  std::vector<std::string> header = report::figures_header(with_link);
  header.insert(header.begin(), "run");
  TableRows rows = {header};
  for (const auto& [label, f] : all) {
    std::vector<std::string> cells = report::figures_cells(f, with_link);
    cells.insert(cells.begin(), label);
    rows.push_back(std::move(cells));
  }
  return render_text_table(rows);
}

Status print_summary(const std::vector<report::ReportRun>& runs, const Outputs& o, std::ostream& out) {
  out << "Summary figures (busbw in GB/s; ~ interpolated; see docs/reports.md)\n" << figures_text(runs);
  const report::Ranking ranking = report::rank_runs(runs, o.ranking);
  if (runs.size() > 1 || !ranking.stragglers.empty())
    out << "\n" << report::format_ranking(ranking, report::TextFormat::kText);
  out.flush();
  if (!out) return Status::error(ErrorCode::kIo, "could not write to standard output");
  return ok_status();
}

Status write_svg(const RawReportFlags& raw, const Outputs& o, const std::vector<report::ReportRun>& runs,
                 std::ostream& out) {
  const auto charts = report::run_charts(runs);
  const report::ChartSpec& spec = o.time_chart ? charts.front().time : charts.front().busbw;
  return write(raw.svg, report::render_svg_chart(spec, true), o, out);
}

}  // namespace

void add_report_flags(CLI::App& app, RawReportFlags& raw) {
  app.add_option("file", raw.files, "Run files written by collbench run -J (one per run or node)")->required();
  app.add_option("-o,--output", raw.output,
                 "Write the report here: HTML, or the document --format names (gbench, openmetrics, "
                 "nccl-tests-json, bencher, github-action-benchmark[-time]); an existing file is replaced, "
                 "atomically");
  app.add_option("--format", raw.format, format_help())->capture_default_str();
  app.add_option("--svg", raw.svg, "Also write one chart as a standalone SVG file (see --chart)");
  app.add_option("--chart", raw.chart, "The chart --svg writes: busbw or time, of the first collective")
      ->capture_default_str();
  app.add_option("--csv", raw.csv, "Also write every result row as CSV (RFC 4180)");
  app.add_option("--title", raw.title, "Title of the HTML page")->capture_default_str();
  app.add_option("--flag-below", raw.flag_below, "Node comparison: flag runs this far below the median")
      ->capture_default_str();
}

Status report_command(const RawReportFlags& raw, const std::string& generator, std::ostream& out) {
  COLLBENCH_ASSIGN_OR_RETURN(const Outputs o, resolve(raw));
  COLLBENCH_ASSIGN_OR_RETURN(const std::vector<report::ReportRun> runs, load_runs(raw.files));
  const RenderInput input{runs, raw, o.ranking, generator};
  if (!raw.output.empty()) {
    COLLBENCH_RETURN_IF_ERROR(write(raw.output, o.format->render(input), o, out));
  } else if (o.format->to_standard_output) {
    out << o.format->render(input) << std::flush;
  }
  if (!raw.svg.empty()) COLLBENCH_RETURN_IF_ERROR(write_svg(raw, o, runs, out));
  if (!raw.csv.empty()) COLLBENCH_RETURN_IF_ERROR(write(raw.csv, report::runs_csv(runs), o, out));
  if (raw.output.empty() && raw.svg.empty() && raw.csv.empty() && !o.format->to_standard_output) {
    return print_summary(runs, o, out);
  }
  return ok_status();
}

}  // namespace collbench::cli
