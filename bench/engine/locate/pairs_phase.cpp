#include "bench/engine/locate/phases.hpp"

namespace collbench::engine::locate {

Status PairsPhase::run(PhaseContext& ctx) {
  LocateState& st = ctx.state();
  const PhasePlan& plan = st.plan.pairs;
  const double began = ctx.elapsed();
  const double deadline = ctx.budget().deadline_s(Spend::kPairs);
  std::string cut;
  const std::uint64_t bytes = plan.skipped ? 0 : plan.sizes.front();
  const int per_pass = static_cast<int>(st.first_pass.size());
  st.report.pair_bytes = bytes;
  st.report.pair_rounds = per_pass;
  st.report.pair_passes = plan.skipped ? 0 : plan.passes;
  st.p2p_cost_s = st.inputs.p2p.at(bytes);
  std::vector<Round> this_pass;
  Agreed a;
  if (!plan.skipped) {
    COLLBENCH_ASSIGN_OR_RETURN(a, ctx.agree());
  }
  for (int step = 0; step < plan.steps && !plan.skipped; ++step) {
    if (a.stop) return ctx.interrupted();
    // Before the warm-up: does the time left hold the minimum at the last round's cost?
    if (ctx.next_iterations(plan, st.inputs.pairs, deadline, a.elapsed_s, 1, st.p2p_cost_s) == 0) {
      cut = "cut by the budget after " + std::to_string(step) + " of " + std::to_string(plan.steps) + " rounds";
      break;
    }
    const int r = step % per_pass;
    if (r == 0) {
      this_pass = step == 0 ? st.first_pass : pass_rounds(st.schedule, ctx.options().places, step / per_pass);
    }
    const Round& pairs = this_pass[static_cast<std::size_t>(r)];
    const std::vector<RingPeers> peers = peers_of(pairs, ctx.m().size());
    COLLBENCH_ASSIGN_OR_RETURN(const Warmed w, ctx.warm_up(bytes, peers, st.inputs.pairs.warmup, st.p2p_cost_s));
    if (w.agreed.stop) return ctx.interrupted();
    st.p2p_cost_s = w.cost_s;
    const std::uint64_t fitted = ctx.step_iterations(plan, st.inputs.pairs, deadline, w, plan.steps - step);
    if (fitted == 0) {
      cut = "cut by the budget after " + std::to_string(step) + " of " + std::to_string(plan.steps) +
            " rounds (the next round's warm-up took " + seconds_text(w.cost_s) + " per iteration)";
      break;
    }
    COLLBENCH_ASSIGN_OR_RETURN(auto rows, round(ctx, peers, bytes, fitted));
    a = agreed_over(rows);
    st.p2p_cost_s = slowest_cost_s(rows);
    note_round(ctx.options().places, pairs, r, fitted, rows);
    st.report.pair_steps_measured = step + 1;
    ctx.step_done("pairs", bytes);
  }
  for (auto& [key, lp] : info_) {
    lp.passes = static_cast<int>(times_[key].size());
    lp.time_us = median_of(times_[key]);
    lp.gbps = lp.time_us > 0 ? static_cast<double>(bytes) / lp.time_us * 1e-3 : 0;
    st.measured.pairs.push_back(lp);
  }
  ctx.record_phase("pairs", plan, began, cut);
  return ok_status();
}

// One round of one pass: every rank exchanges with its partner (or sits out), then all
// learn every rank's median time, its cost per iteration, its clock and stop requests.
Result<std::vector<StepRow>> PairsPhase::round(PhaseContext& ctx, std::span<const RingPeers> peers, std::uint64_t bytes,
                                               std::uint64_t iterations) const {
  COLLBENCH_ASSIGN_OR_RETURN(const auto mine, ctx.m().p2p(bytes, peers, 0, iterations,
                                                          quiet_for(0, iterations, ctx.state().p2p_cost_s)));
  const double now = ctx.elapsed();
  const double stop = ctx.stop_flag();
  return gather_rows(ctx.m(), ctx.held_rows<StepRow>(mine, [&](int, const LoopSamples& s) {
    return StepRow{.median_us = median_of(s.iteration_us),
                   .cost_s = s.elapsed_s / static_cast<double>(iterations),
                   .elapsed_s = now,
                   .stop = stop};
  }));
}

// The slower end's median time of each pair of the round, kept per measurement.
void PairsPhase::note_round(std::span<const RankPlace> places, const Round& round, int r, std::uint64_t iterations,
                            const std::vector<StepRow>& rows) {
  for (const RankPair& p : round) {
    const std::pair<int, int> key{p.a, p.b};
    times_[key].push_back(
        std::max(rows[static_cast<std::size_t>(p.a)].median_us, rows[static_cast<std::size_t>(p.b)].median_us));
    if (info_.contains(key)) continue;
    report::LocatePair& lp = info_[key];
    lp.a = p.a;
    lp.b = p.b;
    lp.inter_host = places[static_cast<std::size_t>(p.a)].host != places[static_cast<std::size_t>(p.b)].host;
    lp.round = r;
    lp.iterations = iterations;
  }
}

}  // namespace collbench::engine::locate
