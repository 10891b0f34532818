#include "bench/cli/commands/compare_command.hpp"

#include <CLI/CLI.hpp>

#include <limits>
#include <ostream>

#include "bench/cli/wiring/run_files.hpp"
#include "common/units.hpp"
#include "report/analysis/node_ranking.hpp"
#include "report/documents/atomic_file.hpp"
#include "report/render/compare_format.hpp"
#include "report/render/ranking_format.hpp"

namespace collbench::cli {
namespace {

struct CompareCommand {
  report::CompareOptions options;
  report::RankingOptions ranking;
  report::TextFormat format = report::TextFormat::kText;
};

Result<std::uint64_t> size_flag(const std::string& flag, const std::string& text, std::uint64_t fallback) {
  if (text.empty()) return fallback;
  auto size = parse_size(text);
  if (!size.ok()) return Status::error(ErrorCode::kUsage, flag + ": " + size.status().message());
  return size;
}

Result<CompareCommand> resolve(const RawCompareFlags& raw) {
  CompareCommand cmd;
  if (!raw.nodes && raw.files.size() != 2) {
    return Status::error(ErrorCode::kUsage, "compare takes two files, BASE.json NEW.json (or --nodes and two or more)");
  }
  if (raw.nodes && raw.files.size() < 2)
    return Status::error(ErrorCode::kUsage, "compare --nodes takes two or more files");
  COLLBENCH_ASSIGN_OR_RETURN(cmd.options.min_size, size_flag("--min-size", raw.min_size, 0));
  COLLBENCH_ASSIGN_OR_RETURN(cmd.options.max_size,
                             size_flag("--max-size", raw.max_size, std::numeric_limits<std::uint64_t>::max()));
  if (cmd.options.min_size > cmd.options.max_size) {
    return Status::error(ErrorCode::kUsage,
                         "--min-size " + raw.min_size + " is larger than --max-size " + raw.max_size);
  }
  COLLBENCH_ASSIGN_OR_RETURN(cmd.options.threshold, parse_fraction("--threshold", raw.threshold));
  COLLBENCH_ASSIGN_OR_RETURN(cmd.ranking.flag_below, parse_fraction("--flag-below", raw.flag_below));
  auto format = report::parse_text_format(raw.format);
  if (!format.ok()) return Status::error(ErrorCode::kUsage, "--format: " + format.status().message());
  cmd.format = *format;
  if (!raw.output.empty()) COLLBENCH_RETURN_IF_ERROR(check_not_an_input("-o/--output", raw.output, raw.files));
  return cmd;
}

Status emit(const std::string& text, const RawCompareFlags& raw, std::ostream& out) {
  if (raw.output.empty()) {
    out << text << std::flush;
    if (!out) return Status::error(ErrorCode::kIo, "could not write to standard output");
    return ok_status();
  }
  return report::write_file_atomically(raw.output, text);
}

Status compare_pair(const CompareCommand& cmd, const std::vector<report::ReportRun>& runs, const RawCompareFlags& raw,
                    std::ostream& out) {
  const report::Comparison c = report::compare_runs(runs[0], runs[1], cmd.options);
  COLLBENCH_RETURN_IF_ERROR(emit(report::format_comparison(c, cmd.format), raw, out));
  if (c.points.empty()) {
    return Status::error(ErrorCode::kUsage, raw.files[0] + " and " + raw.files[1] +
                                                " have no (collective, dtype, op, placement, size) in common" +
                                                (c.outside_size_range > 0 ? " within the size range" : ""));
  }
  if (!c.regressed()) return ok_status();
  return Status::error(ErrorCode::kRegression, std::to_string(c.counts.slower) + " of " +
                                                   std::to_string(c.points.size()) + " points of " + raw.files[1] +
                                                   " are slower than " + raw.files[0] + " beyond noise and the " +
                                                   report::percent_text(cmd.options.threshold) + " threshold");
}

Status compare_nodes(const CompareCommand& cmd, const std::vector<report::ReportRun>& runs, const RawCompareFlags& raw,
                     std::ostream& out) {
  const report::Ranking r = report::rank_runs(runs, cmd.ranking);
  COLLBENCH_RETURN_IF_ERROR(emit(report::format_ranking(r, cmd.format), raw, out));
  if (!r.basis)
    return Status::error(ErrorCode::kUsage, "the runs share no (collective, dtype, op, placement) to rank on");
  if (r.flagged() == 0) return ok_status();
  std::string names;
  for (const auto& run : r.runs) {
    if (run.flagged) names += (names.empty() ? "" : ", ") + run.label;
  }
  return Status::error(ErrorCode::kRegression, std::to_string(r.flagged()) + " of " + std::to_string(r.runs.size()) +
                                                   " runs more than " + report::percent_text(cmd.ranking.flag_below) +
                                                   " below the median: " + names);
}

}  // namespace

void add_compare_flags(CLI::App& app, RawCompareFlags& raw) {
  app.add_option("file", raw.files,
                 "BASE.json NEW.json (run files written by collbench run -J); with --nodes, "
                 "one file per node")
      ->required();
  app.add_flag("--nodes", raw.nodes, "Rank the runs (one per node) by busbw and flag those well below the median");
  app.add_option("--min-size", raw.min_size, "Compare only sizes at least this large (1M; K/M/G are binary)");
  app.add_option("--max-size", raw.max_size, "Compare only sizes at most this large");
  app.add_option("--threshold", raw.threshold, "Smallest busbw change that counts, beyond noise: 5% or 0.05")
      ->capture_default_str();
  app.add_option("--flag-below", raw.flag_below, "--nodes: flag runs this far below the median score")
      ->capture_default_str();
  app.add_option("--format", raw.format, "text, markdown or json")->capture_default_str();
  app.add_option("-o,--output", raw.output, "Write the comparison to this file instead of standard output");
}

Status compare_command(const RawCompareFlags& raw, std::ostream& out) {
  COLLBENCH_ASSIGN_OR_RETURN(const CompareCommand cmd, resolve(raw));
  COLLBENCH_ASSIGN_OR_RETURN(const std::vector<report::ReportRun> runs, load_runs(raw.files));
  return raw.nodes ? compare_nodes(cmd, runs, raw, out) : compare_pair(cmd, runs, raw, out);
}

}  // namespace collbench::cli
