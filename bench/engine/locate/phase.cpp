#include "bench/engine/locate/phase.hpp"

#include <array>
#include <cstdio>

namespace collbench::engine::locate {

double slowest_cost_s(const std::vector<StepRow>& rows) {
  double cost_s = 0;
  for (const auto& x : rows) cost_s = std::max(cost_s, x.cost_s);
  return cost_s;
}

double quiet_for(std::uint64_t warmup, std::uint64_t iterations, double cost_s) {
  return 0.9 * static_cast<double>(warmup + iterations) * cost_s;
}

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g s", s);
  return buf;
}

Status PhaseContext::interrupted() const {
  return Status::error(ErrorCode::kInterrupted, "locate interrupted by a signal");
}

Result<Agreed> PhaseContext::agree() {
  std::array<double, 2> v = {elapsed(), stop_flag()};
  COLLBENCH_RETURN_IF_ERROR(m_.max(v));
  return Agreed{v[0], v[1] != 0};
}

std::uint64_t PhaseContext::next_iterations(const PhasePlan& plan, const Repetitions& reps, double deadline_s,
                                            double agreed_s, int steps_left, double cost_s) const {
  const std::uint64_t fit = iterations_that_fit(deadline_s - agreed_s, steps_left, cost_s,
                                                state_.inputs.step_overhead_s, reps);
  return std::min(plan.iterations, fit);
}

Result<Warmed> PhaseContext::warm_up(std::uint64_t bytes, std::span<const RingPeers> peers, std::uint64_t warmup,
                                     double previous_cost_s) {
  const std::uint64_t n = std::max<std::uint64_t>(warmup, 1);
  COLLBENCH_ASSIGN_OR_RETURN(const auto w, m_.p2p(bytes, peers, 0, n, quiet_for(0, n, previous_cost_s)));
  std::array<double, 3> v = {most(w, [](const LoopSamples& s) { return s.elapsed_s; }) / static_cast<double>(n),
                             elapsed(), stop_flag()};
  COLLBENCH_RETURN_IF_ERROR(m_.max(v));
  return Warmed{v[0], Agreed{v[1], v[2] != 0}};
}

// Repetitions fitted to what this step's warm-up cost, not to the step before it: one slow
// round (a faulted host's pairs) must not overrun the budget. A step whose share of the time
// left is too short for the minimum still runs the minimum while the time left holds it, so
// that a slow step is measured rather than skipped; the steps after it then fit what remains.
std::uint64_t PhaseContext::step_iterations(const PhasePlan& plan, const Repetitions& reps, double deadline_s,
                                            const Warmed& w, int steps_left) const {
  const std::uint64_t k = next_iterations(plan, reps, deadline_s, w.agreed.elapsed_s, steps_left, w.cost_s);
  if (k > 0) return k;
  return next_iterations(plan, reps, deadline_s, w.agreed.elapsed_s, 1, w.cost_s) > 0 ? reps.minimum : 0;
}

void PhaseContext::step_done(const std::string& what, std::uint64_t bytes) {
  ++steps_done_;
  if (!progress_) return;
  report::Progress p;
  p.collective = "locate " + what;
  p.size_bytes = bytes;
  p.rows_done = steps_done_;
  p.rows_total = std::max(steps_total_, steps_done_);
  p.unit = "steps";
  p.elapsed_s = elapsed();
  p.estimated_total_s = budget_.expected_end_s();
  progress_(p);
}

void PhaseContext::record_phase(const std::string& name, const PhasePlan& plan, double began_s,
                                const std::string& cut) {
  report::LocatePhase ph;
  ph.name = name;
  ph.planned_s = plan.seconds;
  ph.spent_s = plan.skipped ? 0 : elapsed() - began_s;
  ph.status = plan.skipped ? "skipped" : (cut.empty() ? "done" : "cut");
  ph.note = cut.empty() || plan.skipped ? plan.note : cut;
  state_.report.phases.push_back(std::move(ph));
}

}  // namespace collbench::engine::locate
