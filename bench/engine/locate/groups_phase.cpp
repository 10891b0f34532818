#include "bench/engine/locate/phases.hpp"

namespace collbench::engine::locate {

Status GroupsPhase::run(PhaseContext& ctx) {
  LocateState& st = ctx.state();
  const PhasePlan& plan = st.plan.groups;
  const double began = ctx.elapsed();
  const double deadline = ctx.budget().deadline_s(Spend::kGroups);
  std::string cut;
  st.report.group_bytes = plan.skipped ? 0 : plan.sizes.front();
  std::vector<const std::vector<Group>*> kinds;
  if (!st.host_rings.empty()) kinds.push_back(&st.host_rings);
  if (!st.rail_rings.empty()) kinds.push_back(&st.rail_rings);
  double cost = st.inputs.p2p.at(st.report.group_bytes);
  Agreed a;
  if (!plan.skipped) {
    COLLBENCH_ASSIGN_OR_RETURN(a, ctx.agree());
  }
  for (std::size_t i = 0; i < kinds.size() && !plan.skipped; ++i) {
    if (a.stop) return ctx.interrupted();
    const int left = static_cast<int>(kinds.size() - i);
    bool measured = ctx.next_iterations(plan, st.inputs.groups, deadline, a.elapsed_s, 1, cost) > 0;
    if (measured) {
      COLLBENCH_ASSIGN_OR_RETURN(measured, kind(ctx, *kinds[i], deadline, left, a, cost));
    }
    if (a.stop) return ctx.interrupted();
    if (!measured) {
      cut = "cut by the budget after " + std::to_string(i) + " of " + std::to_string(kinds.size()) + " kinds of groups";
      break;
    }
  }
  ctx.record_phase("groups", plan, began, cut);
  return ok_status();
}

// One kind of groups at once: a warm-up, repetitions fitted to it, the timed rings. Returns,
// agreed by all ranks, the clock and the cost per iteration of the slowest rank; false when
// the warm-up showed that the time left does not hold the minimum.
Result<bool> GroupsPhase::kind(PhaseContext& ctx, const std::vector<Group>& groups, double deadline_s, int kinds_left,
                               Agreed& a, double& cost_s) {
  LocateState& st = ctx.state();
  Measurer& m = ctx.m();
  const std::uint64_t bytes = st.report.group_bytes;
  const std::vector<RingPeers> peers = peers_of(groups, m.size());
  COLLBENCH_ASSIGN_OR_RETURN(const Warmed w, ctx.warm_up(bytes, peers, st.inputs.groups.warmup, cost_s));
  a = w.agreed;
  cost_s = w.cost_s;
  if (a.stop) return false;
  const std::uint64_t iterations = ctx.step_iterations(st.plan.groups, st.inputs.groups, deadline_s, w, kinds_left);
  if (iterations == 0) return false;
  COLLBENCH_ASSIGN_OR_RETURN(const auto mine, m.p2p(bytes, peers, 0, iterations, quiet_for(0, iterations, cost_s)));
  const double now = ctx.elapsed();
  const double stop = ctx.stop_flag();
  COLLBENCH_ASSIGN_OR_RETURN(auto rows,
                             gather_rows(m, ctx.held_rows<StepRow>(mine, [&](int rank, const LoopSamples& s) {
                               const bool in = peers[static_cast<std::size_t>(rank)].send >= 0;
                               return StepRow{.median_us = in ? median_of(s.iteration_us) : 0,
                                              .cost_s = s.elapsed_s / static_cast<double>(iterations),
                                              .elapsed_s = now,
                                              .stop = stop};
                             })));
  a = agreed_over(rows);
  cost_s = slowest_cost_s(rows);
  for (const auto& g : groups) {
    report::LocateGroup lg{to_string(g.kind), g.label, g.ranks, iterations, 0, 0};
    for (int r : g.ranks) lg.time_us = std::max(lg.time_us, rows[static_cast<std::size_t>(r)].median_us);
    lg.gbps = lg.time_us > 0 ? static_cast<double>(bytes) / lg.time_us * 1e-3 : 0;
    st.measured.groups.push_back(std::move(lg));
  }
  ctx.step_done(std::string(to_string(groups.front().kind)) + " rings", bytes);
  return true;
}

}  // namespace collbench::engine::locate
