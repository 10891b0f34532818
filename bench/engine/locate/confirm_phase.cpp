#include <algorithm>
#include <limits>

#include "bench/engine/locate/phases.hpp"

namespace collbench::engine::locate {

namespace {

constexpr std::size_t kMaxRechecks = 16;  // pairs and rings measured alone, at most
constexpr int kAlternations = 3;          // each suspect and its control, measured alone in turn

// What each rank reports after a recheck.
struct RecheckRow {
  double median_us = 0;
  double elapsed_s = 0;
  double stop = 0;
};

}  // namespace

// Every rank holds every figure, so every rank finds the same suspects. Each suspect and its
// control are measured alone in turn, kAlternations times, so that a slow spell of the
// machine falls on both rather than on the suspect alone.
Status ConfirmPhase::run(PhaseContext& ctx) {
  LocateState& st = ctx.state();
  const LocateOptions& o = ctx.options();
  PhasePlan plan = st.plan.confirm;
  const double began = ctx.elapsed();
  const double deadline = ctx.budget().deadline_s(Spend::kConfirm);
  st.measured.places = o.places;
  std::vector<Suspect> todo;
  if (!plan.skipped) todo = suspects(decide(st.measured, o.rule));
  if (todo.size() > kMaxRechecks) todo.resize(kMaxRechecks);
  if (todo.empty() && !plan.skipped) {
    plan.skipped = true;
    plan.note = "no suspect pair or ring to measure alone";
  }
  int steps_left = 0;
  for (const auto& s : todo) steps_left += kAlternations * (s.control.empty() ? 1 : 2);
  const std::uint64_t pair_bytes = plan.skipped ? 0 : plan.sizes.front();
  Agreed a;
  if (!plan.skipped) {
    COLLBENCH_ASSIGN_OR_RETURN(a, ctx.agree());
  }
  // The largest size (the pairs', halving, not below -b) at which this suspect's steps fit the
  // time left with the minimum repetitions: a suspect and its control are compared with each
  // other at one size, so a slow suspect can be rechecked smaller rather than not at all.
  const auto size_for = [&](const std::vector<int>& members) {
    const double at_pairs = measured_cost_s(st, members);
    const double model = std::max(st.inputs.p2p.at(pair_bytes), 1e-9);
    std::uint64_t bytes = pair_bytes;
    while (bytes / 2 >= std::max<std::uint64_t>(o.min_bytes, 4) &&
           ctx.next_iterations(plan, st.inputs.pairs, deadline, a.elapsed_s, steps_left,
                               at_pairs * st.inputs.p2p.at(bytes) / model) == 0) {
      bytes = bytes / 2 / 4 * 4;
    }
    return std::pair{bytes, at_pairs * st.inputs.p2p.at(bytes) / model};
  };
  // One member measured alone at `bytes`; 0 when the budget is spent (the phase stops there).
  const auto measure = [&](const std::vector<int>& members, std::uint64_t bytes, double cost) -> Result<double> {
    if (a.stop) return ctx.interrupted();
    const std::uint64_t k = ctx.next_iterations(plan, st.inputs.pairs, deadline, a.elapsed_s, steps_left, cost);
    if (k == 0) return 0.0;
    --steps_left;
    COLLBENCH_ASSIGN_OR_RETURN(const double gbps, recheck(ctx, members, bytes, k, cost, a));
    ctx.step_done("confirm", bytes);
    return std::max(gbps, std::numeric_limits<double>::min());
  };
  std::string cut;
  for (std::size_t i = 0; i < todo.size() && cut.empty(); ++i) {
    std::vector<double> alone, control;
    const auto [bytes, cost] = size_for(todo[i].ranks);
    for (int alt = 0; alt < kAlternations && cut.empty(); ++alt) {
      COLLBENCH_ASSIGN_OR_RETURN(const double s, measure(todo[i].ranks, bytes, cost));
      double c = 0;
      if (s > 0 && !todo[i].control.empty()) {
        COLLBENCH_ASSIGN_OR_RETURN(c, measure(todo[i].control, bytes, cost));
      }
      if (s == 0 || (c == 0 && !todo[i].control.empty())) {
        cut = "cut by the budget after " + std::to_string(i) + " of " + std::to_string(todo.size()) + " suspects";
        break;
      }
      alone.push_back(s);
      if (c > 0) control.push_back(c);
    }
    if (alone.empty()) continue;
    st.measured.rechecks.push_back({todo[i].ranks, median_of(alone),
                                    control.empty() ? std::vector<int>{} : todo[i].control, median_of(control),
                                    least_gap(alone, control)});
  }
  st.measured.confirmation_done = true;
  ctx.record_phase("confirm", plan, began, cut);
  return ok_status();
}

// Only the suspect's ranks exchange (a pair, or a ring over its members); the others keep step.
Result<double> ConfirmPhase::recheck(PhaseContext& ctx, const std::vector<int>& members, std::uint64_t bytes,
                                     std::uint64_t iterations, double cost_s, Agreed& a) {
  const Repetitions& reps = ctx.state().inputs.pairs;
  const Group ring{GroupKind::kHost, "", members};
  const std::vector<RingPeers> peers = peers_of(std::span(&ring, 1), ctx.m().size());
  COLLBENCH_ASSIGN_OR_RETURN(const auto mine, ctx.m().p2p(bytes, peers, reps.warmup, iterations,
                                                          quiet_for(reps.warmup, iterations, cost_s)));
  const double now = ctx.elapsed();
  const double stop = ctx.stop_flag();
  COLLBENCH_ASSIGN_OR_RETURN(
      auto rows, gather_rows(ctx.m(), ctx.held_rows<RecheckRow>(mine, [&](int rank, const LoopSamples& s) {
        const bool in = peers[static_cast<std::size_t>(rank)].send >= 0;
        return RecheckRow{.median_us = in ? median_of(s.iteration_us) : 0, .elapsed_s = now, .stop = stop};
      })));
  a = agreed_over(rows);
  double time_us = 0;
  for (int r : members) time_us = std::max(time_us, rows[static_cast<std::size_t>(r)].median_us);
  return time_us > 0 ? static_cast<double>(bytes) / time_us * 1e-3 : 0;
}

// What one iteration of a suspect cost when it was measured (every rank has the figures).
double ConfirmPhase::measured_cost_s(const LocateState& state, const std::vector<int>& members) {
  for (const auto& p : state.measured.pairs) {
    if (members.size() == 2 && p.a == members[0] && p.b == members[1]) return p.time_us * 1e-6;
  }
  for (const auto& g : state.measured.groups) {
    if (g.ranks == members) return g.time_us * 1e-6;
  }
  // A ring over a link's ranks runs at the pace of the slowest pair among them.
  double slowest_us = 0;
  for (const auto& p : state.measured.pairs) {
    const auto in = [&](int r) { return std::find(members.begin(), members.end(), r) != members.end(); };
    if (in(p.a) && in(p.b)) slowest_us = std::max(slowest_us, p.time_us);
  }
  return slowest_us > 0 ? slowest_us * 1e-6 : state.p2p_cost_s;
}

}  // namespace collbench::engine::locate
