#include "report/analysis/process_iterations.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace collbench::report {

std::vector<std::size_t> first_rank_of_each_process(const std::vector<RankInfo>& ranks) {
  std::vector<std::size_t> firsts;
  std::vector<std::pair<std::string, long>> seen;
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    const std::pair<std::string, long> key{ranks[r].host, ranks[r].pid};
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
    seen.push_back(key);
    firsts.push_back(r);
  }
  return firsts;
}

ProcessIterations process_iterations(const std::vector<RankInfo>& ranks,
                                     const std::vector<std::vector<double>>& rank_us) {
  ProcessIterations out;
  if (rank_us.empty()) return out;
  std::size_t iterations = std::numeric_limits<std::size_t>::max();
  for (const auto& row : rank_us) iterations = std::min(iterations, row.size());
  // Which process row each rank's samples join.
  std::vector<std::size_t> row_of(rank_us.size());
  if (ranks.size() == rank_us.size()) {
    out.first_ranks = first_rank_of_each_process(ranks);
    for (std::size_t r = 0; r < ranks.size(); ++r) {
      for (std::size_t p = 0; p < out.first_ranks.size(); ++p) {
        const RankInfo& first = ranks[out.first_ranks[p]];
        if (first.host == ranks[r].host && first.pid == ranks[r].pid) row_of[r] = p;
      }
    }
  } else {
    for (std::size_t r = 0; r < rank_us.size(); ++r) {
      out.first_ranks.push_back(r);
      row_of[r] = r;
    }
  }
  out.process_max_us.assign(out.first_ranks.size(), std::vector<double>(iterations, 0.0));
  out.max_us.assign(iterations, 0.0);
  for (std::size_t r = 0; r < rank_us.size(); ++r) {
    for (std::size_t i = 0; i < iterations; ++i) {
      double& cell = out.process_max_us[row_of[r]][i];
      cell = std::max(cell, rank_us[r][i]);
      out.max_us[i] = std::max(out.max_us[i], rank_us[r][i]);
    }
  }
  return out;
}

NcclTestsIterStats nccl_tests_iter_stats(std::span<const double> us) {
  NcclTestsIterStats s;
  if (us.empty()) return s;
  std::vector<double> sorted(us.begin(), us.end());
  std::sort(sorted.begin(), sorted.end());
  const auto n = static_cast<long>(sorted.size());
  // upstream's percentileIndex: min(n - 1, ceil(n * p / 100) - 1)
  const auto at = [&](long percentile) {
    return sorted[static_cast<std::size_t>(std::min(n - 1, (n * percentile + 99) / 100 - 1))];
  };
  s.min_us = sorted.front();
  s.max_us = sorted.back();
  s.p50_us = sorted[sorted.size() / 2];
  s.p95_us = at(95);
  s.p99_us = at(99);
  double sum = 0;
  for (const double v : sorted) sum += v;
  s.avg_us = sum / static_cast<double>(n);
  double var = 0;
  for (const double v : sorted) var += (v - s.avg_us) * (v - s.avg_us);
  s.stdev_us = std::sqrt(var / static_cast<double>(n));
  s.cv_pct = s.avg_us > 0 ? s.stdev_us / s.avg_us * 100.0 : 0.0;
  return s;
}

}  // namespace collbench::report
