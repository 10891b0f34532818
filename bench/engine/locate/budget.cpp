#include "bench/engine/locate/budget.hpp"

#include <algorithm>

namespace collbench::engine::locate {

namespace {
constexpr double kReserveMinS = 0.5;
constexpr double kReserveShare = 0.03;
}  // namespace

double Budget::reserve_s() const { return std::max(kReserveMinS, kReserveShare * total_s_); }

double Budget::plannable_s(double start_s) const { return std::max(0.0, total_s_ - start_s - reserve_s()); }

void Budget::follow(double start_s, const LocatePlan& plan) {
  start_s_ = start_s;
  seconds_ = {plan.straggler.seconds, plan.pairs.seconds, plan.groups.seconds, plan.confirm.seconds};
  predicted_s_ = plan.straggler.predicted_s + plan.pairs.predicted_s + plan.groups.predicted_s;
}

double Budget::deadline_s(Spend phase) const {
  double end = start_s_;
  for (std::size_t p = 0; p <= static_cast<std::size_t>(phase) && p < seconds_.size(); ++p) end += seconds_[p];
  return end;
}

}  // namespace collbench::engine::locate
