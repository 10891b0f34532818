#include <algorithm>
#include <cmath>

#include "bench/coll/collective.hpp"
#include "bench/engine/locate/phases.hpp"

namespace collbench::engine::locate {

namespace {

constexpr double kSlowLinkFactor = 3.0;  // all_reduce per byte over the pairs' that means a slow link

// What each rank reports after the arrival phase.
struct ArrivalRow {
  double punctuality = 0;  // median share of the step spent not waiting
  double late_us = 0;      // median lateness after the barrier
};

// The sweep's figure at one size: the median over iterations of the longest time inside the
// call, with its bus bandwidth as nccl-tests counts it.
report::LocateSize size_figure(std::uint64_t bytes, std::uint64_t iterations, const std::vector<double>& longest,
                               int ranks) {
  report::LocateSize size{bytes, iterations, median_of(longest), 0};
  const coll::Counts counts = coll::counts_for(coll::Collective::kAllReduce, bytes / 4, 4, ranks);
  const double algbw = coll::algbw_gbps(coll::algbw_bytes(coll::Collective::kAllReduce, counts, 4, ranks),
                                        size.time_us * 1e-6);
  size.busbw_gbps = coll::busbw_gbps(coll::Collective::kAllReduce, algbw, ranks);
  return size;
}

}  // namespace

Status StragglerPhase::run(PhaseContext& ctx) {
  LocateState& st = ctx.state();
  Measurer& m = ctx.m();
  const PhasePlan& plan = st.plan.straggler;
  const double began = ctx.elapsed();
  const double deadline = ctx.budget().deadline_s(Spend::kStraggler);
  std::string cut;
  const auto held = static_cast<std::size_t>(m.held().count);
  std::vector<std::vector<double>> shares(held);  // per held rank
  std::vector<std::vector<double>> lateness(held);
  double correction = 1;  // measured over predicted cost of the last size
  for (std::size_t s = 0; s < plan.sizes.size() && !plan.skipped; ++s) {
    COLLBENCH_ASSIGN_OR_RETURN(const Agreed a, ctx.agree());
    if (a.stop) return ctx.interrupted();
    const std::uint64_t bytes = plan.sizes[s];
    const double predicted = st.inputs.all_reduce.at(bytes);
    const std::uint64_t k = ctx.next_iterations(plan, st.inputs.straggler, deadline, a.elapsed_s,
                                                static_cast<int>(plan.sizes.size() - s), predicted * correction);
    if (k == 0) {
      cut = "cut by the budget after " + std::to_string(s) + " of " + std::to_string(plan.sizes.size()) + " sizes";
      break;
    }
    COLLBENCH_ASSIGN_OR_RETURN(const auto mine, m.all_reduce(bytes, st.inputs.straggler.warmup, k));
    // Per iteration, over all ranks: the longest time inside the call, and the span from the
    // barrier to the last rank's return; then the step's cost.
    std::vector<double> longest(2 * k + 1);
    for (const LoopSamples& rank : mine) {
      for (std::size_t i = 0; i < k; ++i) {
        longest[i] = std::max(longest[i], rank.iteration_us[i]);
        longest[k + i] = std::max(longest[k + i], rank.late_us[i] + rank.iteration_us[i]);
      }
      longest[2 * k] = std::max(longest[2 * k], rank.elapsed_s / static_cast<double>(k));
    }
    COLLBENCH_RETURN_IF_ERROR(m.max(longest));
    const double cost = longest[2 * k];
    correction = predicted > 0 ? std::max(1.0, cost / predicted) : 1;
    // Punctuality is the share of the iteration's span this rank was not late for: a rank
    // that finishes early because others wait on a slow link is not late, only its arrival
    // after the common start line counts against it.
    for (std::size_t h = 0; h < held; ++h) {
      for (std::size_t i = 0; i < k; ++i) {
        const double span = longest[k + i];
        shares[h].push_back(span > 0 ? 1 - mine[h].late_us[i] / span : 1);
        lateness[h].push_back(mine[h].late_us[i]);
      }
    }
    longest.resize(k);
    st.report.all_reduce.push_back(size_figure(bytes, k, longest, m.size()));
    ctx.step_done("all_reduce", bytes);
  }
  if (!shares.front().empty()) {
    std::vector<ArrivalRow> mine;
    for (std::size_t h = 0; h < held; ++h) mine.push_back({median_of(shares[h]), median_of(lateness[h])});
    COLLBENCH_ASSIGN_OR_RETURN(auto rows, gather_rows(m, mine));
    for (const auto& r : rows) st.measured.arrivals.push_back({r.punctuality, r.late_us});
  }
  ctx.record_phase("straggler", plan, began, cut);
  replan_for_slowest_link(ctx);
  return ok_status();
}

// The probe's pairs are round 0's alone and may all miss a slow host or link; the straggler
// phase's all_reduce crosses every link. A ring moves 2(n-1)/n of the message over each link
// and a pair the whole message, so a pair across the slowest link costs per byte about
// n/(2(n-1)) of what the all_reduce did. When that is kSlowLinkFactor times what the probe's
// pairs cost (more than contention explains: healthy jobs here stay under 1.6), the later
// phases are planned again with it, so that a faulted host's rounds take smaller messages
// and fit the budget rather than a few rounds of large ones. Every rank holds the same
// figures (the loop's times are reduced), so every rank plans alike.
void StragglerPhase::replan_for_slowest_link(PhaseContext& ctx) {
  LocateState& st = ctx.state();
  if (st.report.all_reduce.empty() || st.plan.pairs.skipped || ctx.m().size() < 2) return;
  const report::LocateSize& last = st.report.all_reduce.back();
  const double n = ctx.m().size();
  const double per_byte = std::max(0.0, last.time_us * 1e-6 - st.inputs.all_reduce.fixed_s) /
                          static_cast<double>(last.size_bytes);
  const double slowest_link = per_byte * n / (2 * (n - 1));
  const double ratio = slowest_link / std::max(st.inputs.p2p.per_byte_s, 1e-15);
  if (ratio <= kSlowLinkFactor) return;
  st.inputs.p2p.per_byte_s = slowest_link;
  const LocatePlan again = plan_locate(st.inputs);
  st.plan.pairs = again.pairs;
  st.plan.confirm = again.confirm;
  if (!st.plan.groups.skipped) st.plan.groups = again.groups;
  ctx.budget().follow(ctx.budget().start_s(), st.plan);
  st.report.notes.push_back("the all_reduce crossed a link about " + std::to_string(std::llround(ratio)) +
                            "x slower than the first pairs: pairs and rings were planned again for it");
}

}  // namespace collbench::engine::locate
