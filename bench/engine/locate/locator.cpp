#include "bench/engine/locate/locator.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <span>
#include <type_traits>

#include "bench/engine/locate/job_measurer.hpp"
#include "bench/engine/locate/plan.hpp"
#include "bench/engine/locate/verdict.hpp"
#include "common/units.hpp"

namespace collbench::engine::locate {
namespace {

constexpr std::uint64_t kProbeIterations = 3;
constexpr std::uint64_t kProbeLargeBytes = 1u << 20;
constexpr double kReserveMinS = 0.5;  // verdict exchange and output
constexpr double kReserveShare = 0.03;
constexpr std::size_t kMaxRechecks = 16;  // pairs and rings measured alone, at most
constexpr int kAlternations = 3;          // each suspect and its control, measured alone in turn
constexpr double kSlowLinkFactor = 3.0;   // all_reduce per byte over the pairs' that means a slow link

// What each rank reports after an arrival phase, a step of pairs or rings, and a recheck.
// Every rank gathers every rank's row, so that every rank decides alike.
struct ArrivalRow {
  double punctuality = 0;  // median share of the step spent not waiting
  double late_us = 0;      // median lateness after the barrier
};
struct StepRow {
  double median_us = 0;  // this rank's median iteration time (0: it sat the step out)
  double cost_s = 0;     // what one iteration cost it, waits included
  double elapsed_s = 0;  // its clock, for the budget
  double stop = 0;       // 1 when it was asked to stop
};
struct RecheckRow {
  double median_us = 0;
  double elapsed_s = 0;
  double stop = 0;
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

double median_us(const std::vector<double>& samples) { return median_of(samples); }

// How long a rank that sits a step out stays quiet: most of the step's expected length, so
// that it rarely makes the others wait for it.
double quiet_for(std::uint64_t warmup, std::uint64_t iterations, double cost_s) {
  return 0.9 * static_cast<double>(warmup + iterations) * cost_s;
}

std::string phase_note(const PhasePlan& p) { return p.note; }

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g s", s);
  return buf;
}

class Locator {
 public:
  Locator(const LocateOptions& o, Measurer& m, const ProgressSink& progress)
      : o_(o), m_(m), held_(m.held()), progress_(progress) {}

  Result<report::LocateReport> run();

 private:
  struct Agreed {
    double elapsed_s = 0;
    bool stop = false;
  };
  // A step's warm-up, agreed by every rank: what one iteration of it cost its slowest rank.
  struct Warmed {
    double cost_s = 0;
    Agreed agreed;
  };
  // The latest clock and any stop request over the gathered rows of every rank.
  template <typename Row>
  static Agreed agreed_over(const std::vector<Row>& rows) {
    Agreed a;
    for (const auto& x : rows) {
      a.elapsed_s = std::max(a.elapsed_s, x.elapsed_s);
      a.stop = a.stop || x.stop != 0;
    }
    return a;
  }
  // What one iteration of the step cost its slowest rank.
  static double slowest_cost_s(const std::vector<StepRow>& rows) {
    double cost_s = 0;
    for (const auto& x : rows) cost_s = std::max(cost_s, x.cost_s);
    return cost_s;
  }

  double elapsed() const { return m_.now_s(); }
  double stop_flag() const { return m_.stop_requested() ? 1.0 : 0.0; }
  // One row per held rank, made by `row(rank, samples of that rank)`.
  template <typename Row, typename Make>
  std::vector<Row> held_rows(const std::vector<LoopSamples>& samples, Make row) const {
    std::vector<Row> rows;
    rows.reserve(samples.size());
    for (int h = 0; h < held_.count; ++h) rows.push_back(row(held_.first + h, samples[static_cast<std::size_t>(h)]));
    return rows;
  }
  Result<Agreed> agree();
  Status interrupted() const { return Status::error(ErrorCode::kInterrupted, "locate interrupted by a signal"); }

  Status probe();
  void make_plan();
  Status straggler();
  void replan_for_slowest_link();
  Status pairs();
  Result<Warmed> warm_up(std::uint64_t bytes, std::span<const RingPeers> peers, std::uint64_t warmup,
                         double previous_cost_s);
  std::uint64_t step_iterations(const PhasePlan& plan, const Repetitions& reps, double deadline_s, const Warmed& w,
                                int steps_left) const;
  Result<std::vector<StepRow>> pair_round(std::span<const RingPeers> peers, std::uint64_t bytes,
                                          std::uint64_t iterations);
  void note_round(const Round& round, int r, std::uint64_t iterations, const std::vector<StepRow>& rows);
  Status groups();
  // Returns false when the budget leaves no time for this kind of groups.
  Result<bool> group_kind(const std::vector<Group>& groups, const PhasePlan& plan, double deadline_s, int kinds_left,
                          Agreed& a, double& cost_s);
  Status confirm();
  Status gather_cpu(double began_s);
  Result<double> recheck(const std::vector<int>& members, std::uint64_t bytes, std::uint64_t iterations, double cost_s,
                         Agreed& a);
  double measured_cost_s(const std::vector<int>& members) const;
  void record_phase(const std::string& name, const PhasePlan& plan, double began_s, const std::string& cut);
  void step_done(const std::string& what, std::uint64_t bytes);
  // Repetitions for the next step, or 0 when the phase must stop.
  std::uint64_t next_iterations(const PhasePlan& plan, const Repetitions& reps, double deadline_s, double agreed_s,
                                int steps_left, double cost_s) const;

  const LocateOptions& o_;
  Measurer& m_;
  const Held held_;
  const ProgressSink& progress_;

  report::LocateReport report_;
  Measurements measured_;
  PlanInputs inputs_;
  LocatePlan plan_;
  bool p2p_ok_ = true;
  PairSchedule schedule_;
  std::vector<Round> first_pass_;  // pass_rounds(schedule_, places, 0)
  std::vector<Group> host_rings_;
  std::vector<Group> rail_rings_;
  double plan_start_s_ = 0;
  double p2p_cost_s_ = 0;  // cost per iteration of the last pair round (its slowest rank)
  std::map<std::pair<int, int>, report::LocatePair> pair_info_;
  std::map<std::pair<int, int>, std::vector<double>> pair_times_;  // per pass
  std::size_t steps_done_ = 0;
  std::size_t steps_total_ = 0;
};

Result<Locator::Agreed> Locator::agree() {
  std::array<double, 2> v = {elapsed(), stop_flag()};
  COLLBENCH_RETURN_IF_ERROR(m_.max(v));
  return Agreed{v[0], v[1] != 0};
}

std::uint64_t Locator::next_iterations(const PhasePlan& plan, const Repetitions& reps, double deadline_s,
                                       double agreed_s, int steps_left, double cost_s) const {
  const std::uint64_t fit = iterations_that_fit(deadline_s - agreed_s, steps_left, cost_s, inputs_.step_overhead_s,
                                                reps);
  return std::min(plan.iterations, fit);
}

Result<Locator::Warmed> Locator::warm_up(std::uint64_t bytes, std::span<const RingPeers> peers, std::uint64_t warmup,
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
std::uint64_t Locator::step_iterations(const PhasePlan& plan, const Repetitions& reps, double deadline_s,
                                       const Warmed& w, int steps_left) const {
  const std::uint64_t k = next_iterations(plan, reps, deadline_s, w.agreed.elapsed_s, steps_left, w.cost_s);
  if (k > 0) return k;
  return next_iterations(plan, reps, deadline_s, w.agreed.elapsed_s, 1, w.cost_s) > 0 ? reps.minimum : 0;
}

void Locator::step_done(const std::string& what, std::uint64_t bytes) {
  ++steps_done_;
  if (!progress_) return;
  report::Progress p;
  p.collective = "locate " + what;
  p.size_bytes = bytes;
  p.rows_done = steps_done_;
  p.rows_total = std::max(steps_total_, steps_done_);
  p.unit = "steps";
  p.elapsed_s = elapsed();
  p.estimated_total_s = plan_start_s_ + plan_.straggler.predicted_s + plan_.pairs.predicted_s +
                        plan_.groups.predicted_s;
  progress_(p);
}

void Locator::record_phase(const std::string& name, const PhasePlan& plan, double began_s, const std::string& cut) {
  report::LocatePhase ph;
  ph.name = name;
  ph.planned_s = plan.seconds;
  ph.spent_s = plan.skipped ? 0 : elapsed() - began_s;
  ph.status = plan.skipped ? "skipped" : (cut.empty() ? "done" : "cut");
  ph.note = plan.skipped ? phase_note(plan) : (cut.empty() ? phase_note(plan) : cut);
  report_.phases.push_back(std::move(ph));
}

Status Locator::probe() {
  const double began = elapsed();
  for (int i = 0; i < 3; ++i) COLLBENCH_RETURN_IF_ERROR(agree().status());
  const double overhead = (elapsed() - began) / 3;

  const std::uint64_t lo = o_.min_bytes;
  const std::uint64_t hi = std::max(lo, std::min(o_.max_bytes, kProbeLargeBytes));
  const auto per_iteration = [](const LoopSamples& s) { return s.elapsed_s / static_cast<double>(kProbeIterations); };
  COLLBENCH_ASSIGN_OR_RETURN(auto ar_lo, m_.all_reduce(lo, 1, kProbeIterations));
  COLLBENCH_ASSIGN_OR_RETURN(auto ar_hi, m_.all_reduce(hi, 1, kProbeIterations));
  ProbeFigures v;
  v[ProbeFigures::kOverheadS] = overhead;
  v[ProbeFigures::kAllReduceLoS] = most(ar_lo, per_iteration);
  v[ProbeFigures::kAllReduceHiS] = most(ar_hi, per_iteration);
  if (!first_pass_.empty()) {
    const std::vector<RingPeers> peers = peers_of(first_pass_.front(), m_.size());
    auto p_lo = m_.p2p(lo, peers, 1, kProbeIterations, 0);
    if (!p_lo.ok() && p_lo.status().code() != ErrorCode::kUnsupported) return p_lo.status();
    if (p_lo.ok()) {
      COLLBENCH_ASSIGN_OR_RETURN(auto p_hi, m_.p2p(hi, peers, 1, kProbeIterations, 0));
      v[ProbeFigures::kP2pLoS] = most(*p_lo, per_iteration);
      v[ProbeFigures::kP2pHiS] = most(p_hi, per_iteration);
    } else {
      v[ProbeFigures::kNoPointToPoint] = 1;
    }
  }
  v[ProbeFigures::kElapsedS] = elapsed();
  // Every rank plans from these same figures, so that every rank takes the same steps.
  COLLBENCH_RETURN_IF_ERROR(m_.max(v.values));
  plan_start_s_ = v[ProbeFigures::kElapsedS];
  inputs_.step_overhead_s = v[ProbeFigures::kOverheadS];
  inputs_.all_reduce = CostModel::fit(lo, v[ProbeFigures::kAllReduceLoS], hi, v[ProbeFigures::kAllReduceHiS]);
  inputs_.p2p = CostModel::fit(lo, v[ProbeFigures::kP2pLoS], hi, v[ProbeFigures::kP2pHiS]);
  p2p_ok_ = v[ProbeFigures::kNoPointToPoint] == 0;
  if (!p2p_ok_)
    report_.notes.push_back("the " + m_.backend_name() +
                            " backend has no point-to-point exchange: "
                            "pairs and split groups were not measured");
  PhasePlan done;
  done.seconds = elapsed() - began;
  record_phase("probe", done, began, "");
  return ok_status();
}

void Locator::make_plan() {
  const auto hosts = host_groups(o_.places);
  if (hosts.size() >= 2) {
    host_rings_ = measurable(hosts);
    rail_rings_ = measurable(rail_groups(o_.places));
    if (host_rings_.size() < 2) host_rings_.clear();
    if (rail_rings_.size() < 2) rail_rings_.clear();
  }
  inputs_.min_bytes = o_.min_bytes;
  inputs_.max_bytes = o_.max_bytes;
  inputs_.pair_rounds = p2p_ok_ ? static_cast<int>(first_pass_.size()) : 0;
  inputs_.group_kinds = p2p_ok_ ? (host_rings_.empty() ? 0 : 1) + (rail_rings_.empty() ? 0 : 1) : 0;
  const double reserve = std::max(kReserveMinS, kReserveShare * o_.budget_s);
  inputs_.seconds = std::max(0.0, o_.budget_s - plan_start_s_ - reserve);
  plan_ = plan_locate(inputs_);
  if (inputs_.pair_rounds > 0 && inputs_.group_kinds == 0 && hosts.size() >= 2) {
    plan_.groups.note = "no host or rail has two ranks to form a ring with another";
  }
  if (!p2p_ok_) {
    plan_.pairs.note = plan_.groups.note = "no point-to-point exchange in this backend";
  } else if (schedule_.sampled && !plan_.pairs.skipped) {
    const int inside = inside_leaf_rounds(o_.places, schedule_.rounds_per_pass);
    const std::string kind = inside > 0 ? " rounds of host pairs per pass (" + std::to_string(inside) +
                                              " inside leaf switches, " +
                                              std::to_string(schedule_.rounds_per_pass - inside) + " across them)"
                                        : " rounds of random host pairs per pass";
    const std::string sampled = "sampled: " + std::to_string(schedule_.rounds_per_pass) + kind + ", of the " +
                                std::to_string(schedule_.every_pair_rounds) + " that meeting every pair would take";
    plan_.pairs.note = plan_.pairs.note.empty() ? sampled : sampled + "; " + plan_.pairs.note;
    report_.notes.push_back("pairs " + sampled);
  }
  steps_total_ = plan_.straggler.sizes.size() + static_cast<std::size_t>(plan_.pairs.skipped ? 0 : plan_.pairs.steps) +
                 static_cast<std::size_t>(plan_.groups.skipped ? 0 : plan_.groups.steps);
}

Status Locator::straggler() {
  const PhasePlan& plan = plan_.straggler;
  const double began = elapsed();
  const double deadline = plan_start_s_ + plan.seconds;
  std::string cut;
  const auto held = static_cast<std::size_t>(held_.count);
  std::vector<std::vector<double>> shares(held);  // per held rank
  std::vector<std::vector<double>> lateness(held);
  double correction = 1;  // measured over predicted cost of the last size
  for (std::size_t s = 0; s < plan.sizes.size() && !plan.skipped; ++s) {
    COLLBENCH_ASSIGN_OR_RETURN(const Agreed a, agree());
    if (a.stop) return interrupted();
    const std::uint64_t bytes = plan.sizes[s];
    const double predicted = inputs_.all_reduce.at(bytes);
    const std::uint64_t k = next_iterations(plan, inputs_.straggler, deadline, a.elapsed_s,
                                            static_cast<int>(plan.sizes.size() - s), predicted * correction);
    if (k == 0) {
      cut = "cut by the budget after " + std::to_string(s) + " of " + std::to_string(plan.sizes.size()) + " sizes";
      break;
    }
    COLLBENCH_ASSIGN_OR_RETURN(const auto mine, m_.all_reduce(bytes, inputs_.straggler.warmup, k));
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
    COLLBENCH_RETURN_IF_ERROR(m_.max(longest));
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
    report::LocateSize size{bytes, k, median_us(longest), 0};
    const coll::Counts counts = coll::counts_for(coll::Collective::kAllReduce, bytes / 4, 4, m_.size());
    const double algbw = coll::algbw_gbps(coll::algbw_bytes(coll::Collective::kAllReduce, counts, 4, m_.size()),
                                          size.time_us * 1e-6);
    size.busbw_gbps = coll::busbw_gbps(coll::Collective::kAllReduce, algbw, m_.size());
    report_.all_reduce.push_back(size);
    step_done("all_reduce", bytes);
  }
  if (!shares.front().empty()) {
    std::vector<ArrivalRow> mine;
    for (std::size_t h = 0; h < held; ++h) mine.push_back({median_of(shares[h]), median_of(lateness[h])});
    COLLBENCH_ASSIGN_OR_RETURN(auto rows, gather_rows(m_, mine));
    for (const auto& r : rows) measured_.arrivals.push_back({r.punctuality, r.late_us});
  }
  record_phase("straggler", plan, began, cut);
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
void Locator::replan_for_slowest_link() {
  if (report_.all_reduce.empty() || plan_.pairs.skipped || m_.size() < 2) return;
  const report::LocateSize& last = report_.all_reduce.back();
  const double n = m_.size();
  const double per_byte = std::max(0.0, last.time_us * 1e-6 - inputs_.all_reduce.fixed_s) /
                          static_cast<double>(last.size_bytes);
  const double slowest_link = per_byte * n / (2 * (n - 1));
  const double ratio = slowest_link / std::max(inputs_.p2p.per_byte_s, 1e-15);
  if (ratio <= kSlowLinkFactor) return;
  inputs_.p2p.per_byte_s = slowest_link;
  const LocatePlan again = plan_locate(inputs_);
  plan_.pairs = again.pairs;
  plan_.confirm = again.confirm;
  if (!plan_.groups.skipped) plan_.groups = again.groups;
  report_.notes.push_back("the all_reduce crossed a link about " + std::to_string(std::llround(ratio)) +
                          "x slower than the first pairs: pairs and rings were planned again for it");
}

// One round of one pass: every rank exchanges with its partner (or sits out), then all
// learn every rank's median time, its cost per iteration, its clock and stop requests.
Result<std::vector<StepRow>> Locator::pair_round(std::span<const RingPeers> peers, std::uint64_t bytes,
                                                 std::uint64_t iterations) {
  COLLBENCH_ASSIGN_OR_RETURN(const auto mine,
                             m_.p2p(bytes, peers, 0, iterations, quiet_for(0, iterations, p2p_cost_s_)));
  const double now = elapsed();
  const double stop = stop_flag();
  return gather_rows(m_, held_rows<StepRow>(mine, [&](int, const LoopSamples& s) {
                       return StepRow{.median_us = median_us(s.iteration_us),
                                      .cost_s = s.elapsed_s / static_cast<double>(iterations),
                                      .elapsed_s = now,
                                      .stop = stop};
                     }));
}

// The slower end's median time of each pair of the round, kept per pass.
void Locator::note_round(const Round& round, int r, std::uint64_t iterations, const std::vector<StepRow>& rows) {
  for (const RankPair& p : round) {
    const std::pair<int, int> key{p.a, p.b};
    pair_times_[key].push_back(
        std::max(rows[static_cast<std::size_t>(p.a)].median_us, rows[static_cast<std::size_t>(p.b)].median_us));
    if (pair_info_.contains(key)) continue;
    report::LocatePair& lp = pair_info_[key];
    lp.a = p.a;
    lp.b = p.b;
    lp.inter_host = o_.places[static_cast<std::size_t>(p.a)].host != o_.places[static_cast<std::size_t>(p.b)].host;
    lp.round = r;
    lp.iterations = iterations;
  }
}

Status Locator::pairs() {
  const PhasePlan& plan = plan_.pairs;
  const double began = elapsed();
  const double deadline = plan_start_s_ + plan_.straggler.seconds + plan.seconds;
  std::string cut;
  const std::uint64_t bytes = plan.skipped ? 0 : plan.sizes.front();
  const int per_pass = static_cast<int>(first_pass_.size());
  report_.pair_bytes = bytes;
  report_.pair_rounds = per_pass;
  report_.pair_passes = plan.skipped ? 0 : plan.passes;
  p2p_cost_s_ = inputs_.p2p.at(bytes);
  std::vector<Round> this_pass;
  Agreed a;
  if (!plan.skipped) {
    COLLBENCH_ASSIGN_OR_RETURN(a, agree());
  }
  for (int step = 0; step < plan.steps && !plan.skipped; ++step) {
    if (a.stop) return interrupted();
    // Before the warm-up: does the time left hold the minimum at the last round's cost?
    if (next_iterations(plan, inputs_.pairs, deadline, a.elapsed_s, 1, p2p_cost_s_) == 0) {
      cut = "cut by the budget after " + std::to_string(step) + " of " + std::to_string(plan.steps) + " rounds";
      break;
    }
    const int r = step % per_pass;
    if (r == 0) this_pass = step == 0 ? first_pass_ : pass_rounds(schedule_, o_.places, step / per_pass);
    const Round& round = this_pass[static_cast<std::size_t>(r)];
    const std::vector<RingPeers> peers = peers_of(round, m_.size());
    COLLBENCH_ASSIGN_OR_RETURN(const Warmed w, warm_up(bytes, peers, inputs_.pairs.warmup, p2p_cost_s_));
    if (w.agreed.stop) return interrupted();
    p2p_cost_s_ = w.cost_s;
    const std::uint64_t fitted = step_iterations(plan, inputs_.pairs, deadline, w, plan.steps - step);
    if (fitted == 0) {
      cut = "cut by the budget after " + std::to_string(step) + " of " + std::to_string(plan.steps) +
            " rounds (the next round's warm-up took " + seconds_text(w.cost_s) + " per iteration)";
      break;
    }
    COLLBENCH_ASSIGN_OR_RETURN(auto rows, pair_round(peers, bytes, fitted));
    a = agreed_over(rows);
    p2p_cost_s_ = slowest_cost_s(rows);
    note_round(round, r, fitted, rows);
    report_.pair_steps_measured = step + 1;
    step_done("pairs", bytes);
  }
  for (auto& [key, lp] : pair_info_) {
    lp.passes = static_cast<int>(pair_times_[key].size());
    lp.time_us = median_of(pair_times_[key]);
    lp.gbps = lp.time_us > 0 ? static_cast<double>(bytes) / lp.time_us * 1e-3 : 0;
    measured_.pairs.push_back(lp);
  }
  record_phase("pairs", plan, began, cut);
  return ok_status();
}

// One kind of groups at once: a warm-up, repetitions fitted to it, the timed rings. Returns,
// agreed by all ranks, the clock and the cost per iteration of the slowest rank; false when
// the warm-up showed that the time left does not hold the minimum.
Result<bool> Locator::group_kind(const std::vector<Group>& groups, const PhasePlan& plan, double deadline_s,
                                 int kinds_left, Agreed& a, double& cost_s) {
  const std::uint64_t bytes = report_.group_bytes;
  const std::vector<RingPeers> peers = peers_of(groups, m_.size());
  COLLBENCH_ASSIGN_OR_RETURN(const Warmed w, warm_up(bytes, peers, inputs_.groups.warmup, cost_s));
  a = w.agreed;
  cost_s = w.cost_s;
  if (a.stop) return false;
  const std::uint64_t iterations = step_iterations(plan, inputs_.groups, deadline_s, w, kinds_left);
  if (iterations == 0) return false;
  COLLBENCH_ASSIGN_OR_RETURN(const auto mine, m_.p2p(bytes, peers, 0, iterations, quiet_for(0, iterations, cost_s)));
  const double now = elapsed();
  const double stop = stop_flag();
  COLLBENCH_ASSIGN_OR_RETURN(auto rows,
                             gather_rows(m_, held_rows<StepRow>(mine, [&](int rank, const LoopSamples& s) {
                                           const bool in = peers[static_cast<std::size_t>(rank)].send >= 0;
                                           return StepRow{.median_us = in ? median_us(s.iteration_us) : 0,
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
    measured_.groups.push_back(std::move(lg));
  }
  step_done(std::string(to_string(groups.front().kind)) + " rings", bytes);
  return true;
}

Status Locator::groups() {
  const PhasePlan& plan = plan_.groups;
  const double began = elapsed();
  const double deadline = plan_start_s_ + plan_.straggler.seconds + plan_.pairs.seconds + plan.seconds;
  std::string cut;
  report_.group_bytes = plan.skipped ? 0 : plan.sizes.front();
  std::vector<const std::vector<Group>*> kinds;
  if (!host_rings_.empty()) kinds.push_back(&host_rings_);
  if (!rail_rings_.empty()) kinds.push_back(&rail_rings_);
  double cost = inputs_.p2p.at(report_.group_bytes);
  Agreed a;
  if (!plan.skipped) {
    COLLBENCH_ASSIGN_OR_RETURN(a, agree());
  }
  for (std::size_t i = 0; i < kinds.size() && !plan.skipped; ++i) {
    if (a.stop) return interrupted();
    const int left = static_cast<int>(kinds.size() - i);
    bool measured = next_iterations(plan, inputs_.groups, deadline, a.elapsed_s, 1, cost) > 0;
    if (measured) {
      COLLBENCH_ASSIGN_OR_RETURN(measured, group_kind(*kinds[i], plan, deadline, left, a, cost));
    }
    if (a.stop) return interrupted();
    if (!measured) {
      cut = "cut by the budget after " + std::to_string(i) + " of " + std::to_string(kinds.size()) + " kinds of groups";
      break;
    }
  }
  record_phase("groups", plan, began, cut);
  return ok_status();
}

// Only the suspect's ranks exchange (a pair, or a ring over its members); the others keep step.
Result<double> Locator::recheck(const std::vector<int>& members, std::uint64_t bytes, std::uint64_t iterations,
                                double cost_s, Agreed& a) {
  const Group ring{GroupKind::kHost, "", members};
  const std::vector<RingPeers> peers = peers_of(std::span(&ring, 1), m_.size());
  COLLBENCH_ASSIGN_OR_RETURN(const auto mine, m_.p2p(bytes, peers, inputs_.pairs.warmup, iterations,
                                                     quiet_for(inputs_.pairs.warmup, iterations, cost_s)));
  const double now = elapsed();
  const double stop = stop_flag();
  COLLBENCH_ASSIGN_OR_RETURN(auto rows, gather_rows(m_, held_rows<RecheckRow>(mine,
                                                                              [&](int rank, const LoopSamples& s) {
    const bool in = peers[static_cast<std::size_t>(rank)].send >= 0;
    return RecheckRow{.median_us = in ? median_us(s.iteration_us) : 0, .elapsed_s = now, .stop = stop};
                                                    })));
  a = agreed_over(rows);
  double time_us = 0;
  for (int r : members) time_us = std::max(time_us, rows[static_cast<std::size_t>(r)].median_us);
  return time_us > 0 ? static_cast<double>(bytes) / time_us * 1e-3 : 0;
}

// What one iteration of a suspect cost when it was measured (every rank has the figures).
double Locator::measured_cost_s(const std::vector<int>& members) const {
  for (const auto& p : measured_.pairs) {
    if (members.size() == 2 && p.a == members[0] && p.b == members[1]) return p.time_us * 1e-6;
  }
  for (const auto& g : measured_.groups) {
    if (g.ranks == members) return g.time_us * 1e-6;
  }
  // A ring over a link's ranks runs at the pace of the slowest pair among them.
  double slowest_us = 0;
  for (const auto& p : measured_.pairs) {
    const auto in = [&](int r) { return std::find(members.begin(), members.end(), r) != members.end(); };
    if (in(p.a) && in(p.b)) slowest_us = std::max(slowest_us, p.time_us);
  }
  return slowest_us > 0 ? slowest_us * 1e-6 : p2p_cost_s_;
}

// Every rank holds every figure, so every rank finds the same suspects. Each suspect and its
// control are measured alone in turn, kAlternations times, so that a slow spell of the
// machine falls on both rather than on the suspect alone.
Status Locator::confirm() {
  PhasePlan plan = plan_.confirm;
  const double began = elapsed();
  const double deadline = plan_start_s_ + plan_.straggler.seconds + plan_.pairs.seconds + plan_.groups.seconds +
                          plan.seconds;
  measured_.places = o_.places;
  std::vector<Suspect> todo;
  if (!plan.skipped) todo = suspects(decide(measured_, o_.rule));
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
    COLLBENCH_ASSIGN_OR_RETURN(a, agree());
  }
  // The largest size (the pairs', halving, not below -b) at which this suspect's steps fit the
  // time left with the minimum repetitions: a suspect and its control are compared with each
  // other at one size, so a slow suspect can be rechecked smaller rather than not at all.
  const auto size_for = [&](const std::vector<int>& members) {
    const double at_pairs = measured_cost_s(members);
    const double model = std::max(inputs_.p2p.at(pair_bytes), 1e-9);
    std::uint64_t bytes = pair_bytes;
    while (bytes / 2 >= std::max<std::uint64_t>(o_.min_bytes, 4) &&
           next_iterations(plan, inputs_.pairs, deadline, a.elapsed_s, steps_left,
                           at_pairs * inputs_.p2p.at(bytes) / model) == 0) {
      bytes = bytes / 2 / 4 * 4;
    }
    return std::pair{bytes, at_pairs * inputs_.p2p.at(bytes) / model};
  };
  // One member measured alone at `bytes`; 0 when the budget is spent (the phase stops there).
  const auto measure = [&](const std::vector<int>& members, std::uint64_t bytes, double cost) -> Result<double> {
    if (a.stop) return interrupted();
    const std::uint64_t k = next_iterations(plan, inputs_.pairs, deadline, a.elapsed_s, steps_left, cost);
    if (k == 0) return 0.0;
    --steps_left;
    COLLBENCH_ASSIGN_OR_RETURN(const double gbps, recheck(members, bytes, k, cost, a));
    step_done("confirm", bytes);
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
    measured_.rechecks.push_back({todo[i].ranks, median_of(alone),
                                  control.empty() ? std::vector<int>{} : todo[i].control, median_of(control),
                                  least_gap(alone, control)});
  }
  measured_.confirmation_done = true;
  record_phase("confirm", plan, began, cut);
  return ok_status();
}

// Every rank's CPU figures over the pairs, rings and rechecks, for the verdict's causes.
Status Locator::gather_cpu(double began_s) {
  COLLBENCH_ASSIGN_OR_RETURN(const auto rows, gather_rows(m_, m_.cpu_since_mark(elapsed() - began_s)));
  for (std::size_t r = 0; r < rows.size(); ++r) {
    measured_.cpu.push_back({.rank = static_cast<int>(r),
                             .involuntary_switches = rows[r].involuntary_switches,
                             .steal_share = rows[r].steal_share});
  }
  report_.cpu = measured_.cpu;
  return ok_status();
}

Result<report::LocateReport> Locator::run() {
  report_.budget_s = o_.budget_s;
  PhasePlan setup;
  setup.seconds = elapsed();
  record_phase("setup", setup, 0, "");
  schedule_ = choose_pair_schedule(o_.places);
  first_pass_ = locate::pass_rounds(schedule_, o_.places, 0);
  COLLBENCH_RETURN_IF_ERROR(m_.allocate(std::max(o_.max_bytes, o_.min_bytes)));
  COLLBENCH_RETURN_IF_ERROR(probe());
  make_plan();
  COLLBENCH_RETURN_IF_ERROR(straggler());
  replan_for_slowest_link();
  m_.mark_cpu();
  const double cpu_began_s = elapsed();
  COLLBENCH_RETURN_IF_ERROR(pairs());
  COLLBENCH_RETURN_IF_ERROR(groups());
  COLLBENCH_RETURN_IF_ERROR(confirm());
  COLLBENCH_RETURN_IF_ERROR(gather_cpu(cpu_began_s));

  const double began = elapsed();
  if (held_.first == 0) {
    Verdict v = decide(measured_, o_.rule);
    report_.comparisons = std::move(v.comparisons);
    report_.findings = std::move(v.findings);
    report_.verdict = v.verdict;
    report_.pairs = measured_.pairs;
    report_.groups = measured_.groups;
    report_.rule = {.threshold_mads = o_.rule.threshold_mads,
                    .mad_floor = o_.rule.mad_floor,
                    .min_gap = o_.rule.min_gap,
                    .decisive_gap = o_.rule.decisive_gap,
                    .decisive_mads = o_.rule.decisive_mads,
                    .decisive_others = static_cast<int>(o_.rule.decisive_others)};
  }
  PhasePlan verdict;
  verdict.seconds = std::max(kReserveMinS, kReserveShare * o_.budget_s);
  record_phase("verdict", verdict, began, "");
  report_.spent_s = elapsed();
  return report_;
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
  Locator locator(options, m, progress);
  return locator.run();
}

}  // namespace collbench::engine::locate
