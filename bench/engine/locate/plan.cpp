#include "bench/engine/locate/plan.hpp"

#include <algorithm>
#include <cmath>

namespace collbench::engine::locate {
namespace {

constexpr std::uint64_t kAlign = 4;  // float elements
// The message size of the straggler and pair phases is chosen as if their steps cost this many
// times what the probe measured: a slow host or link makes the steps that involve it that
// much slower (the probe saw one round only), and the phase must still cover every pair.
// Repetitions and passes then fill the phase's share.
constexpr double kHeadroom = 4.0;

std::uint64_t aligned(std::uint64_t bytes) { return std::max(kAlign, bytes / kAlign * kAlign); }

// Seconds for `steps` steps at `iterations` repetitions of the given sizes.
double predict(const CostModel& cost, const std::vector<std::uint64_t>& sizes, std::uint64_t iterations,
               std::uint64_t warmup, int steps, double overhead_s) {
  double per_step = overhead_s;
  for (auto s : sizes) per_step += static_cast<double>(iterations + warmup) * cost.at(s);
  return per_step * steps;
}

// Candidate sizes from max down to min, halving.
std::vector<std::uint64_t> candidates(std::uint64_t lo, std::uint64_t hi) {
  std::vector<std::uint64_t> out;
  for (std::uint64_t s = aligned(hi); s >= lo && s >= kAlign; s = aligned(s / 2)) {
    out.push_back(s);
    if (s == kAlign) break;
  }
  if (out.empty() || out.back() != aligned(lo)) out.push_back(aligned(lo));
  return out;
}

// Repetitions of `per_iteration` seconds within `seconds` over `steps` steps, capped at the
// maximum; 0 below the minimum.
std::uint64_t fit_iterations(double per_iteration, double seconds, int steps, double overhead_s,
                             const Repetitions& reps) {
  const double per_step = seconds / steps - overhead_s;
  if (per_step <= 0 || per_iteration <= 0) return per_step > 0 ? reps.maximum : 0;
  const double n = std::floor(per_step / per_iteration) - static_cast<double>(reps.warmup);
  if (n < static_cast<double>(reps.minimum)) return 0;
  return std::min(reps.maximum, static_cast<std::uint64_t>(n));
}

// One phase of `steps` steps, each running `sizes_of(size)`: the largest size with the
// preferred repetitions, else the smallest with at least the minimum.
template <typename SizesOf>
PhasePlan fit_phase(double seconds, int steps, const CostModel& cost, double overhead_s, const Repetitions& reps,
                    std::uint64_t lo, std::uint64_t hi, SizesOf sizes_of) {
  PhasePlan plan;
  plan.seconds = seconds;
  plan.steps = steps;
  for (std::uint64_t size : candidates(lo, hi)) {
    plan.sizes = sizes_of(size);
    double per_iteration = 0;
    for (auto s : plan.sizes) per_iteration += cost.at(s);
    plan.iterations = fit_iterations(per_iteration, seconds, steps, overhead_s, reps);
    if (plan.iterations >= reps.preferred) break;
  }
  if (plan.iterations == 0) {
    plan.skipped = true;
    plan.sizes.clear();
    return plan;
  }
  plan.predicted_s = predict(cost, plan.sizes, plan.iterations, reps.warmup, steps, overhead_s);
  return plan;
}

// More passes over every round while each keeps the preferred repetitions at the chosen size.
void repeat_passes(PhasePlan& pairs, const PlanInputs& in) {
  const double one_pass = predict(in.p2p, pairs.sizes, in.pairs.preferred, in.pairs.warmup, in.pair_rounds,
                                  in.step_overhead_s);
  const auto fit = one_pass > 0 ? static_cast<int>(std::floor(pairs.seconds / one_pass)) : in.max_passes;
  pairs.passes = std::clamp(fit, 1, std::max(1, in.max_passes));
  pairs.steps = in.pair_rounds * pairs.passes;
  pairs.iterations = std::max(in.pairs.minimum, fit_iterations(in.p2p.at(pairs.sizes.front()), pairs.seconds,
                                                               pairs.steps, in.step_overhead_s, in.pairs));
  pairs.predicted_s = predict(in.p2p, pairs.sizes, pairs.iterations, in.pairs.warmup, pairs.steps, in.step_overhead_s);
}

}  // namespace

CostModel CostModel::fit(std::uint64_t lo_bytes, double lo_s, std::uint64_t hi_bytes, double hi_s) {
  CostModel m;
  if (hi_bytes > lo_bytes) m.per_byte_s = std::max(0.0, (hi_s - lo_s) / static_cast<double>(hi_bytes - lo_bytes));
  m.fixed_s = std::max(0.0, lo_s - m.per_byte_s * static_cast<double>(lo_bytes));
  return m;
}

std::uint64_t iterations_that_fit(double left_s, int steps_left, double cost_s, double overhead_s,
                                  const Repetitions& reps) {
  if (steps_left <= 0) return 0;
  return fit_iterations(cost_s, left_s, steps_left, overhead_s, reps);
}

std::vector<std::uint64_t> sweep_sizes(std::uint64_t lo, std::uint64_t hi) {
  lo = aligned(lo);
  hi = std::max(lo, aligned(hi));
  std::vector<std::uint64_t> out = {lo};
  // Between them: lo times the largest power of two that keeps it at or below the geometric mean.
  std::uint64_t m = lo;
  while (m * 4 <= hi / m * lo && m * 2 < hi) m *= 2;
  if (m > lo && m < hi) out.push_back(m);
  if (hi > lo) out.push_back(hi);
  return out;
}

LocatePlan plan_locate(const PlanInputs& in) {
  LocatePlan plan;
  const bool groups = in.group_kinds > 0;
  const bool pairs = in.pair_rounds > 0;
  const double straggler_share = !pairs ? 1.0 : (groups ? 0.25 : 0.30);
  const double pairs_share = !pairs ? 0.0 : (groups ? 0.45 : 0.55);
  const double groups_share = groups ? 0.15 : 0.0;
  const double confirm_share = pairs ? 0.15 : 0.0;
  const auto one = [](std::uint64_t s) { return std::vector<std::uint64_t>{s}; };
  const auto sweep = [&](std::uint64_t s) { return sweep_sizes(in.min_bytes, s); };

  plan.straggler = fit_phase(in.seconds * straggler_share / kHeadroom, 1, in.all_reduce, in.step_overhead_s * 3,
                             in.straggler, in.min_bytes, in.max_bytes, sweep);
  if (!plan.straggler.skipped) {
    // The sizes leave room for a slow host; the repetitions take half the share (the loop
    // re-fits each size to what the previous one really cost).
    plan.straggler.seconds = in.seconds * straggler_share;
    double per_iteration = 0;
    for (auto size : plan.straggler.sizes) per_iteration += in.all_reduce.at(size);
    plan.straggler.iterations = std::max(plan.straggler.iterations,
                                         fit_iterations(per_iteration, plan.straggler.seconds / 2, 1,
                                                        in.step_overhead_s * 3, in.straggler));
    plan.straggler.predicted_s = predict(in.all_reduce, plan.straggler.sizes, plan.straggler.iterations,
                                         in.straggler.warmup, 1, in.step_overhead_s * 3);
  }
  if (plan.straggler.skipped) plan.straggler.note = "the budget does not fit the smallest all_reduce sweep";

  if (in.pair_rounds == 0) {
    plan.pairs.skipped = true;
    plan.pairs.note = "one rank: no pairs";
  } else {
    const double seconds = in.seconds * pairs_share;
    // Fewer rounds rather than none: each round still compares every rank with a new partner.
    for (int rounds = in.pair_rounds; rounds >= 1; --rounds) {
      plan.pairs = fit_phase(seconds / kHeadroom, rounds, in.p2p, in.step_overhead_s, in.pairs, in.min_bytes,
                             in.max_bytes, one);
      plan.pairs.seconds = seconds;
      if (!plan.pairs.skipped) break;
    }
    if (plan.pairs.skipped) {
      plan.pairs.note = "the budget does not fit one round of pairs";
    } else if (plan.pairs.steps < in.pair_rounds) {
      plan.pairs.note = "the budget fits " + std::to_string(plan.pairs.steps) + " of " +
                        std::to_string(in.pair_rounds) + " rounds";
    } else {
      repeat_passes(plan.pairs, in);
    }
  }

  if (!groups) {
    plan.groups.skipped = true;
    plan.groups.note = "one host: no other host or rail to compare with";
  } else {
    // Rings move what pairs move: the same size keeps their figures comparable.
    const std::uint64_t size = plan.pairs.skipped ? in.min_bytes : plan.pairs.sizes.front();
    plan.groups = fit_phase(in.seconds * groups_share, in.group_kinds, in.p2p, in.step_overhead_s, in.groups, size,
                            size, one);
    if (plan.groups.skipped) plan.groups.note = "the budget does not fit the split-group rings";
  }
  plan.confirm.seconds = in.seconds * confirm_share;
  plan.confirm.skipped = !pairs || plan.pairs.skipped;
  if (!plan.confirm.skipped) {
    plan.confirm.sizes = plan.pairs.sizes;
    plan.confirm.iterations = plan.pairs.iterations;
  }
  plan.confirm.note = plan.confirm.skipped ? "no pairs measured" : "suspect pairs and rings, each measured alone";
  return plan;
}

}  // namespace collbench::engine::locate
