#include <algorithm>
#include <array>

#include "bench/engine/locate/phases.hpp"

namespace collbench::engine::locate {

namespace {

constexpr std::uint64_t kProbeIterations = 3;
constexpr std::uint64_t kProbeLargeBytes = 1u << 20;

// The probe's figures, reduced with max over ranks: one double per named slot.
struct ProbeFigures {
  enum Slot : std::size_t {
    kOverheadS,       // one agreement (allreduce of two doubles)
    kAllReduceLoS,    // one all_reduce iteration at the smallest size
    kAllReduceHiS,    // ... at the probe's large size
    kP2pLoS,          // one point-to-point iteration at the smallest size
    kP2pHiS,          // ... at the large size
    kNoPointToPoint,  // 1 when the backend has no point-to-point exchange
    kElapsedS,        // the clock when the probe ended
    kSlots
  };
  std::array<double, kSlots> values{};
  double& operator[](Slot s) { return values[s]; }
};

// Measures the probe's figures on this process's ranks, then makes them common.
Result<ProbeFigures> measure(PhaseContext& ctx, std::uint64_t lo, std::uint64_t hi) {
  Measurer& m = ctx.m();
  const double began = ctx.elapsed();
  for (int i = 0; i < 3; ++i) COLLBENCH_RETURN_IF_ERROR(ctx.agree().status());
  ProbeFigures v;
  v[ProbeFigures::kOverheadS] = (ctx.elapsed() - began) / 3;
  const auto per_iteration = [](const LoopSamples& s) { return s.elapsed_s / static_cast<double>(kProbeIterations); };
  COLLBENCH_ASSIGN_OR_RETURN(auto ar_lo, m.all_reduce(lo, 1, kProbeIterations));
  COLLBENCH_ASSIGN_OR_RETURN(auto ar_hi, m.all_reduce(hi, 1, kProbeIterations));
  v[ProbeFigures::kAllReduceLoS] = most(ar_lo, per_iteration);
  v[ProbeFigures::kAllReduceHiS] = most(ar_hi, per_iteration);
  const std::vector<Round>& first_pass = ctx.state().first_pass;
  if (!first_pass.empty()) {
    const std::vector<RingPeers> peers = peers_of(first_pass.front(), m.size());
    auto p_lo = m.p2p(lo, peers, 1, kProbeIterations, 0);
    if (!p_lo.ok() && p_lo.status().code() != ErrorCode::kUnsupported) return p_lo.status();
    if (p_lo.ok()) {
      COLLBENCH_ASSIGN_OR_RETURN(auto p_hi, m.p2p(hi, peers, 1, kProbeIterations, 0));
      v[ProbeFigures::kP2pLoS] = most(*p_lo, per_iteration);
      v[ProbeFigures::kP2pHiS] = most(p_hi, per_iteration);
    } else {
      v[ProbeFigures::kNoPointToPoint] = 1;
    }
  }
  v[ProbeFigures::kElapsedS] = ctx.elapsed();
  // Every rank plans from these same figures, so that every rank takes the same steps.
  COLLBENCH_RETURN_IF_ERROR(m.max(v.values));
  return v;
}

// The pairs note: how the rounds of a pass were chosen when not every pair meets.
std::string sampled_note(const PairSchedule& schedule, std::span<const RankPlace> places) {
  const int inside = inside_leaf_rounds(places, schedule.rounds_per_pass);
  const std::string kind = inside > 0 ? " rounds of host pairs per pass (" + std::to_string(inside) +
                                            " inside leaf switches, " +
                                            std::to_string(schedule.rounds_per_pass - inside) + " across them)"
                                      : " rounds of random host pairs per pass";
  return "sampled: " + std::to_string(schedule.rounds_per_pass) + kind + ", of the " +
         std::to_string(schedule.every_pair_rounds) + " that meeting every pair would take";
}

}  // namespace

Status ProbePhase::run(PhaseContext& ctx) {
  const double began = ctx.elapsed();
  const LocateOptions& o = ctx.options();
  LocateState& s = ctx.state();
  const std::uint64_t lo = o.min_bytes;
  const std::uint64_t hi = std::max(lo, std::min(o.max_bytes, kProbeLargeBytes));
  COLLBENCH_ASSIGN_OR_RETURN(ProbeFigures v, measure(ctx, lo, hi));
  s.inputs.step_overhead_s = v[ProbeFigures::kOverheadS];
  s.inputs.all_reduce = CostModel::fit(lo, v[ProbeFigures::kAllReduceLoS], hi, v[ProbeFigures::kAllReduceHiS]);
  s.inputs.p2p = CostModel::fit(lo, v[ProbeFigures::kP2pLoS], hi, v[ProbeFigures::kP2pHiS]);
  s.p2p_ok = v[ProbeFigures::kNoPointToPoint] == 0;
  if (!s.p2p_ok)
    s.report.notes.push_back("the " + ctx.m().backend_name() +
                             " backend has no point-to-point exchange: "
                             "pairs and split groups were not measured");
  PhasePlan done;
  done.seconds = ctx.elapsed() - began;
  ctx.record_phase("probe", done, began, "");
  make_plan(ctx, v[ProbeFigures::kElapsedS]);
  return ok_status();
}

void ProbePhase::make_plan(PhaseContext& ctx, double start_s) {
  const LocateOptions& o = ctx.options();
  LocateState& s = ctx.state();
  const auto hosts = host_groups(o.places);
  if (hosts.size() >= 2) {
    s.host_rings = measurable(hosts);
    s.rail_rings = measurable(rail_groups(o.places));
    if (s.host_rings.size() < 2) s.host_rings.clear();
    if (s.rail_rings.size() < 2) s.rail_rings.clear();
  }
  s.inputs.min_bytes = o.min_bytes;
  s.inputs.max_bytes = o.max_bytes;
  s.inputs.pair_rounds = s.p2p_ok ? static_cast<int>(s.first_pass.size()) : 0;
  s.inputs.group_kinds = s.p2p_ok ? (s.host_rings.empty() ? 0 : 1) + (s.rail_rings.empty() ? 0 : 1) : 0;
  s.inputs.seconds = ctx.budget().plannable_s(start_s);
  s.plan = plan_locate(s.inputs);
  ctx.budget().follow(start_s, s.plan);
  if (s.inputs.pair_rounds > 0 && s.inputs.group_kinds == 0 && hosts.size() >= 2) {
    s.plan.groups.note = "no host or rail has two ranks to form a ring with another";
  }
  if (!s.p2p_ok) {
    s.plan.pairs.note = s.plan.groups.note = "no point-to-point exchange in this backend";
  } else if (s.schedule.sampled && !s.plan.pairs.skipped) {
    const std::string sampled = sampled_note(s.schedule, o.places);
    s.plan.pairs.note = s.plan.pairs.note.empty() ? sampled : sampled + "; " + s.plan.pairs.note;
    s.report.notes.push_back("pairs " + sampled);
  }
  const LocatePlan& p = s.plan;
  ctx.set_steps_total(p.straggler.sizes.size() + static_cast<std::size_t>(p.pairs.skipped ? 0 : p.pairs.steps) +
                      static_cast<std::size_t>(p.groups.skipped ? 0 : p.groups.steps));
}

}  // namespace collbench::engine::locate
