// nccl-tests' view of per-iteration times (-I 1), from every rank's samples: one row per
// process, each iteration's largest time over that process's ranks (its GPUs), and the
// iteration statistics as upstream's src/util.cu computes them, which differ from collbench's
// own (TimeStats): p50 is the upper median, percentiles are nearest-rank, stdev divides by n.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "report/record.hpp"

namespace collbench::report {

struct ProcessIterations {
  // One row per process (the ranks of one host and pid, in rank order of first appearance):
  // each iteration's largest time over its ranks, in microseconds.
  std::vector<std::vector<double>> process_max_us;
  // Each iteration's largest time over the process rows: upstream's times_us.
  std::vector<double> max_us;
  // The first rank of each process, in the same order (upstream's config.devices).
  std::vector<std::size_t> first_ranks;
};

// `rank_us` in rank order, as Measurement::rank_iteration_us holds it. When `ranks` does not
// describe every rank, each rank is its own process. Rows shorter than the longest are cut
// to the shortest, as upstream's analysis does.
ProcessIterations process_iterations(const std::vector<RankInfo>& ranks,
                                     const std::vector<std::vector<double>>& rank_us);

// The first rank of each process (host and pid), in rank order.
std::vector<std::size_t> first_rank_of_each_process(const std::vector<RankInfo>& ranks);

struct NcclTestsIterStats {
  double min_us = 0;
  double max_us = 0;
  double avg_us = 0;
  double p50_us = 0;
  double p95_us = 0;
  double p99_us = 0;
  double stdev_us = 0;
  double cv_pct = 0;
};

// upstream's computeIterStats and cv%; zeros for no samples.
NcclTestsIterStats nccl_tests_iter_stats(std::span<const double> us);

}  // namespace collbench::report
