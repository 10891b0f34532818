#include "report/analysis/history.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <utility>

#include "common/parallel_for.hpp"
#include "common/strings.hpp"
#include "report/analysis/series.hpp"
#include "report/format/number_format.hpp"
#include "report/format/size_label.hpp"

namespace collbench::report {
namespace {

using Fields = std::vector<std::pair<std::string, std::string>>;

// The flags that change figures but that compare's context table does not list.
Fields history_fields(const RunContext& c) {
  const RunConfig& k = c.config;
  Fields f = {{"-g (GPUs per process)", format_int(k.gpus_per_process)},
              {"-m (aggregation)", format_uint(k.aggregation)},
              {"-G (graph launches)", format_uint(k.graph_launches)},
              {"-R (registration)", format_int(k.buffer_registration)},
              {"run cycles (-N)", format_uint(k.run_cycles)},
              {"malloc keep", k.malloc_keep ? "on" : "off"},
              {"buffers", k.buffers ? to_string(k.buffers->policy) : "-"},
              {"target spread", k.precision ? format_general(k.precision->target_spread) : "-"}};
  // "NCCL 2.28.9 (headers 2.28.9), CUDA runtime 13.0, driver 13.0": one field per part, so that
  // a driver update reads "driver 12.8 -> 13.0" rather than two long strings.
  const auto parts = split(c.backend_library, ',');
  for (std::size_t i = 0; i < parts.size(); ++i) {
    f.emplace_back("backend library " + std::to_string(i + 1), std::string(trim(parts[i])));
  }
  return f;
}

const std::string* find_field(const Fields& fields, const std::string& name) {
  for (const auto& entry : fields) {
    if (entry.first == name) return &entry.second;
  }
  return nullptr;
}

void add_differences(const Fields& a, const Fields& b, std::vector<ContextDifference>& out) {
  for (const auto& [field, before] : a) {
    const std::string* after = find_field(b, field);
    if (after == nullptr || *after != before) out.push_back({field, before, after != nullptr ? *after : "-"});
  }
  for (const auto& [field, after] : b) {
    if (find_field(a, field) == nullptr) out.push_back({field, "-", after});
  }
}

// The library's parts keep one name: a change of the first part is "backend library", of a part
// that starts with a word ("driver 13.0") that word is the field.
void name_library_parts(std::vector<ContextDifference>& diffs) {
  for (auto& d : diffs) {
    if (!starts_with(d.field, "backend library ")) continue;
    d.field = "backend library";
  }
}

double percent(double before, double after) { return before > 0 ? (after - before) / before * 100 : 0; }

using Grouped = std::map<HistoryKey, std::vector<HistoryPoint>>;

// One point per (key, run): the median of a run's repeated measurements of the key.
void add_run_points(const RunDigest& run, std::size_t run_index, const std::string& fingerprint, Grouped& grouped) {
  std::map<HistoryKey, std::vector<double>> values;
  for (const auto& p : run.points) {
    if (p.wrong > 0 || !std::isfinite(p.busbw_gbps)) continue;
    HistoryKey key{fingerprint, p.collective, p.dtype, p.op, p.root, p.size_bytes, p.placement, run.context.nranks};
    values[std::move(key)].push_back(p.busbw_gbps);
  }
  for (auto& [key, v] : values) {
    std::sort(v.begin(), v.end());
    grouped[key].push_back({run_index, v[(v.size() - 1) / 2]});
  }
}

std::vector<ContextChange> find_context_changes(const std::vector<RunDigest>& runs, const History& h) {
  std::vector<ContextChange> changes;
  std::map<std::string, std::size_t> last_of_system;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const std::string& fp = h.runs[i].fingerprint;
    auto last = last_of_system.find(fp);
    if (last != last_of_system.end()) {
      auto diffs = history_context_differences(runs[last->second].context, runs[i].context);
      if (!diffs.empty()) changes.push_back({fp, i, last->second, std::move(diffs)});
    }
    last_of_system[fp] = i;
  }
  return changes;
}

HistorySeries analyse_series(const HistoryKey& key, std::vector<HistoryPoint> points, const HistoryOptions& options) {
  HistorySeries s{key, std::move(points), {}, {}};
  std::vector<double> values;
  values.reserve(s.points.size());
  for (const auto& p : s.points) values.push_back(p.busbw_gbps);
  const auto found = find_change_points(values, options.change_points);
  std::vector<std::size_t> indices;
  for (std::size_t k = 0; k < found.size(); ++k) {
    const std::size_t first = k == 0 ? 0 : found[k - 1].index;
    const std::size_t end = k + 1 < found.size() ? found[k + 1].index : values.size();
    const double before = median_of(values, first, found[k].index);
    const double after = median_of(values, found[k].index, end);
    s.change_points.push_back({found[k].index, before, after, percent(before, after), found[k].p_value});
    indices.push_back(found[k].index);
  }
  s.verdict = judge_newest(values, indices, options);
  return s;
}

}  // namespace

double median_of(const std::vector<double>& values, std::size_t first, std::size_t end) {
  if (end <= first) return 0;
  std::vector<double> v(values.begin() + static_cast<std::ptrdiff_t>(first),
                        values.begin() + static_cast<std::ptrdiff_t>(end));
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::string fingerprint_of(const RunContext& context) {
  std::map<std::string, std::size_t> models;
  for (const auto& r : context.ranks) {
    // On host memory the "device name" is the rank's CPU set, which binding changes: not hardware.
    const std::string name = context.memory == "host" ? "cpu" : (r.device_name.empty() ? r.device : r.device_name);
    ++models[name];
  }
  std::vector<std::string> parts;
  parts.reserve(models.size());
  for (const auto& [name, n] : models) parts.push_back(format_uint(n) + "x " + name);
  const std::size_t hosts = context.hosts.size();
  return format_uint(hosts) + (hosts == 1 ? " host, " : " hosts, ") + (parts.empty() ? "-" : join(parts, ", "));
}

std::string describe(const HistoryKey& key) {
  const GroupKey group{key.collective, key.dtype, key.op, key.root};
  return describe(group) + " " + short_size(key.size_bytes) + " " + placement_words(key.placement) + ", " +
         format_int(key.ranks) + (key.ranks == 1 ? " rank" : " ranks");
}

std::vector<ContextDifference> history_context_differences(const RunContext& before, const RunContext& after) {
  std::vector<ContextDifference> diffs = context_differences(before, after);
  // compare's "backend" row is the name with the whole library string: the parts below say it
  // shorter, so the row stays only for the name.
  std::erase_if(diffs, [](const ContextDifference& d) { return d.field == "backend"; });
  if (before.backend != after.backend) diffs.push_back({"backend", before.backend, after.backend});
  add_differences(history_fields(before), history_fields(after), diffs);
  name_library_parts(diffs);
  return diffs;
}

NewestVerdict judge_newest(const std::vector<double>& values, const std::vector<std::size_t>& change_indices,
                           const HistoryOptions& options) {
  NewestVerdict v;
  if (values.empty()) return v;
  const std::size_t newest = values.size() - 1;
  v.newest_gbps = values[newest];
  // The segment holding the newest point, the newest excluded; when that is the newest alone
  // (a change point at the newest) or too short, the segment before it.
  std::vector<std::size_t> starts = {0};
  for (std::size_t c : change_indices) {
    if (c > 0 && c <= newest) starts.push_back(c);
  }
  std::size_t first = starts.back();
  std::size_t end = newest;
  if (end - first < options.min_baseline && starts.size() > 1) {
    end = first;
    first = starts[starts.size() - 2];
  }
  if (end - first < options.min_baseline) return v;
  const double median = median_of(values, first, end);
  std::vector<double> deviations;
  for (std::size_t i = first; i < end; ++i) deviations.push_back(std::fabs(values[i] - median));
  const double mad = median_of(deviations, 0, deviations.size());
  v.judged = true;
  v.baseline_first = first;
  v.baseline_end = end;
  v.baseline_median_gbps = median;
  v.noise_gbps = std::max(options.noise_mads * 1.4826 * mad, options.noise_floor * median);
  v.change_percent = percent(median, v.newest_gbps);
  v.regressed = v.newest_gbps < median - v.noise_gbps;
  return v;
}

std::size_t History::regressed_count() const {
  return static_cast<std::size_t>(
      std::count_if(series.begin(), series.end(), [](const HistorySeries& s) { return s.verdict.regressed; }));
}

History build_history(std::vector<RunDigest> runs, const HistoryOptions& options) {
  std::sort(runs.begin(), runs.end(), [](const RunDigest& a, const RunDigest& b) {
    return std::tie(a.context.start_time, a.path) < std::tie(b.context.start_time, b.path);
  });
  History h;
  Grouped grouped;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    h.runs.push_back({runs[i].path, runs[i].context.start_time, fingerprint_of(runs[i].context)});
    add_run_points(runs[i], i, h.runs.back().fingerprint, grouped);
    runs[i].points = {};  // the figures are grouped now; thousands of runs need not hold them twice
  }
  h.context_changes = find_context_changes(runs, h);
  std::vector<std::pair<const HistoryKey*, std::vector<HistoryPoint>*>> work;
  for (auto& [key, points] : grouped) work.emplace_back(&key, &points);
  h.series.resize(work.size());
  // Series are independent: a long history's permutation tests share the machine's cores.
  parallel_for(work.size(), [&](std::size_t i) {
    h.series[i] = analyse_series(*work[i].first, std::move(*work[i].second), options);
  });
  // A series the system's newest run did not measure (a size dropped from the sweep) ended in
  // the past: its last point is not tonight's, and judging it would flag an old night forever.
  std::map<std::string, std::size_t> newest_of_system;
  for (std::size_t i = 0; i < h.runs.size(); ++i) newest_of_system[h.runs[i].fingerprint] = i;
  for (auto& s : h.series) {
    if (s.points.empty() || s.points.back().run == newest_of_system[s.key.fingerprint]) continue;
    s.verdict = NewestVerdict{};
    s.verdict.newest_gbps = s.points.back().busbw_gbps;
    s.verdict.stale = true;
  }
  return h;
}

std::vector<const ContextChange*> context_changes_at(const History& history, const HistorySeries& series,
                                                     std::size_t index) {
  std::vector<const ContextChange*> out;
  if (index >= series.points.size()) return out;
  const std::size_t run = series.points[index].run;
  const std::size_t after = index == 0 ? 0 : series.points[index - 1].run + 1;
  for (const auto& c : history.context_changes) {
    if (c.fingerprint == series.key.fingerprint && c.run >= after && c.run <= run && index > 0) out.push_back(&c);
  }
  return out;
}

}  // namespace collbench::report
