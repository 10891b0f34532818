// The phases of `collbench locate`, in the order they run (locator.cpp). Each reads what the
// phases before it left in the shared state (phase.hpp) and spends up to its deadline in the
// shared Budget.
#pragma once

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "bench/engine/locate/phase.hpp"

namespace collbench::engine::locate {

// What one iteration of an all_reduce and of a point-to-point exchange cost at two sizes, and
// one agreement between steps; then the plan (plan.hpp) the Budget follows, and the rounds,
// host rings and rail rings the later phases measure.
class ProbePhase final : public Phase {
 public:
  Status run(PhaseContext& ctx) override;

 private:
  // The plan from the probe's figures, for the budget left at `start_s`.
  static void make_plan(PhaseContext& ctx, double start_s);
};

// Every rank's arrival at a small sweep of all_reduce sizes (a late rank is a straggler); then,
// when the all_reduce crossed a far slower link than the probe's pairs, the later phases are
// planned again for it.
class StragglerPhase final : public Phase {
 public:
  Status run(PhaseContext& ctx) override;

 private:
  static void replan_for_slowest_link(PhaseContext& ctx);
};

// Rounds of disjoint pairs (schedule.hpp), pass after pass while the budget holds: each pair's
// median time, the slower end's.
class PairsPhase final : public Phase {
 public:
  Status run(PhaseContext& ctx) override;

 private:
  Result<std::vector<StepRow>> round(PhaseContext& ctx, std::span<const RingPeers> peers, std::uint64_t bytes,
                                     std::uint64_t iterations) const;
  // The slower end's median time of each pair of the round.
  void note_round(std::span<const RankPlace> places, const Round& round, int r, std::uint64_t iterations,
                  const std::vector<StepRow>& rows);

  std::map<std::pair<int, int>, report::LocatePair> info_;
  std::map<std::pair<int, int>, std::vector<double>> times_;  // one per measurement
};

// Rings over every host's ranks, then over every rail (the same local rank on every host).
class GroupsPhase final : public Phase {
 public:
  Status run(PhaseContext& ctx) override;

 private:
  // Returns false when the budget leaves no time for this kind of groups.
  static Result<bool> kind(PhaseContext& ctx, const std::vector<Group>& groups, double deadline_s, int kinds_left,
                           Agreed& a, double& cost_s);
};

// The verdict's suspects (pairs, rings, ranks by their pairs), each measured alone in turn
// with a healthy control, so that the verdict names only what stays slow on its own.
class ConfirmPhase final : public Phase {
 public:
  Status run(PhaseContext& ctx) override;

 private:
  static Result<double> recheck(PhaseContext& ctx, const std::vector<int>& members, std::uint64_t bytes,
                                std::uint64_t iterations, double cost_s, Agreed& a);
  static double measured_cost_s(const LocateState& state, const std::vector<int>& members);
};

}  // namespace collbench::engine::locate
