#include "report/render/history_json.hpp"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "report/analysis/series.hpp"
#include "report/format/number_format.hpp"
#include "report/render/csv_writer.hpp"

namespace collbench::report {
namespace {

using Json = nlohmann::ordered_json;

Json number(double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); }

Json key_json(const HistoryKey& k) {
  return {{"collective", k.collective},
          {"dtype", k.dtype},
          {"op", k.op},
          {"root", k.root},
          {"size_bytes", k.size_bytes},
          {"placement", to_string(k.placement)},
          {"ranks", k.ranks},
          {"fingerprint", k.fingerprint}};
}

Json verdict_json(const NewestVerdict& v, const HistorySeries& s) {
  if (!v.judged) return {{"judged", false}, {"stale", v.stale}};
  return {{"judged", true},
          {"newest_gbps", number(v.newest_gbps)},
          {"baseline_median_gbps", number(v.baseline_median_gbps)},
          {"noise_gbps", number(v.noise_gbps)},
          {"baseline_first_index", v.baseline_first},
          {"baseline_runs", v.baseline_end - v.baseline_first},
          {"change_percent", number(v.change_percent)},
          {"regressed", v.regressed},
          {"series_runs", s.points.size()}};
}

Json series_json(const History& h, const HistorySeries& s) {
  Json j = key_json(s.key);
  j["key"] = describe(s.key);
  Json cps = Json::array();
  for (const auto& c : s.change_points) {
    const HistoryRun& run = h.runs[s.points[c.index].run];
    Json context = Json::array();
    for (const ContextChange* x : context_changes_at(h, s, c.index)) {
      for (const auto& d : x->differences)
        context.push_back({{"field", d.field}, {"before", d.base}, {"after", d.current}});
    }
    cps.push_back({{"index", c.index},
                   {"path", run.path},
                   {"time", run.time},
                   {"before_gbps", number(c.before_gbps)},
                   {"after_gbps", number(c.after_gbps)},
                   {"change_percent", number(c.change_percent)},
                   {"p_value", number(c.p_value)},
                   {"context_changes", std::move(context)}});
  }
  j["change_points"] = std::move(cps);
  j["verdict"] = verdict_json(s.verdict, s);
  j["regressed"] = s.verdict.regressed;
  return j;
}

// A run's path and time as JSON strings, escaped once: every series repeats them.
struct RunText {
  std::string path;
  std::string time;
};

std::vector<RunText> run_texts(const History& h) {
  std::vector<RunText> out;
  out.reserve(h.runs.size());
  for (const auto& r : h.runs) {
    out.push_back({Json(r.path).dump(-1, ' ', false, Json::error_handler_t::replace),
                   Json(r.time).dump(-1, ' ', false, Json::error_handler_t::replace)});
  }
  return out;
}

// The series' object with its points appended as text: a long history has millions of points,
// and a DOM object per point would cost more than everything else the command does.
void append_series(const History& h, const HistorySeries& s, const std::vector<RunText>& runs, std::string& out) {
  std::string head = series_json(h, s).dump(-1, ' ', false, Json::error_handler_t::replace);
  head.pop_back();  // the closing brace: the points follow
  out += head + ", \"points\": [";
  for (std::size_t i = 0; i < s.points.size(); ++i) {
    const HistoryPoint& p = s.points[i];
    out += (i == 0 ? "\n" : ",\n") + std::string("    {\"path\": ") + runs[p.run].path +
           ", \"time\": " + runs[p.run].time +
           ", \"busbw_gbps\": " + (std::isfinite(p.busbw_gbps) ? format_shortest(p.busbw_gbps) : std::string("null")) +
           "}";
  }
  out += "]}";
}

Json context_changes_json(const History& h) {
  Json out = Json::array();
  for (const auto& c : h.context_changes) {
    Json changes = Json::array();
    for (const auto& d : c.differences)
      changes.push_back({{"field", d.field}, {"before", d.base}, {"after", d.current}});
    out.push_back({{"fingerprint", c.fingerprint},
                   {"path", h.runs[c.run].path},
                   {"time", h.runs[c.run].time},
                   {"previous_path", h.runs[c.previous_run].path},
                   {"previous_time", h.runs[c.previous_run].time},
                   {"changes", std::move(changes)}});
  }
  return out;
}

Json method_json(const HistoryOptions& o) {
  return {{"change_points", "e-divisive means"}, {"permutations", o.change_points.permutations},
          {"alpha", o.change_points.alpha},      {"min_segment", o.change_points.min_segment},
          {"seed", o.change_points.seed},        {"noise_mads", o.noise_mads},
          {"noise_floor", o.noise_floor},        {"min_baseline", o.min_baseline}};
}

std::string csv_row(const std::vector<std::string>& fields) {
  std::string line;
  for (const auto& f : fields) line += (line.empty() ? "" : ",") + csv_field(f);
  return line + "\r\n";
}

// Each point's segment median, one sort per segment.
std::vector<double> segment_medians(const HistorySeries& s, const std::vector<double>& values) {
  std::vector<double> out(values.size(), 0);
  std::size_t first = 0;
  for (std::size_t k = 0; k <= s.change_points.size(); ++k) {
    const std::size_t end = k < s.change_points.size() ? s.change_points[k].index : values.size();
    const double median = median_of(values, first, end);
    for (std::size_t i = first; i < end; ++i) out[i] = median;
    first = end;
  }
  return out;
}

}  // namespace

std::string history_json(const History& h, const HistoryInputCounts& counts, const HistoryOptions& options) {
  const Json head = {{"schema", kHistorySchemaName},
                     {"schema_version", kHistorySchemaVersion},
                     {"runs", h.runs.size()},
                     {"files", counts.files},
                     {"skipped_files", counts.skipped},
                     {"method", method_json(options)},
                     {"regressed", h.regressed_count() > 0},
                     {"regressed_series", h.regressed_count()}};
  std::string out = head.dump(2, ' ', false, Json::error_handler_t::replace);
  out.pop_back();  // "\n}": the series and the context changes follow
  out.pop_back();
  out += ",\n  \"series\": [";
  const std::vector<RunText> runs = run_texts(h);
  for (std::size_t i = 0; i < h.series.size(); ++i) {
    out += i == 0 ? "\n  " : ",\n  ";
    append_series(h, h.series[i], runs, out);
  }
  out += "],\n  \"context_changes\": " + context_changes_json(h).dump(-1, ' ', false, Json::error_handler_t::replace) +
         "\n}\n";
  return out;
}

std::string history_csv(const History& h) {
  std::string out = csv_row({"fingerprint", "collective", "dtype", "op", "root", "size_bytes", "placement", "ranks",
                             "index", "path", "time", "busbw_gbps", "change_point", "segment_median_gbps",
                             "regressed"});
  for (const auto& s : h.series) {
    std::vector<double> values;
    for (const auto& p : s.points) values.push_back(p.busbw_gbps);
    const std::vector<double> medians = segment_medians(s, values);
    for (std::size_t i = 0; i < s.points.size(); ++i) {
      const bool starts = std::any_of(s.change_points.begin(), s.change_points.end(),
                                      [&](const HistoryChangePoint& c) { return c.index == i; });
      const bool newest = i + 1 == s.points.size();
      const HistoryRun& run = h.runs[s.points[i].run];
      out += csv_row({s.key.fingerprint, s.key.collective, s.key.dtype, s.key.op, format_int(s.key.root),
                      format_uint(s.key.size_bytes), to_string(s.key.placement), format_int(s.key.ranks),
                      format_uint(i), run.path, run.time, format_shortest(values[i]), starts ? "1" : "0",
                      format_shortest(medians[i]), newest ? (s.verdict.regressed ? "1" : "0") : ""});
    }
  }
  return out;
}

}  // namespace collbench::report
