// How `collbench locate` spends its time budget: the seconds kept for the verdict, what the
// measuring phases may plan with, and where each of them must end. One object, shared by the
// phases (phase.hpp): a phase asks it for its deadline rather than summing plan shares itself,
// so a re-plan (after the straggler phase) moves every later deadline at once.
#pragma once

#include <array>
#include <cstddef>

#include "bench/engine/locate/plan.hpp"

namespace collbench::engine::locate {

// The measuring phases, in the order they run and spend.
enum class Spend : std::size_t { kStraggler, kPairs, kGroups, kConfirm, kCount };

class Budget {
 public:
  explicit Budget(double total_s) : total_s_(total_s) {}

  double total_s() const { return total_s_; }
  // Kept for the verdict exchange and the output: 3 % of the total, at least half a second.
  double reserve_s() const;
  // What the measuring phases may share when they are planned at `start_s` (setup and probe
  // already spent): never negative.
  double plannable_s(double start_s) const;
  // The plan the phases spend by, made at `start_s`; called again after a re-plan.
  void follow(double start_s, const LocatePlan& plan);
  double start_s() const { return start_s_; }
  // Where `phase` must end: the plan's start plus its own share and the shares before it.
  double deadline_s(Spend phase) const;
  // When the straggler, pair and group phases are expected to end (for progress lines).
  double expected_end_s() const { return start_s_ + predicted_s_; }

 private:
  double total_s_ = 0;
  double start_s_ = 0;
  std::array<double, static_cast<std::size_t>(Spend::kCount)> seconds_{};
  double predicted_s_ = 0;
};

}  // namespace collbench::engine::locate
