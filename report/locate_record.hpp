// What `collbench locate` measured and concluded: every rank, the figures of each phase, the
// comparisons behind the verdict, the findings and how the budget was spent. Plain data for
// the text and JSON reporters (report/documents/schema/locate.schema.json, docs/locate.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "report/job_header.hpp"

namespace collbench::report {

inline constexpr int kLocateSchemaVersion = 1;
inline constexpr const char* kLocateSchemaName = "collbench.locate";

struct LocateRank {
  int rank = 0;
  std::string host;
  int local_rank = 0;
  std::string device;       // "cpu" or "cuda:N"
  std::string device_name;  // GPU name or CPU set
  std::string pci_bus_id;
  std::string gpu;   // "GPU2 (0000:1b:00.0)" from the host's topology; empty when unknown
  std::string nic;   // the GPU's nearest NIC ("mlx5_1"); empty when unknown
  std::string leaf;  // the switch its host is cabled to (locate --fabric); empty when unknown
};

// The outlier rule, as applied (see bench/engine/locate/outlier.hpp).
struct LocateRule {
  double threshold_mads = 0;
  double mad_floor = 0;
  double min_gap = 0;
  // A rank at least this far below (gap and MADs both) is named without a recheck.
  double decisive_gap = 0;
  double decisive_mads = 0;
  // How many other figures the decisive gap needs.
  int decisive_others = 0;
};

// A measured figure shown beside the compared one ("gbps", "late_us", ...).
struct LocateDetail {
  std::string name;
  double value = 0;
};

// What measuring a suspect again alone concluded (bench/engine/locate/verdict.cpp, docs/locate.md).
enum class LocateRecheck {
  kNone,          // not a suspect; or one before the confirmation phase, which measures it
  kConfirmed,     // still an outlier alone: named
  kNotConfirmed,  // fast alone: slowed by the traffic beside it, not named
  kNotMeasured,   // the budget left no time to measure it alone: not named
  kDecisive,      // far enough below enough others to be named without a recheck
};
// The locate document's names: "confirmed", "not_confirmed", "not_measured", "decisive"; ""
// for kNone, which the document writes as null.
const char* to_string(LocateRecheck r);
// Every state, for the schema's test and any reader of the names.
inline constexpr LocateRecheck kLocateRechecks[] = {LocateRecheck::kNone, LocateRecheck::kConfirmed,
                                                    LocateRecheck::kNotConfirmed, LocateRecheck::kNotMeasured,
                                                    LocateRecheck::kDecisive};

// One figure in one comparison: a rank, pair, host or rail.
struct LocateFigure {
  std::string label;  // "rank 2", "pair 0-3", "host node7", "rail local rank 1"
  std::vector<int> ranks;
  std::vector<std::string> hosts;
  double value = 0;  // the compared figure; higher is better
  std::vector<LocateDetail> details;
  bool judged = false;    // false: set aside, or nothing to compare with
  std::string set_aside;  // why it was left out of the comparison
  double reference = 0;   // median of the others
  double spread = 0;      // their MAD, raised to the floor
  double distance_mads = 0;
  double gap = 0;  // fraction below the reference
  bool outlier = false;
  // A suspect measured again alone (its figure then in details as "alone_gbps"), or why not.
  LocateRecheck recheck = LocateRecheck::kNone;
};

struct LocateComparison {
  std::string name;       // "all_reduce arrival", "ranks over their intra-host pairs", ...
  std::string phase;      // "straggler", "pairs", "groups"
  std::string subject;    // "rank", "pair", "host", "rail", "switch"
  std::string metric;     // "punctuality", "rank_pair_gbps", "p2p_gbps", "ring_gbps", "uplink_share"
  std::string unit;       // "share", "GB/s"
  bool compared = false;  // false: fewer than two figures to compare
  std::string note;
  std::vector<LocateFigure> figures;
};

// One comparison that named a culprit: its figure there against the others'.
struct LocateEvidence {
  std::string figure;      // the figure's label there: "rank 2", "pair 0-3", "host node7"
  std::string comparison;  // LocateComparison::name
  std::string metric;
  std::string unit;
  double value = 0;
  double reference = 0;  // NaN where there is none ("every rank of the host named")
  double distance_mads = 0;
  double gap = 0;
};

// A culprit: a rank, pair, link, host or rail found far below the rest. One finding per
// culprit: a culprit named by several comparisons (a rank by its arrival and by its pairs; a
// host whose every rank was named) is one finding with each comparison in `evidence`, the
// first of which the flat fields repeat.
struct LocateFinding {
  std::string subject;  // "rank", "pair", "link", "host", "rail", "switch"
  std::string label;
  std::vector<int> ranks;
  std::vector<std::string> hosts;
  std::string comparison;  // evidence.front(), for readers of the flat fields
  std::string metric;
  std::string unit;
  double value = 0;
  double reference = 0;
  double distance_mads = 0;
  double gap = 0;
  std::vector<LocateEvidence> evidence;
  // Why, where the measurements say: "descheduled 3412 times during the pairs (others: 40):
  // CPU contention on its host, not the network"; empty otherwise.
  std::string cause;
};

// What the operating system kept from one rank while the pairs, rings and rechecks ran
// (common/cpu_usage.hpp).
struct LocateCpu {
  int rank = 0;
  double involuntary_switches = 0;  // the rank's thread, preempted by another runnable task
  double steal_share = 0;           // its host's steal time over its CPU time; NaN when unknown
};

// A finding for `subject`/`label` from one piece of evidence (the flat fields are its copy).
LocateFinding make_finding(std::string subject, std::string label, std::vector<int> ranks,
                           std::vector<std::string> hosts, const LocateEvidence& first);

struct LocateSize {  // one size of the straggler phase's all_reduce sweep
  std::uint64_t size_bytes = 0;
  std::uint64_t iterations = 0;
  double time_us = 0;  // median over iterations of the slowest rank's time
  double busbw_gbps = 0;
};

struct LocatePair {
  int a = 0;
  int b = 0;
  bool inter_host = false;
  int round = 0;                 // in the first pass that measured it
  int passes = 0;                // passes that measured it
  std::uint64_t iterations = 0;  // per pass
  double time_us = 0;            // median over passes of the slower end's median per-iteration time
  double gbps = 0;               // bytes each way per second
};

struct LocateGroup {
  std::string kind;  // "host", "rail"
  std::string label;
  std::vector<int> ranks;
  std::uint64_t iterations = 0;
  double time_us = 0;  // median per-iteration time of the slowest member
  double gbps = 0;     // bytes each rank sends per second
};

struct LocatePhase {
  std::string name;    // "setup", "probe", "straggler", "pairs", "groups", "verdict"
  std::string status;  // "done", "cut", "skipped"
  double planned_s = 0;
  double spent_s = 0;
  std::string note;
};

enum class LocateVerdict { kNoOutlier, kOutlier, kNothingCompared };
const char* to_string(LocateVerdict v);  // "no_outlier", "outlier", "nothing_compared"

struct LocateReport {
  JobHeader job;
  std::vector<LocateRank> ranks;

  double budget_s = 0;
  double spent_s = 0;
  std::vector<LocatePhase> phases;

  std::vector<LocateSize> all_reduce;
  std::uint64_t pair_bytes = 0;
  int pair_rounds = 0;          // rounds of one round-robin pass
  int pair_passes = 0;          // passes planned
  int pair_steps_measured = 0;  // rounds measured over all passes
  std::vector<LocatePair> pairs;
  std::uint64_t group_bytes = 0;
  std::vector<LocateGroup> groups;

  LocateRule rule;
  std::vector<LocateComparison> comparisons;
  std::vector<LocateFinding> findings;
  std::vector<LocateCpu> cpu;  // one per rank; empty when the pairs did not run
  LocateVerdict verdict = LocateVerdict::kNothingCompared;
  std::vector<std::string> notes;
};

}  // namespace collbench::report
