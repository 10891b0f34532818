// The phases of `collbench locate` (phases.hpp) and what they share: one Budget, one state
// they hand on to each other (the plan, the schedule, the measurements, the report), and the
// steps every phase takes alike (agree on the clock, warm up, fit repetitions to the time
// left, gather every rank's row, record the phase). Phases talk to the job only through the
// Measurer, so the same phases run a real job and a simulated one.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "bench/engine/locate/budget.hpp"
#include "bench/engine/locate/locator.hpp"
#include "bench/engine/locate/measurer.hpp"
#include "bench/engine/locate/plan.hpp"
#include "bench/engine/locate/schedule.hpp"
#include "bench/engine/locate/verdict.hpp"
#include "report/locate_record.hpp"

namespace collbench::engine::locate {

// What one phase leaves for the next ones.
struct LocateState {
  report::LocateReport report;  // phases, notes, all_reduce sizes, pair and group figures
  Measurements measured;        // what the verdict judges
  PlanInputs inputs;            // the probe's cost models and the phases' repetitions
  LocatePlan plan;
  bool p2p_ok = true;  // false: the backend has no point-to-point exchange
  PairSchedule schedule;
  std::vector<Round> first_pass;  // pass_rounds(schedule, places, 0)
  std::vector<Group> host_rings;  // empty: not measured
  std::vector<Group> rail_rings;
  double p2p_cost_s = 0;  // cost per iteration of the last pair round (its slowest rank)
};

// What each rank reports after a step of pairs or rings, or a recheck. Every rank gathers
// every rank's row, so that every rank decides alike.
struct StepRow {
  double median_us = 0;  // this rank's median iteration time (0: it sat the step out)
  double cost_s = 0;     // what one iteration cost it, waits included
  double elapsed_s = 0;  // its clock, for the budget
  double stop = 0;       // 1 when it was asked to stop
};

// The clock and stop requests, agreed by every rank.
struct Agreed {
  double elapsed_s = 0;
  bool stop = false;
};
// A step's warm-up, agreed by every rank: what one iteration of it cost its slowest rank.
struct Warmed {
  double cost_s = 0;
  Agreed agreed;
};

// One fixed-size record per rank, gathered on every process: `held` has one per held rank.
template <typename Row>
requires std::is_trivially_copyable_v<Row> Result<std::vector<Row>> gather_rows(Measurer& m,
                                                                                const std::vector<Row>& held) {
  std::vector<Row> all(static_cast<std::size_t>(m.size()));
  COLLBENCH_RETURN_IF_ERROR(m.gather(std::as_bytes(std::span(held)), std::as_writable_bytes(std::span(all))));
  return all;
}

// The largest of one figure over the held ranks' samples.
template <typename F>
double most(const std::vector<LoopSamples>& held, F figure) {
  double v = 0;
  for (const LoopSamples& s : held) v = std::max(v, figure(s));
  return v;
}

// The latest clock and any stop request over the gathered rows of every rank.
template <typename Row>
Agreed agreed_over(const std::vector<Row>& rows) {
  Agreed a;
  for (const auto& x : rows) {
    a.elapsed_s = std::max(a.elapsed_s, x.elapsed_s);
    a.stop = a.stop || x.stop != 0;
  }
  return a;
}

// What one iteration of the step cost its slowest rank.
double slowest_cost_s(const std::vector<StepRow>& rows);

// How long a rank that sits a step out stays quiet: most of the step's expected length, so
// that it rarely makes the others wait for it.
double quiet_for(std::uint64_t warmup, std::uint64_t iterations, double cost_s);

std::string seconds_text(double s);  // "0.25 s"

// The steps every phase takes alike, over the shared Measurer, Budget and state.
class PhaseContext {
 public:
  PhaseContext(const LocateOptions& options, Measurer& m, Budget& budget, LocateState& state,
               const ProgressSink& progress)
      : options_(options), m_(m), held_(m.held()), budget_(budget), state_(state), progress_(progress) {}

  const LocateOptions& options() const { return options_; }
  Measurer& m() const { return m_; }
  Budget& budget() const { return budget_; }
  LocateState& state() const { return state_; }

  double elapsed() const { return m_.now_s(); }
  double stop_flag() const { return m_.stop_requested() ? 1.0 : 0.0; }
  Status interrupted() const;

  // One row per held rank, made by `row(rank, samples of that rank)`.
  template <typename Row, typename Make>
  std::vector<Row> held_rows(const std::vector<LoopSamples>& samples, Make row) const {
    std::vector<Row> rows;
    rows.reserve(samples.size());
    for (int h = 0; h < held_.count; ++h) rows.push_back(row(held_.first + h, samples[static_cast<std::size_t>(h)]));
    return rows;
  }

  // Every rank's clock and stop request, made common.
  Result<Agreed> agree();
  // A warm-up of `warmup` iterations (at least one) of the exchange `peers`.
  Result<Warmed> warm_up(std::uint64_t bytes, std::span<const RingPeers> peers, std::uint64_t warmup,
                         double previous_cost_s);
  // Repetitions for the next step, or 0 when the phase must stop.
  std::uint64_t next_iterations(const PhasePlan& plan, const Repetitions& reps, double deadline_s, double agreed_s,
                                int steps_left, double cost_s) const;
  // Repetitions fitted to what this step's warm-up cost (see phase.cpp).
  std::uint64_t step_iterations(const PhasePlan& plan, const Repetitions& reps, double deadline_s, const Warmed& w,
                                int steps_left) const;

  // Progress: how many steps the plan has, and one more done.
  void set_steps_total(std::size_t steps) { steps_total_ = steps; }
  void step_done(const std::string& what, std::uint64_t bytes);
  // The phase's line of the report's budget.
  void record_phase(const std::string& name, const PhasePlan& plan, double began_s, const std::string& cut);

 private:
  const LocateOptions& options_;
  Measurer& m_;
  const Held held_;
  Budget& budget_;
  LocateState& state_;
  const ProgressSink& progress_;
  std::size_t steps_done_ = 0;
  std::size_t steps_total_ = 0;
};

// A phase: run once, in step on every process, in the order of phases.hpp.
class Phase {
 public:
  virtual ~Phase() = default;
  virtual Status run(PhaseContext& ctx) = 0;
};

}  // namespace collbench::engine::locate
