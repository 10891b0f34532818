// Plain records that the engine produces and reporters format (the Google Benchmark split).
// No engine, backend or vendor types appear here: names are strings, numbers are numbers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "report/expect_record.hpp"

namespace collbench::report {

inline constexpr int kRunSchemaVersion = 1;
inline constexpr const char* kRunSchemaName = "collbench.run";

// Statistics of per-iteration times in microseconds: each rank's own statistics of its
// iterations, then each figure the largest over ranks (a collective is as slow as its slowest
// rank). Present where iterations were timed one by one: always on host memory, with -I 1 on
// GPUs (nccl-tests puts no event between launches by default).
struct TimeStats {
  std::uint64_t samples = 0;
  double mean_us = 0;
  double median_us = 0;
  double min_us = 0;
  double max_us = 0;
  double p95_us = 0;
  double p99_us = 0;
  double stdev_us = 0;
  double cv = 0;  // stdev / mean
  // Half-width of the distribution-free 95% confidence interval of the median, relative to
  // the median: how well the median is known (0 with too few samples to say).
  double median_ci95_rel = 0;
  // The share of iterations more than twice the median: what pulls a mean off the median.
  double far_share = 0;
};

struct Mismatch {
  int rank = 0;
  std::string host;
  std::uint64_t index = 0;  // element index in that rank's receive buffer
  double expected = 0;
  double got = 0;  // may be NaN or infinite
};

enum class Placement { kOutOfPlace, kInPlace };
const char* to_string(Placement p);  // "out_of_place" / "in_place"

// One placement of one size.
struct Measurement {
  Placement placement = Placement::kOutOfPlace;
  std::uint64_t iterations = 0;
  // nccl-tests' headline: elapsed time of the timed loop / iterations on each rank, then
  // combined across ranks as -a/--average selects (see RunConfig::average).
  double time_us = 0;
  TimeStats per_iteration;
  double algbw_gbps = 0;
  double busbw_gbps = 0;
  bool checked = false;              // false with -c 0
  std::uint64_t wrong = 0;           // wrong elements, summed over ranks and check iterations
  std::vector<Mismatch> mismatches;  // the first few, across ranks
  int slowest_rank = 0;              // the rank whose own mean time was largest
  std::string slowest_host;
  double slowest_rank_time_us = 0;
  // With -I 1: every rank's time of each iteration in microseconds, in rank order, the first
  // -K iterations included; empty otherwise. nccl-tests' JSON lists them (times_us and
  // per_process_max_times_us); the run document keeps only the statistics above.
  std::vector<std::vector<double>> rank_iteration_us;
};

// One row of the nccl-tests table: a (collective, type, op, root, size) and its placements.
struct SizeRecord {
  std::string collective;
  std::string dtype;
  std::string op;                       // "none" for collectives without a reduction
  int root = -1;                        // -1 for collectives without a root
  std::uint64_t size_bytes = 0;         // nccl-tests' size column: max(send, recv) bytes
  std::uint64_t count = 0;              // the count passed to the library
  std::vector<Measurement> placements;  // out-of-place first
  std::optional<std::string> skipped;   // why this row did not run (then placements is empty)
  // When the row finished, in local time as "YYYY-MM-DD HH:MM:SS": nccl-tests' -S column.
  std::string finished_local;
};

struct RankInfo {
  int rank = 0;
  std::string host;
  long pid = 0;
  int local_rank = 0;
  std::string device;                     // "cpu" or "cuda:N"
  std::string device_name;                // GPU name, or the CPU set for host memory
  std::string pci_bus_id;                 // empty for host memory
  std::uint64_t device_memory_bytes = 0;  // the GPU's memory; 0 for host memory
};

// The precision-driven mode's bounds (the default when -n is not given): each size and
// placement is timed until the median is known within target_spread, between the limits.
struct PrecisionConfig {
  double min_time_s = 0;
  double max_time_s = 0;
  double target_spread = 0;  // relative half-width of the median's 95% confidence interval
  std::uint64_t min_iterations = 0;
  std::uint64_t max_iterations = 0;
};

// Where each timed operation's buffers lie. Rotated (the default): operation k moves both
// buffers by k times its own size through the allocation, wrapping (a row larger than half of
// it stays put), as nccl-tests does and IMB with -off_cache; a row then meets colder caches
// and new addresses. Fixed (--fixed-buffers): the same addresses every time, as OSU does and
// IMB by default, so that a small row runs from warm caches.
enum class BufferPolicy { kRotated, kFixed };
const char* to_string(BufferPolicy p);  // "rotated" / "fixed"
std::optional<BufferPolicy> buffer_policy_from(std::string_view name);

struct BufferConfig {
  BufferPolicy policy = BufferPolicy::kRotated;
  std::uint64_t bytes_per_buffer = 0;  // each of send and receive; what the rotation moves through
};

struct RunConfig {
  std::vector<std::string> collectives;
  std::vector<std::string> dtypes;
  std::vector<std::string> ops;
  int root = 0;
  std::uint64_t min_bytes = 0;
  std::uint64_t max_bytes = 0;
  std::uint64_t step_factor = 0;  // 0 when stepping by bytes
  std::uint64_t step_bytes = 0;   // 0 when stepping by factor
  std::uint64_t iterations = 0;   // 0: precision-driven (see precision)
  std::optional<PrecisionConfig> precision;
  std::uint64_t warmup_iterations = 0;
  std::uint64_t check_iterations = 0;
  int average = 1;   // 0 rank 0, 1 mean, 2 min, 3 max over ranks
  int blocking = 0;  // nccl-tests -z
  std::uint64_t run_cycles = 1;
  double timeout_s = 0;
  std::uint64_t seed = 0;
  bool malloc_keep = false;             // --malloc-keep: large allocations reused instead of mapped afresh
  int gpus_per_process = 1;             // nccl-tests -g: ranks (one GPU each) per process
  std::uint64_t aggregation = 1;        // nccl-tests -m: operations per group
  std::uint64_t graph_launches = 0;     // nccl-tests -G: replays of the captured iterations
  int buffer_registration = 0;          // nccl-tests -R: 1 when buffers are registered with NCCL
  bool per_iteration_timing = false;    // nccl-tests -I 1: the table's per-iteration columns
  bool report_timestamps = false;       // nccl-tests -S 1: the table's timestamp column
  std::optional<BufferConfig> buffers;  // absent in run files written before it was recorded
  // Known while a run runs, for nccl-tests' JSON; the run document does not record them.
  std::uint64_t per_iter_skip = 0;  // nccl-tests -K: leading iterations the statistics skip
  double min_busbw_gbps = 0;        // NCCL_TESTS_MIN_BW; 0: unchecked
};

// The bus bandwidth the job's placement can reach at most (topo/busbw_bound.hpp): the table's
// "% of expected" line.
struct ExpectedBusbw {
  double gbps = 0;         // 0: unknown
  std::string bottleneck;  // the slowest link of the ring, named; or why the bound is unknown
};

struct RunContext {
  std::string tool_version;
  std::string git_commit;
  std::string start_time;  // ISO 8601, UTC
  std::vector<std::string> argv;
  std::vector<std::pair<std::string, std::string>> env;  // allow-listed variables only
  std::string bootstrap;                                 // "mpi", "env", "single"
  std::string backend;                                   // "mpi", "nccl"
  std::string backend_library;                           // e.g. "Open MPI v4.1.4"
  std::string memory;                                    // "host" or "device"
  // The backend's library allocates a message-sized host temporary on every call (its entry's
  // feature, bench/backend/backend_entry.hpp): from glibc's mmap threshold each call maps it afresh
  // and pays its page faults unless config.malloc_keep. How a drop there is explained.
  bool allocates_per_call = false;
  int nranks = 1;
  std::vector<std::string> hosts;  // distinct host names, in rank order of first appearance
  std::vector<RankInfo> ranks;
  // Each host's topology as a "collbench.topology" JSON document (docs/topology.md), by host
  // name; empty when discovery was not possible.
  std::vector<std::pair<std::string, std::string>> topologies;
  RunConfig config;
  // The last-level CPU cache of rank 0's host, in bytes (0: unknown): to tell a cache cliff
  // on host memory from an anomaly.
  std::uint64_t llc_bytes = 0;
  std::optional<ExpectedBusbw> expected_busbw;  // absent: not computed (-J files before it)
  // Run as an nccl-tests binary (all_reduce_perf): the table names its section as upstream
  // names it, after the program. Not part of the run document.
  bool drop_in = false;
};

enum class RunStatus { kOk, kWrongData, kIncomplete, kInterrupted, kTimeout, kError };
const char* to_string(RunStatus s);  // "ok", "wrong_data", "incomplete", ...

// What an anomaly is (analysis/anomalies.hpp has the rules).
enum class AnomalyKind {
  kDrop,    // from a size on, far below the best of the smaller sizes
  kDip,     // one size far below both neighbours
  kSpread,  // scattered iterations pull the headline time off the median
  kCache,   // a drop where the ranks' data leaves the last-level cache (explained)
};
// The run document's names ("drop", "dip", "spread", "cache"), one table read by the writer
// and the reader alike.
const char* to_string(AnomalyKind k);
// Every kind, in the order a series' findings are reported.
inline constexpr AnomalyKind kAnomalyKinds[] = {AnomalyKind::kDrop, AnomalyKind::kDip, AnomalyKind::kSpread,
                                                AnomalyKind::kCache};

// Rows that do not look like the rows around them, with the likely cause where known; one
// finding of one kind in one series, however many sizes it covers.
struct Anomaly {
  std::string collective;
  std::string dtype;
  std::string op;
  int root = -1;
  std::uint64_t size_bytes = 0;      // the first size
  std::vector<std::uint64_t> sizes;  // every size of the finding, ascending
  std::string placement;             // "out_of_place", "in_place" or "both"
  AnomalyKind kind = AnomalyKind::kDrop;
  bool explained = false;  // the cause is known and expected: a note, not an anomaly
  std::string message;     // one line, with the likely cause
};

struct RunSummary {
  RunStatus status = RunStatus::kIncomplete;
  std::string end_time;
  std::optional<std::string> error;  // the one-line error that ended the run, if any
  double peak_busbw_gbps = 0;
  std::uint64_t peak_size_bytes = 0;
  std::string peak_placement;
  double avg_busbw_gbps = 0;  // nccl-tests' "Avg bus bandwidth"
  std::uint64_t total_wrong = 0;
  std::uint64_t out_of_bounds = 0;  // nccl-tests: number of (row, placement) checks that failed
  std::vector<Anomaly> anomalies;
  std::uint64_t max_rss_bytes = 0;              // the largest peak resident memory of any rank; 0: unknown
  std::vector<ExpectationResult> expectations;  // --expect's verdicts, in the file's order; empty without
};

// Summary figures computed from rows (shared by every reporter).
RunSummary summarize(const std::vector<SizeRecord>& rows);

}  // namespace collbench::report
