// How `collbench locate` spends its budget: message sizes and repetitions for each phase,
// chosen from a quick probe of what one iteration costs. Pure, so that the same inputs give
// the same plan on every rank, and so that it can be tested without a job.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace collbench::engine::locate {

// Seconds one iteration of a timed loop takes at a message size (barriers, synchronisation
// and injected delays included): a fixed part plus a part per byte, fitted to two probe sizes.
struct CostModel {
  double fixed_s = 0;
  double per_byte_s = 0;

  double at(std::uint64_t bytes) const { return fixed_s + per_byte_s * static_cast<double>(bytes); }
  // Through (lo_bytes, lo_s) and (hi_bytes, hi_s); never a negative slope or intercept.
  static CostModel fit(std::uint64_t lo_bytes, double lo_s, std::uint64_t hi_bytes, double hi_s);
};

// Repetitions per step. A step is one timed loop (one size of the straggler phase, one round
// of pairs, one kind of split groups) plus the exchange that agrees on what comes next.
struct Repetitions {
  std::uint64_t warmup = 1;
  std::uint64_t minimum = 5;     // fewer makes the medians meaningless: the step is dropped
  std::uint64_t preferred = 10;  // sizes shrink before the repetitions drop below this
  std::uint64_t maximum = 50;    // more would spend budget without changing the verdict
};

struct PlanInputs {
  double seconds = 0;              // for the three measuring phases together
  std::uint64_t min_bytes = 4096;  // message size bounds, multiples of 4 bytes
  std::uint64_t max_bytes = 8u << 20;
  CostModel all_reduce;        // straggler loop: barrier, all_reduce, synchronize
  CostModel p2p;               // pair and ring loops: sendrecv, synchronize
  double step_overhead_s = 0;  // the exchange between steps
  int pair_rounds = 0;         // rounds of the round-robin (0: one rank)
  int group_kinds = 0;         // split-group kinds to run (0, 1 or 2)
  int max_passes = 3;          // pairs: repeat the round-robin up to this often
  Repetitions straggler{1, 5, 10, 50};
  Repetitions pairs{2, 5, 10, 50};
  Repetitions groups{1, 5, 10, 50};
};

struct PhasePlan {
  double seconds = 0;                // allotted
  std::vector<std::uint64_t> sizes;  // straggler: a small sweep; others: one size
  std::uint64_t iterations = 0;      // per step (the pair phase adapts it per round)
  int steps = 0;                     // steps planned (pairs: rounds x passes, or fewer rounds)
  int passes = 1;                    // pairs: times the whole round-robin is run
  bool skipped = false;
  std::string note;        // why skipped or cut, in plain words
  double predicted_s = 0;  // what the plan expects to spend
};

struct LocatePlan {
  PhasePlan straggler;
  PhasePlan pairs;
  PhasePlan groups;
  PhasePlan confirm;  // seconds kept to re-measure suspect pairs and rings alone
};

// Shares: straggler 25 %, pairs 45 %, groups 15 %, confirmation 15 % (without groups
// 30/55/-/15; without pairs the straggler phase takes it all). Each phase takes
// the largest size (from max_bytes down, halving, not below min_bytes) at which its steps fit
// with the preferred repetitions, then as many repetitions as fit, up to the maximum. The pair
// phase then repeats the whole round-robin (up to max_passes, each pass with relabelled
// ranks) while the preferred repetitions still fit. When even min_bytes does not fit, the
// pair phase measures fewer rounds and the others are skipped, each with a note.
LocatePlan plan_locate(const PlanInputs& in);

// Repetitions for the next step of a phase that has `left_s` seconds for `steps_left` steps
// of `cost_s` per iteration; 0 when not even the minimum fits (the phase stops there).
std::uint64_t iterations_that_fit(double left_s, int steps_left, double cost_s, double overhead_s,
                                  const Repetitions& reps);

// The sizes of the straggler sweep between lo and hi: lo, hi and one geometric step between
// (multiples of 4 bytes, distinct, ascending).
std::vector<std::uint64_t> sweep_sizes(std::uint64_t lo, std::uint64_t hi);

}  // namespace collbench::engine::locate
