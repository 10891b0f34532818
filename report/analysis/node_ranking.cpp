#include "report/analysis/node_ranking.hpp"

#include <algorithm>
#include <map>
#include <utility>

#include "common/strings.hpp"
#include "report/analysis/compare.hpp"
#include "report/analysis/json_views.hpp"
#include "report/format/number_format.hpp"
#include "report/format/size_label.hpp"

namespace collbench::report {
namespace {

// The first series of the first run that every run has, out-of-place preferred.
std::optional<SeriesKey> common_series(const std::vector<RunSeries>& all) {
  if (all.empty()) return std::nullopt;
  for (Placement preferred : {Placement::kOutOfPlace, Placement::kInPlace}) {
    for (const auto& s : all.front().series) {
      if (s.key.placement != preferred) continue;
      const bool everywhere = std::all_of(all.begin(), all.end(),
                                          [&](const RunSeries& r) { return find_series(r, s.key) != nullptr; });
      if (everywhere) return s.key;
    }
  }
  return std::nullopt;
}

// The largest reference size that every run has a value for.
std::optional<std::uint64_t> common_reference(const std::vector<RankedRun>& runs) {
  for (auto it = kReferenceSizes.rbegin(); it != kReferenceSizes.rend(); ++it) {
    const bool everywhere = std::all_of(runs.begin(), runs.end(), [&](const RankedRun& r) {
      return r.figures && busbw_at_reference(*r.figures, *it).has_value();
    });
    if (everywhere) return *it;
  }
  return std::nullopt;
}

double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t mid = v.size() / 2;
  return v.size() % 2 == 1 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

void score_and_flag(Ranking& r) {
  std::vector<double> scores;
  for (auto& run : r.runs) {
    if (!run.figures) continue;
    run.score_gbps = r.score_size ? busbw_at_reference(*run.figures, *r.score_size) : run.figures->peak_busbw_gbps;
    if (run.score_gbps) scores.push_back(*run.score_gbps);
  }
  r.median_gbps = median_of(scores);
  for (auto& run : r.runs) {
    if (!run.score_gbps || r.median_gbps <= 0) continue;
    run.vs_median = *run.score_gbps / r.median_gbps;
    run.flagged = *run.vs_median < 1 - r.flag_below;
  }
  std::stable_sort(r.runs.begin(), r.runs.end(), [](const RankedRun& a, const RankedRun& b) {
    if (a.score_gbps.has_value() != b.score_gbps.has_value()) return a.score_gbps.has_value();
    return a.score_gbps.value_or(0) > b.score_gbps.value_or(0);
  });
  int place = 0;
  for (auto& run : r.runs) run.place = run.score_gbps ? ++place : 0;
}

std::string link_signature(const TopologyMatrix& t) {
  std::map<std::string, std::size_t> counts;
  for (std::size_t i = 0; i < t.cells.size(); ++i) {
    for (std::size_t j = 0; j < t.cells[i].size(); ++j) {
      if (i != j) ++counts[t.cells[i][j]];
    }
  }
  std::vector<std::string> parts;
  parts.reserve(counts.size());
  for (const auto& [cell, n] : counts) parts.push_back(format_uint(n) + "x " + cell);
  return t.host + ": " + (parts.empty() ? "-" : join(parts, ", "));
}

void add_topology_rows(Ranking& r, const std::vector<ReportRun>& runs) {
  ContextRow links{"topology links", {}, false};
  ContextRow bottleneck{"bottleneck link", {}, false};
  bool any = false;
  for (const auto& run : runs) {
    std::vector<std::string> sig;
    std::vector<std::string> slow;
    for (const auto& t : run.topology) {
      any = true;
      sig.push_back(link_signature(t));
      if (t.bottleneck_link_gbps)
        slow.push_back(t.bottleneck_link + " " + format_fixed(*t.bottleneck_link_gbps, 1) + " GB/s");
    }
    links.values.push_back(sig.empty() ? "-" : join(sig, "; "));
    bottleneck.values.push_back(slow.empty() ? "-" : join(slow, "; "));
  }
  if (!any) return;
  for (ContextRow* row : {&links, &bottleneck}) {
    row->differs = std::any_of(row->values.begin(), row->values.end(),
                               [&](const std::string& v) { return v != row->values.front(); });
    r.context.push_back(std::move(*row));
  }
}

void add_stragglers(Ranking& r, const ReportRun& run) {
  if (run.document.context.hosts.size() < 2) return;
  std::map<std::string, std::vector<double>> excess;
  std::size_t points = 0;
  for (const auto& row : run.document.rows) {
    for (const auto& m : row.placements) {
      ++points;
      if (m.time_us > 0) excess[m.slowest_host].push_back(m.slowest_rank_time_us / m.time_us - 1);
    }
  }
  for (const auto& host : run.document.context.hosts) {
    const auto it = excess.find(host);
    const std::size_t n = it == excess.end() ? 0 : it->second.size();
    r.stragglers.push_back({run.label, host, n, points, n > 0 ? median_of(it->second) : 0});
  }
}

}  // namespace

std::size_t Ranking::flagged() const {
  return static_cast<std::size_t>(
      std::count_if(runs.begin(), runs.end(), [](const RankedRun& r) { return r.flagged; }));
}

std::string Ranking::score_name() const {
  const std::string what = score_size ? "busbw at " + short_size(*score_size) : std::string("peak busbw");
  return basis ? what + " (" + describe(*basis) + ")" : what;
}

Ranking rank_runs(const std::vector<ReportRun>& runs, const RankingOptions& options) {
  Ranking r;
  r.flag_below = options.flag_below;
  std::vector<RunSeries> all;
  std::vector<const RunContext*> contexts;
  for (const auto& run : runs) {
    all.push_back(extract_series(run.document));
    contexts.push_back(&run.document.context);
    r.labels.push_back(run.label);
  }
  r.basis = common_series(all);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const RunContext& c = runs[i].document.context;
    RankedRun ranked{runs[i].label,
                     c.nranks,
                     join(c.hosts, ","),
                     std::nullopt,
                     std::nullopt,
                     std::nullopt,
                     false,
                     0,
                     run_problems(runs[i].document)};
    if (r.basis) ranked.figures = figures_of(*find_series(all[i], *r.basis), {bottleneck_link_gbps(runs[i])});
    r.runs.push_back(std::move(ranked));
  }
  if (!r.basis) r.notes.emplace_back("the runs share no (collective, dtype, op, placement): nothing to rank on");
  r.score_size = common_reference(r.runs);
  score_and_flag(r);
  r.context = context_table(contexts);
  add_topology_rows(r, runs);
  for (const auto& run : runs) add_stragglers(r, run);
  if (!r.stragglers.empty()) {
    r.notes.emplace_back(
        "a multi-host run measures each collective as a whole, so it has no per-host busbw; "
        "the straggler table shows which host held the slowest rank. Run one job per node to rank nodes.");
  }
  return r;
}

}  // namespace collbench::report
