#include "report/analysis/anomalies.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "report/format/number_format.hpp"
#include "report/format/size_label.hpp"

namespace collbench::report {
namespace {

constexpr std::uint64_t kDropFrom = std::uint64_t{64} * 1024;
constexpr double kDropFactor = 3.0;  // a drop: below a third of the best smaller size
constexpr double kDipFactor = 2.0;   // a dip: 2 x below what its neighbours make expected
// The headline at least a quarter off the median (a clean run on a shared VM moves it 10 % at
// microsecond sizes: noise nobody acts on)...
constexpr double kSpreadFloor = 0.25;
constexpr double kSpreadCis = 3.0;  // ...and three times the median's own uncertainty
constexpr std::uint64_t kSpreadSamples = 10;
constexpr std::uint64_t kMapThreshold = 32ull << 20;  // glibc's largest dynamic mmap threshold

using SeriesKey = std::tuple<std::string, std::string, std::string, int>;

struct Point {
  std::uint64_t size = 0;
  const SizeRecord* row = nullptr;
  const Measurement* m = nullptr;
};

// One finding under construction: a kind in one series, at the sizes where it was seen.
struct Finding {
  AnomalyKind kind = AnomalyKind::kDrop;
  bool explained = false;
  std::vector<std::uint64_t> sizes;
  std::vector<Placement> placements;
  std::string first_message;  // the figures of the first size
  std::string cause;
};

std::string sizes_text(const std::vector<std::uint64_t>& sizes) {
  std::string out;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (i == 6 && sizes.size() > 7) return out + ", ... (" + std::to_string(sizes.size()) + " sizes)";
    out += (i ? ", " : "") + size_text(sizes[i]);
  }
  return out;
}

// Three significant figures at least: "0.532 us", "12.4 us", "1530 us".
std::string time_text(double us) {
  const int decimals = us >= 100 ? 0 : us >= 10 ? 1 : us >= 1 ? 2 : 3;
  return format_fixed(us, decimals) + " us";
}

// The bytes a rank keeps in use at this size: send and receive buffers (one in place) and the
// temporary a host library's large collectives use, times the ranks sharing the host's cache.
std::uint64_t host_working_set(const RunContext& ctx, const Point& p) {
  const std::uint64_t buffers = p.m->placement == Placement::kInPlace ? 2 : 3;
  const auto ranks_here = ctx.ranks.empty() ? 1
                                            : std::count_if(ctx.ranks.begin(), ctx.ranks.end(), [&](const RankInfo& r) {
                                                return r.host == ctx.ranks.front().host;
                                              });
  return buffers * p.size * static_cast<std::uint64_t>(std::max<std::ptrdiff_t>(ranks_here, 1));
}

// Whether this size pays the library's per-call allocation afresh: at or above glibc's mmap
// threshold, unless --malloc-keep raised it.
bool maps_per_call(const RunContext& ctx, std::uint64_t size) {
  return ctx.allocates_per_call && size >= kMapThreshold && !ctx.config.malloc_keep;
}

// The words name MPI: the one library known to allocate per call (Open MPI's large collectives,
// docs/performance.md), the only backend whose entry declares allocates_per_call.
std::string drop_cause(const RunContext& ctx, std::uint64_t size) {
  if (maps_per_call(ctx, size) && ctx.memory == "host") {
    return "likely cause: the MPI library allocates a message-sized temporary buffer on every call and glibc maps "
           "allocations of 32 MiB or more afresh, so each call pays its page faults; --malloc-keep removes this";
  }
  return "cause unknown: look for interference on the hosts, a throttled device or link, or the library switching "
         "algorithm at this size";
}

// Scattered iterations matter where they move the headline (a mean) off the median by more
// than the median's own uncertainty: one slow iteration in 100,000 does not.
void find_spread(const Point& p, std::map<AnomalyKind, Finding>& found) {
  const TimeStats& st = p.m->per_iteration;
  if (st.samples < kSpreadSamples || st.median_us <= 0) return;
  const double off = (p.m->time_us - st.median_us) / st.median_us;
  if (off < std::max(kSpreadFloor, kSpreadCis * st.median_ci95_rel)) return;
  Finding& f = found[AnomalyKind::kSpread];
  f.kind = AnomalyKind::kSpread;
  if (f.first_message.empty()) {
    f.first_message = "the headline time " + time_text(p.m->time_us) + " is " + format_fixed(100 * off, 0) +
                      "% above the median " + time_text(st.median_us) + " (" + format_fixed(100 * st.far_share, 1) +
                      "% of iterations took over twice the median, p99 " + time_text(st.p99_us) + ")";
    f.cause = "stalls on a host: interference, a busy machine, or a periodic task; the median is the steadier figure";
  }
  f.sizes.push_back(p.size);
  f.placements.push_back(p.m->placement);
}

// A drop from `peak` at this size: explained by the last-level cache on host memory (the
// ranks' data on the host reaches half of it), unless it falls again here, where the library's
// per-call allocation starts to be mapped afresh (maps_per_call), or without cache figures.
void add_drop(const RunContext& ctx, const Point& p, double previous_bw, double peak, std::uint64_t peak_at,
              std::map<AnomalyKind, Finding>& found) {
  const bool cliff = maps_per_call(ctx, p.size) && p.m->busbw_gbps * 1.5 < previous_bw;
  const bool cache = ctx.memory == "host" && ctx.llc_bytes > 0 && 2 * host_working_set(ctx, p) >= ctx.llc_bytes &&
                     !cliff;
  const AnomalyKind kind = cache ? AnomalyKind::kCache : AnomalyKind::kDrop;
  Finding& f = found[kind];
  f.kind = kind;
  f.explained = cache;
  if (f.first_message.empty()) {
    f.first_message = "busbw " + format_fixed(p.m->busbw_gbps, 2) + " GB/s at " + size_text(p.size) + ", " +
                      format_fixed(peak / p.m->busbw_gbps, 1) + "x below the " + format_fixed(peak, 2) +
                      " GB/s reached at " + size_text(peak_at);
    f.cause = cache ? "the ranks' data (about " + size_text(host_working_set(ctx, p)) +
                          " on the host) no longer fits the " + size_text(ctx.llc_bytes) +
                          " last-level cache: memory bandwidth from here on, not an anomaly"
                    : drop_cause(ctx, p.size);
  }
  f.sizes.push_back(p.size);
  f.placements.push_back(p.m->placement);
}

// Drops (sustained, against the best smaller size) and dips (one size below both neighbours).
void find_drops(const RunContext& ctx, const std::vector<Point>& series, std::map<AnomalyKind, Finding>& found) {
  double peak = 0;
  std::uint64_t peak_at = 0;
  for (std::size_t i = 0; i < series.size(); ++i) {
    const Point& p = series[i];
    const double bw = p.m->busbw_gbps;
    const bool large = p.size >= kDropFrom && bw > 0;
    const bool dropped = large && peak > 0 && bw * kDropFactor < peak;
    // What the neighbours make expected: their geometric mean (busbw grows about
    // logarithmically with size, then flattens).
    const bool neighbours = i > 0 && i + 1 < series.size() && series[i - 1].size >= kDropFrom;
    const double expected = neighbours ? std::sqrt(series[i - 1].m->busbw_gbps * series[i + 1].m->busbw_gbps) : 0.0;
    // The next size back near the best so far: a dip stands alone; the first size of a
    // sustained drop is a drop.
    const bool recovers = neighbours && series[i + 1].m->busbw_gbps * kDropFactor >= std::max(peak, bw);
    const bool dip = large && neighbours && recovers && bw * kDipFactor < expected;
    if (dip) {
      Finding& f = found[AnomalyKind::kDip];
      f.kind = AnomalyKind::kDip;
      if (f.first_message.empty()) {
        f.first_message = "busbw " + format_fixed(bw, 2) + " GB/s at " + size_text(p.size) + ", " +
                          format_fixed(expected / bw, 1) + "x below what the neighbouring sizes make expected (" +
                          format_fixed(expected, 2) + " GB/s)";
        f.cause =
            "one size alone is slow: the library's algorithm or protocol at this size, or interference while it ran";
      }
      f.sizes.push_back(p.size);
      f.placements.push_back(p.m->placement);
    } else if (dropped) {
      add_drop(ctx, p, i > 0 ? series[i - 1].m->busbw_gbps : peak, peak, peak_at, found);
    }
    if (bw > peak) {
      peak = bw;
      peak_at = p.size;
    }
  }
}

std::string placement_of(const std::vector<Placement>& placements) {
  const bool out = std::find(placements.begin(), placements.end(), Placement::kOutOfPlace) != placements.end();
  const bool in = std::find(placements.begin(), placements.end(), Placement::kInPlace) != placements.end();
  return out && in ? "both" : to_string(out ? Placement::kOutOfPlace : Placement::kInPlace);
}

Anomaly make(const SeriesKey& key, Finding f) {
  std::sort(f.sizes.begin(), f.sizes.end());
  f.sizes.erase(std::unique(f.sizes.begin(), f.sizes.end()), f.sizes.end());
  Anomaly a;
  std::tie(a.collective, a.dtype, a.op, a.root) = key;
  a.size_bytes = f.sizes.front();
  a.sizes = f.sizes;
  a.placement = placement_of(f.placements);
  a.kind = f.kind;
  a.explained = f.explained;
  a.message = f.first_message +
              (f.sizes.size() > 1 ? "; also at " + sizes_text({f.sizes.begin() + 1, f.sizes.end()}) : "") + ": " +
              f.cause;
  return a;
}

}  // namespace

std::vector<Anomaly> find_anomalies(const std::vector<SizeRecord>& rows, const RunContext& context) {
  // Each series (collective, type, op, root) and placement in size order, rows as they came.
  std::map<SeriesKey, std::map<Placement, std::vector<Point>>> all;
  std::vector<SeriesKey> order;
  for (const auto& r : rows) {
    const SeriesKey key{r.collective, r.dtype, r.op, r.root};
    if (!all.contains(key)) order.push_back(key);
    for (const auto& m : r.placements) all[key][m.placement].push_back({r.size_bytes, &r, &m});
  }
  std::vector<Anomaly> out;
  for (const auto& key : order) {
    std::map<AnomalyKind, Finding> found;
    for (auto& [placement, points] : all[key]) {
      std::stable_sort(points.begin(), points.end(), [](const Point& a, const Point& b) { return a.size < b.size; });
      for (const auto& p : points) find_spread(p, found);
      find_drops(context, points, found);
    }
    for (const AnomalyKind kind : kAnomalyKinds) {
      if (auto it = found.find(kind); it != found.end()) out.push_back(make(key, std::move(it->second)));
    }
  }
  return out;
}

}  // namespace collbench::report
