#include "bench/engine/locate/locator.hpp"

#include <algorithm>
#include <array>

#include "bench/engine/locate/job_measurer.hpp"
#include "bench/engine/locate/phases.hpp"

namespace collbench::engine::locate {
namespace {

// Every rank's CPU figures over the pairs, rings and rechecks, for the verdict's causes.
Status gather_cpu(PhaseContext& ctx, double began_s) {
  LocateState& st = ctx.state();
  COLLBENCH_ASSIGN_OR_RETURN(const auto rows, gather_rows(ctx.m(), ctx.m().cpu_since_mark(ctx.elapsed() - began_s)));
  for (std::size_t r = 0; r < rows.size(); ++r) {
    st.measured.cpu.push_back({.rank = static_cast<int>(r),
                               .involuntary_switches = rows[r].involuntary_switches,
                               .steal_share = rows[r].steal_share});
  }
  st.report.cpu = st.measured.cpu;
  return ok_status();
}

// The verdict, on the process that holds rank 0: the others have taken the same steps and
// hold the same figures, but only one report is written.
void decide_into(const LocateOptions& o, LocateState& st) {
  Verdict v = decide(st.measured, o.rule);
  st.report.comparisons = std::move(v.comparisons);
  st.report.findings = std::move(v.findings);
  st.report.verdict = v.verdict;
  st.report.pairs = st.measured.pairs;
  st.report.groups = st.measured.groups;
  st.report.rule = {.threshold_mads = o.rule.threshold_mads,
                    .mad_floor = o.rule.mad_floor,
                    .min_gap = o.rule.min_gap,
                    .decisive_gap = o.rule.decisive_gap,
                    .decisive_mads = o.rule.decisive_mads,
                    .decisive_others = static_cast<int>(o.rule.decisive_others)};
}

Result<report::LocateReport> locate(const LocateOptions& o, Measurer& m, const ProgressSink& progress) {
  Budget budget(o.budget_s);
  LocateState st;
  PhaseContext ctx(o, m, budget, st, progress);
  st.report.budget_s = o.budget_s;
  PhasePlan setup;
  setup.seconds = ctx.elapsed();
  ctx.record_phase("setup", setup, 0, "");
  st.schedule = choose_pair_schedule(o.places);
  st.first_pass = pass_rounds(st.schedule, o.places, 0);
  COLLBENCH_RETURN_IF_ERROR(m.allocate(std::max(o.max_bytes, o.min_bytes)));

  ProbePhase probe;
  StragglerPhase straggler;
  PairsPhase pairs;
  GroupsPhase groups;
  ConfirmPhase confirm;
  COLLBENCH_RETURN_IF_ERROR(probe.run(ctx));
  COLLBENCH_RETURN_IF_ERROR(straggler.run(ctx));
  // The operating system's figures count over the phases that exchange point to point.
  m.mark_cpu();
  const double cpu_began_s = ctx.elapsed();
  for (Phase* phase : std::array<Phase*, 3>{&pairs, &groups, &confirm}) COLLBENCH_RETURN_IF_ERROR(phase->run(ctx));
  COLLBENCH_RETURN_IF_ERROR(gather_cpu(ctx, cpu_began_s));

  const double began = ctx.elapsed();
  if (m.held().first == 0) decide_into(o, st);
  PhasePlan verdict;
  verdict.seconds = budget.reserve_s();
  ctx.record_phase("verdict", verdict, began, "");
  st.report.spent_s = ctx.elapsed();
  return std::move(st.report);
}

}  // namespace

Result<report::LocateReport> run_locate(const LocateOptions& options, bootstrap::Bootstrap& boot,
                                        backend::Backend& backend, Watchdog* watchdog, const ProgressSink& progress,
                                        std::stop_token stop) {
  JobMeasurer m(boot, backend, options.fault, watchdog, options.start, std::move(stop));
  return run_locate(options, m, progress);
}

Result<report::LocateReport> run_locate(const LocateOptions& options, Measurer& m, const ProgressSink& progress) {
  if (options.places.size() != static_cast<std::size_t>(m.size())) {
    return Status::error(ErrorCode::kInternal, "locate: one place per rank expected");
  }
  const Held held = m.held();
  if (held.count < 1 || held.first < 0 || held.first + held.count > m.size()) {
    return Status::error(ErrorCode::kInternal, "locate: the measurer holds no ranks of the job");
  }
  return locate(options, m, progress);
}

}  // namespace collbench::engine::locate
