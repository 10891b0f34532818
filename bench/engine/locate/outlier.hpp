// The outlier rule of `collbench locate`: each figure against the rest. Figures are oriented
// so that higher is better (bandwidths, the share of a collective a rank was present for).
//
// A figure is an outlier when, compared with the median m and the median absolute deviation
// (MAD) of the *other* figures,
//   (m - value) > threshold_mads * max(MAD, mad_floor * m)   and   (m - value) / m >= min_gap.
// Judging each figure against the others rather than against all (leave-one-out) lets two
// figures be compared at all, and keeps one very low figure from dragging its own reference;
// for many figures it is the classic median/MAD rule. The floor keeps tiny noise from being
// flagged when the others agree closely; the gap says how much slower matters in practice.
// A figure at least decisive_gap below the lowest of three or more others is an outlier
// whatever their MAD (with the min_gap still required): it lies outside any spread they show.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace collbench::engine::locate {

struct OutlierRule {
  double threshold_mads = 4.0;
  double mad_floor = 0.05;  // fraction of the median of the others
  double min_gap = 0.3;     // fraction of the median of the others
  // A rank whose pairs put it this far below the others (gap and distance both) is named
  // without measuring it again alone: a whole NIC or host link at a fraction of its peers',
  // which traffic beside it does not explain (contention halves a figure, not more).
  double decisive_gap = 0.6;
  double decisive_mads = 4.0;
  // Both uses of decisive_gap need this many other figures: below one or two others on an
  // oversubscribed machine is as often where the scheduler put a process as a fault.
  std::size_t decisive_others = 3;
};

struct Judgement {
  double value = 0;
  double reference = 0;      // median of the other figures
  double spread = 0;         // their MAD, raised to the floor
  double distance_mads = 0;  // (reference - value) / spread; negative above the reference
  double gap = 0;            // (reference - value) / reference; negative above the reference
  bool outlier = false;
};

// One judgement per value, in order. With fewer than two values nothing can be compared:
// every judgement then has the value as its reference and is no outlier.
std::vector<Judgement> judge(std::span<const double> values, const OutlierRule& rule);

// The same rule, each figure judged against the figures of other groups only (ranks against
// the ranks of other hosts: a host's fault makes all its ranks alike, and two slow ranks of
// one host must not be each other's reference). A figure with no other group to compare with
// is no outlier. `groups` holds one id per value.
std::vector<Judgement> judge_apart(std::span<const double> values, std::span<const int> groups,
                                   const OutlierRule& rule);

// Median of the values (the mean of the middle two for an even count); 0 when empty.
double median_of(std::vector<double> values);

}  // namespace collbench::engine::locate
