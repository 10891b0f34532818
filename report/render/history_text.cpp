#include "report/render/history_text.hpp"

#include <cmath>
#include <map>
#include <vector>

#include "common/text_table.hpp"
#include "report/format/number_format.hpp"

namespace collbench::report {
namespace {

std::string gbps(double v) { return format_fixed(v, v < 10 ? 3 : (v < 100 ? 2 : 1)); }

std::string verdict_word(const NewestVerdict& v) {
  if (v.stale) return "n/a (not in the newest run)";
  if (!v.judged) return "n/a (short history)";
  return v.regressed ? "REGRESSED" : "ok";
}

std::vector<std::string> series_row(const HistorySeries& s) {
  const NewestVerdict& v = s.verdict;
  const std::string newest = s.points.empty() ? "-" : gbps(s.points.back().busbw_gbps);
  return {describe(s.key),
          format_uint(s.points.size()),
          newest,
          v.judged ? gbps(v.baseline_median_gbps) + " +- " + gbps(v.noise_gbps) : "-",
          v.judged ? signed_percent(v.change_percent) : "-",
          format_uint(s.change_points.size()),
          verdict_word(v)};
}

std::string series_tables(const History& h) {
  std::map<std::string, TableRows> by_system;
  for (const auto& s : h.series) {
    TableRows& rows = by_system[s.key.fingerprint];
    if (rows.empty()) {
      rows.push_back({"series", "runs", "newest GB/s", "baseline GB/s", "change", "change points", "verdict"});
    }
    rows.push_back(series_row(s));
  }
  std::string out;
  const std::vector<Align> align = {Align::kLeft,  Align::kRight, Align::kRight, Align::kRight,
                                    Align::kRight, Align::kRight, Align::kLeft};
  for (const auto& [system, rows] : by_system) {
    out += "\nSystem: " + system + "\n" + render_text_table(rows, align);
  }
  return out;
}

std::string differences_text(const ContextChange& c) {
  std::string out;
  for (const auto& d : c.differences) {
    out += (out.empty() ? "" : "; ") + d.field + ": " + d.base + " -> " + d.current;
  }
  return out;
}

std::string run_text(const History& h, std::size_t run) { return h.runs[run].time + " " + h.runs[run].path; }

std::string change_points_text(const History& h) {
  std::string out;
  for (const auto& s : h.series) {
    for (const auto& c : s.change_points) {
      out += "  " + describe(s.key) + ": run " + format_uint(c.index + 1) + " of " + format_uint(s.points.size()) +
             " (" + run_text(h, s.points[c.index].run) + "): " + gbps(c.before_gbps) + " -> " + gbps(c.after_gbps) +
             " GB/s (" + signed_percent(c.change_percent) + "), p = " + format_fixed(c.p_value, 3) + "\n";
      for (const ContextChange* x : context_changes_at(h, s, c.index)) {
        out += "      context: " + differences_text(*x) + "\n";
      }
    }
  }
  return out.empty() ? "\nChange points: none\n" : "\nChange points:\n" + out;
}

std::string context_changes_text(const History& h) {
  std::string out;
  for (const auto& c : h.context_changes) {
    out += "  " + run_text(h, c.run) + ": " + differences_text(c) + "\n";
  }
  return out.empty() ? "\nContext changes: none\n" : "\nContext changes:\n" + out;
}

}  // namespace

std::string signed_percent(double percent) {
  if (std::fabs(percent) < 0.05) return "+0.0%";  // not "-0.0%"
  return (percent > 0 ? "+" : "") + format_fixed(percent, 1) + "%";
}

std::string regression_summary(const History& h) {
  std::string names;
  std::size_t named = 0;
  for (const auto& s : h.series) {
    if (!s.verdict.regressed) continue;
    if (named++ == 3) {
      names += ", ...";
      break;
    }
    names += (names.empty() ? "" : ", ") + describe(s.key) + " (" + signed_percent(s.verdict.change_percent) + ")";
  }
  return format_uint(h.regressed_count()) + " of " + format_uint(h.series.size()) +
         " series regressed (the newest run below its baseline beyond noise): " + names;
}

std::string format_history_text(const History& h, const HistoryInputCounts& counts, const HistoryOptions& options) {
  std::map<std::string, int> systems;
  for (const auto& r : h.runs) ++systems[r.fingerprint];
  std::string out = "# collbench history: " + format_uint(h.runs.size()) + " runs, " + format_uint(h.series.size()) +
                    " series, " + format_uint(systems.size()) + (systems.size() == 1 ? " system" : " systems");
  if (counts.skipped > 0) {
    out += "; skipped " + format_uint(counts.skipped) +
           (counts.skipped == 1 ? " file that is not a run document" : " files that are not run documents");
  }
  out += "\n# Rule: the newest run regressed when its busbw is below its baseline's median by more than max(" +
         format_general(options.noise_mads) + " x 1.4826 x MAD, " + format_general(options.noise_floor * 100) +
         "% of the median); change points: E-Divisive means, " + format_int(options.change_points.permutations) +
         " permutations, alpha " + format_general(options.change_points.alpha) + ", segments of at least " +
         format_uint(options.change_points.min_segment) + " runs\n";
  out += series_tables(h) + change_points_text(h) + context_changes_text(h);
  const std::size_t regressed = h.regressed_count();
  out += "\n" + (regressed > 0 ? "REGRESSION: " + regression_summary(h) : std::string("OK: no series regressed")) +
         "\n";
  return out;
}

}  // namespace collbench::report
