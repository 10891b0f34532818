#include "report/analysis/compare.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <utility>

#include "common/strings.hpp"
#include "report/documents/context_fields.hpp"
#include "report/format/number_format.hpp"

namespace collbench::report {
namespace {

bool positive(double v) { return std::isfinite(v) && v > 0; }

ComparedSide side_of(const Measurement& m) {
  ComparedSide s;
  s.busbw_gbps = m.busbw_gbps;
  s.time_us = m.time_us;
  s.wrong = m.wrong;
  s.spread = spread_of(m);
  s.band_low_gbps = m.busbw_gbps * s.spread.low;
  s.band_high_gbps = m.busbw_gbps * s.spread.high;
  return s;
}

std::optional<double> ratio_of(const ComparedSide& base, const ComparedSide& current) {
  if (positive(base.busbw_gbps) && positive(current.busbw_gbps)) return current.busbw_gbps / base.busbw_gbps;
  if (positive(base.time_us) && positive(current.time_us)) return base.time_us / current.time_us;
  return std::nullopt;
}

bool in_range(std::uint64_t size, const CompareOptions& o) { return size >= o.min_size && size <= o.max_size; }

// Sizes skipped on one side, by group, with the reason.
using SkipMap = std::map<std::pair<GroupKey, std::uint64_t>, std::string>;

SkipMap skip_map(const RunSeries& run) {
  SkipMap out;
  for (const auto& s : run.skipped) out.emplace(std::make_pair(s.group, s.size_bytes), s.reason);
  return out;
}

std::string state(const Series* series, std::uint64_t size, const SkipMap& skipped, const GroupKey& group) {
  if (series != nullptr) {
    for (const auto& p : series->points) {
      if (p.size_bytes == size) return "measured";
    }
  }
  const auto it = skipped.find({group, size});
  return it == skipped.end() ? "missing" : "skipped: " + it->second;
}

const SeriesPoint* point_at(const Series* series, std::uint64_t size) {
  if (series == nullptr) return nullptr;
  for (const auto& p : series->points) {
    if (p.size_bytes == size) return &p;
  }
  return nullptr;
}

std::vector<SeriesKey> all_keys(const RunSeries& base, const RunSeries& current) {
  std::vector<SeriesKey> keys;
  for (const auto& s : base.series) keys.push_back(s.key);
  for (const auto& s : current.series) {
    if (find_series(base, s.key) == nullptr) keys.push_back(s.key);
  }
  return keys;
}

std::set<std::uint64_t> sizes_of(const Series* a, const Series* b) {
  std::set<std::uint64_t> sizes;
  for (const Series* s : {a, b}) {
    if (s == nullptr) continue;
    for (const auto& p : s->points) sizes.insert(p.size_bytes);
  }
  return sizes;
}

void count(Comparison& c, const ComparedPoint& p) {
  switch (p.verdict) {
    case Verdict::kFaster: ++c.counts.faster; break;
    case Verdict::kSame: ++c.counts.same; break;
    case Verdict::kSlower: ++c.counts.slower; break;
    case Verdict::kUnknown: ++c.counts.unknown; break;
  }
  if (p.within_noise) ++c.counts.within_noise;
}

void compare_series(Comparison& c, const SeriesKey& key, const RunSeries& base, const RunSeries& current,
                    const SkipMap& base_skips, const SkipMap& current_skips) {
  const Series* b = find_series(base, key);
  const Series* n = find_series(current, key);
  for (std::uint64_t size : sizes_of(b, n)) {
    if (!in_range(size, c.options)) {
      ++c.outside_size_range;
      continue;
    }
    const SeriesPoint* bp = point_at(b, size);
    const SeriesPoint* np = point_at(n, size);
    if (bp == nullptr || np == nullptr) {
      c.unmatched.push_back({key.group, key.placement, size, state(b, size, base_skips, key.group),
                             state(n, size, current_skips, key.group)});
      continue;
    }
    ComparedPoint p{key, size, side_of(bp->m), side_of(np->m), std::nullopt, Verdict::kUnknown, false};
    p.ratio = ratio_of(p.base, p.current);
    p.verdict = judge(p.base, p.current, p.ratio, c.options.threshold, &p.within_noise);
    count(c, p);
    c.points.push_back(std::move(p));
  }
}

bool group_measured(const RunSeries& run, const GroupKey& group, std::uint64_t size) {
  for (const auto& s : run.series) {
    if (s.key.group == group && point_at(&s, size) != nullptr) return true;
  }
  return false;
}

// Skipped sizes that no measured point on either side already accounts for.
void list_skipped(Comparison& c, const RunSeries& base, const RunSeries& current, const SkipMap& base_skips,
                  const SkipMap& current_skips) {
  std::set<std::pair<GroupKey, std::uint64_t>> seen;
  for (const SkipMap* skips : {&base_skips, &current_skips}) {
    for (const auto& [where, reason] : *skips) {
      const auto& [group, size] = where;
      if (!in_range(size, c.options) || !seen.insert(where).second) continue;
      if (group_measured(base, group, size) || group_measured(current, group, size)) continue;
      c.unmatched.push_back({group, std::nullopt, size, state(nullptr, size, base_skips, group),
                             state(nullptr, size, current_skips, group)});
    }
  }
}

}  // namespace

std::string_view to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::kFaster: return "faster";
    case Verdict::kSame: return "same";
    case Verdict::kSlower: return "slower";
    case Verdict::kUnknown: return "n/a";
  }
  return "n/a";
}

std::string_view to_string(Side side) { return side == Side::kBase ? "BASE" : "NEW"; }

Spread spread_of(const Measurement& m) {
  const TimeStats& s = m.per_iteration;
  if (s.samples < 2 || !positive(m.time_us) || !positive(s.min_us) || !positive(s.p95_us)) return {};
  return {m.time_us / std::max(s.p95_us, m.time_us), m.time_us / std::min(s.min_us, m.time_us)};
}

Verdict judge(const ComparedSide& base, const ComparedSide& current, std::optional<double> ratio, double threshold,
              bool* within_noise) {
  *within_noise = false;
  if (!ratio || !std::isfinite(*ratio)) return Verdict::kUnknown;
  const double r = *ratio;
  // Bands compared on the scale of BASE's headline: NEW's band is r times its spread.
  if (r < 1 - threshold) {
    if (r * current.spread.high < base.spread.low) return Verdict::kSlower;
    *within_noise = true;
  } else if (r > 1 + threshold) {
    if (r * current.spread.low > base.spread.high) return Verdict::kFaster;
    *within_noise = true;
  }
  return Verdict::kSame;
}

std::vector<ContextDifference> context_differences(const RunContext& base, const RunContext& current) {
  const ContextTable table = context_table({&base, &current});
  std::vector<ContextDifference> out;
  for (const auto& row : table) {
    if (row.differs) out.push_back({row.field, row.values[0], row.values[1]});
  }
  return out;
}

std::vector<std::string> run_problems(const RunDocument& document) {
  std::vector<std::string> out;
  std::uint64_t wrong = 0;
  std::uint64_t bad_records = 0;
  std::uint64_t unchecked = 0;
  for (const auto& row : document.rows) {
    for (const auto& m : row.placements) {
      wrong += m.wrong;
      bad_records += m.wrong > 0 ? 1 : 0;
      unchecked += m.checked ? 0 : 1;
    }
  }
  const RunStatus status = document.summary.status;
  if (status != RunStatus::kOk || wrong > 0) {
    std::string text = std::string("run status ") + to_string(status);
    if (status == RunStatus::kIncomplete) text += " (the run did not finish; the file holds the sizes done so far)";
    if (wrong > 0) text += ": " + format_uint(wrong) + " wrong elements in " + format_uint(bad_records) + " records";
    if (document.summary.error) text += ": " + *document.summary.error;
    out.push_back(std::move(text));
  }
  if (unchecked > 0) out.push_back(format_uint(unchecked) + " records were not checked for correctness (-c 0)");
  return out;
}

Comparison compare_runs(const ReportRun& base, const ReportRun& current, const CompareOptions& options) {
  Comparison c;
  c.base_label = base.label;
  c.new_label = current.label;
  c.options = options;
  const RunSeries b = extract_series(base.document);
  const RunSeries n = extract_series(current.document);
  const SkipMap base_skips = skip_map(b);
  const SkipMap current_skips = skip_map(n);
  for (const auto& key : all_keys(b, n)) compare_series(c, key, b, n, base_skips, current_skips);
  list_skipped(c, b, n, base_skips, current_skips);
  c.differences = context_differences(base.document.context, current.document.context);
  for (const auto& d : c.differences) {
    for (const char* field : {"ranks", "hosts", "devices", "backend", "memory"}) {
      if (d.field == field) c.setup_differences.push_back(d.field);
    }
  }
  for (const auto& text : run_problems(base.document)) c.flags.push_back({Side::kBase, text});
  for (const auto& text : run_problems(current.document)) c.flags.push_back({Side::kNew, text});
  for (const auto& s : b.series) c.base_figures.push_back(figures_of(s, {bottleneck_link_gbps(base)}));
  for (const auto& s : n.series) c.new_figures.push_back(figures_of(s, {bottleneck_link_gbps(current)}));
  return c;
}

}  // namespace collbench::report
