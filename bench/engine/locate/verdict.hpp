// From measured figures to named culprits. Pure: unit-tested on made-up figures.
//
// Comparisons, in order (each figure higher-is-better, judged by the outlier rule):
//   1. all_reduce arrival: each rank's punctuality, the median share of each all_reduce it
//      was already inside (the last to arrive waits least);
//   2. ranks over their intra-host pairs and over their inter-host pairs: the upper quartile
//      of a rank's pair bandwidths in that class. A pair runs at the pace of its slower end,
//      so this is what the rank itself can do while most of its partners are healthy, and one
//      bad partner (a bad link) barely moves it; a rank needs two pairs of the class (one
//      pair cannot tell its ends apart). Ranks are named one at a time, the clearest
//      first, and the pairs of a named rank are set aside before the rest are judged again,
//      so that a slow rank does not make its partners look slow;
//   3. intra-host pairs and 4. inter-host pairs, in GB/s;
//   5. host rings (all ranks of a host) and 6. rail rings (the same local rank on every host).
// A rank named by 2 but not by 1 is a suspect too: it is named only if its figure from its
// pairs measured alone is still an outlier; otherwise it is cleared and the ranking goes on
// without it.
// A rank named by 1 or 2 explains the pairs and groups it belongs to: those are set aside
// from 3-6, so one culprit is named once. A pair or ring found slow in 3-6 is a suspect: it
// is named only when, measured again alone (a Recheck), it is still an outlier against the
// same reference; one that is fast alone was slowed by the traffic beside it and is noted,
// not named. A suspect is measured alone beside a control (a healthy figure of the same
// comparison, measured alone in turn), so that both see the same conditions. A suspect that
// the confirmation phase had no time to measure is not named: a note says so. Pairs and
// rings are judged only where at least three figures are compared: of two, the lower cannot
// be told from noise. When every rank of a host is named (and there are other hosts), the
// host is named too.
// A named rank (or host) that the operating system descheduled far more often than the other
// ranks, or whose host lost far more of its CPU time to steal, has that as its finding's
// cause: CPU contention on its host, which an operator fixes there, not in the network.
#pragma once

#include <cstdint>
#include <vector>

#include "bench/engine/locate/outlier.hpp"
#include "bench/engine/locate/schedule.hpp"
#include "report/locate_record.hpp"

namespace collbench::engine::locate {

struct Arrival {
  double punctuality = 0;  // median over iterations of (time inside the call / longest time)
  double late_us = 0;      // median over iterations of how much later than the first it came
};

// A suspect pair or ring to measure again with nothing else running, and a healthy pair or
// ring of the same comparison (its control, empty when there is none) to measure alone in
// turn with it.
struct Suspect {
  std::vector<int> ranks;  // the pair's or the ring's ranks, as in its figure
  std::vector<int> control;
  bool operator==(const Suspect&) const = default;
};

// What the confirmation measured: the medians over alternations of the suspect's and the
// control's figures alone, and least_gap() of the alternations (how far below its control the
// suspect stayed in every one). A fault is there each time it is measured; a process the
// scheduler put beside the suspect for a while is not, so the suspect must be behind every
// time. Without a control, control_gbps and gap are 0.
struct Recheck {
  std::vector<int> ranks;
  double gbps = 0;
  std::vector<int> control;
  double control_gbps = 0;
  double gap = 0;
};

struct Measurements {
  std::vector<RankPlace> places;            // every rank
  std::vector<Arrival> arrivals;            // every rank; empty when the phase did not run
  std::vector<report::LocatePair> pairs;    // measured pairs
  std::vector<report::LocateGroup> groups;  // measured rings
  std::vector<Recheck> rechecks;            // suspects measured alone
  std::vector<report::LocateCpu> cpu;       // every rank, over the pairs to the rechecks; may be empty
  // The confirmation phase is over (ran, was cut or had no time): a suspect without a
  // recheck is then not named. Before it, decide() gives the provisional verdict whose
  // suspects the phase measures.
  bool confirmation_done = false;
};

struct Verdict {
  std::vector<report::LocateComparison> comparisons;
  std::vector<report::LocateFinding> findings;
  report::LocateVerdict verdict = report::LocateVerdict::kNothingCompared;
  // The pairs behind ranks that only their pairs accuse and that were not re-measured yet.
  std::vector<Suspect> recheck_pairs;
};

Verdict decide(const Measurements& m, const OutlierRule& rule);

// How far behind its control a suspect stayed, alternation by alternation (the same index in
// both): the smallest gap, leaving out alternations whose control ran at less than half the
// control's median (a stall of the machine under the control, which says nothing of the
// suspect). 0 when nothing was measured.
double least_gap(const std::vector<double>& alone_gbps, const std::vector<double>& control_gbps);

// What to measure alone before the final verdict: the pairs and rings decide() names, and the
// pairs behind each rank that only its pairs accuse.
std::vector<Suspect> suspects(const Verdict& v);

}  // namespace collbench::engine::locate
