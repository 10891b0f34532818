#include "bench/cli/wiring/run_flags.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>

#include "bench/cli/wiring/adapter_registry.hpp"
#include "common/strings.hpp"
#include "common/units.hpp"
#include "report/references.hpp"

namespace collbench::cli {
namespace {

constexpr std::uint64_t kMaxFaultRank = 1u << 24;  // as -r/--root
constexpr std::uint64_t kMaxFaultDelayUs = 3600ull * 1000 * 1000;
constexpr double kMaxTimeoutS = 1e6;

// Prefixes a parse error with the flag it belongs to: "-b/--minbytes: '12X' is not a size".
template <typename T>
Result<T> flag(std::string_view name, Result<T> parsed) {
  if (parsed.ok()) return parsed;
  return Status::error(parsed.status().code(), std::string(name) + ": " + parsed.status().message());
}

Result<std::uint64_t> ranged(std::string_view name, const std::string& text, std::uint64_t lo, std::uint64_t hi) {
  COLLBENCH_ASSIGN_OR_RETURN(std::uint64_t v, flag(name, parse_uint(text)));
  if (v < lo || v > hi) {
    return Status::error(ErrorCode::kUsage, std::string(name) + ": " + text + " is out of range (" +
                                                std::to_string(lo) + "-" + std::to_string(hi) + ")");
  }
  return v;
}

Status only_value(std::string_view name, const std::string& text, std::string_view supported, std::string_view why) {
  if (text == supported) return ok_status();
  return Status::error(ErrorCode::kUnsupported,
                       std::string(name) + " " + text + " is not supported yet: " + std::string(why));
}

Result<std::vector<coll::Collective>> parse_collectives(const std::vector<std::string>& names) {
  std::vector<coll::Collective> out;
  for (const auto& name : names) {
    if (name == "all") {
      for (const auto& t : coll::all_collectives()) out.push_back(t.collective);
      continue;
    }
    COLLBENCH_ASSIGN_OR_RETURN(auto c, coll::parse_collective(name));
    out.push_back(c);
  }
  if (out.empty()) out.push_back(coll::Collective::kAllReduce);
  return out;
}

// nccl-tests' stepping: a factor above 1 wins; otherwise sizes grow by -i bytes (1M by default).
Status resolve_nccl_tests_steps(const RawRunFlags& raw, engine::RunOptions& o) {
  COLLBENCH_ASSIGN_OR_RETURN(const auto factor,
                             flag("-f/--stepfactor", parse_uint(raw.step_factor.empty() ? "1" : raw.step_factor)));
  COLLBENCH_ASSIGN_OR_RETURN(const auto step,
                             flag("-i/--stepbytes", parse_size(raw.step_bytes.empty() ? "1M" : raw.step_bytes)));
  o.step_factor = factor > 1 ? factor : 0;
  o.step_bytes = factor > 1 ? 0 : std::max<std::uint64_t>(step, 1);
  return ok_status();
}

// collbench's stepping: a factor of at least 2 (2 by default), or bytes, never both.
Status resolve_steps(const RawRunFlags& raw, engine::RunOptions& o) {
  if (!raw.step_factor.empty() && !raw.step_bytes.empty()) {
    return Status::error(ErrorCode::kUsage, "-f/--stepfactor and -i/--stepbytes exclude each other; give one");
  }
  o.step_factor = 2;
  o.step_bytes = 0;
  if (!raw.step_bytes.empty()) {
    o.step_factor = 0;
    COLLBENCH_ASSIGN_OR_RETURN(o.step_bytes, flag("-i/--stepbytes", parse_size(raw.step_bytes)));
    if (o.step_bytes == 0) return Status::error(ErrorCode::kUsage, "-i/--stepbytes: must be at least 1 byte");
  }
  if (!raw.step_factor.empty()) {
    COLLBENCH_ASSIGN_OR_RETURN(o.step_factor, flag("-f/--stepfactor", parse_uint(raw.step_factor)));
    if (o.step_factor <= 1) {
      return Status::error(ErrorCode::kUsage, "-f/--stepfactor: " + raw.step_factor + " must be at least 2");
    }
  }
  return ok_status();
}

Status resolve_sizes(const RawRunFlags& raw, engine::RunOptions& o) {
  COLLBENCH_ASSIGN_OR_RETURN(o.min_bytes, flag("-b/--minbytes", parse_size(raw.min_bytes)));
  COLLBENCH_ASSIGN_OR_RETURN(o.max_bytes, flag("-e/--maxbytes", parse_size(raw.max_bytes)));
  COLLBENCH_RETURN_IF_ERROR(raw.nccl_tests_stepping ? resolve_nccl_tests_steps(raw, o) : resolve_steps(raw, o));
  if (o.min_bytes > o.max_bytes) {
    return Status::error(ErrorCode::kUsage,
                         "-b/--minbytes " + raw.min_bytes + " is larger than -e/--maxbytes " + raw.max_bytes);
  }
  return ok_status();
}

// "2%" or "0.02".
Result<double> parse_fraction(std::string_view name, std::string text) {
  const bool percent = !text.empty() && text.back() == '%';
  if (percent) text.pop_back();
  COLLBENCH_ASSIGN_OR_RETURN(double v, flag(name, parse_double(text)));
  if (percent) v /= 100;
  if (v <= 0 || v >= 1) return Status::error(ErrorCode::kUsage, std::string(name) + ": must be between 0% and 100%");
  return v;
}

Status resolve_precision(const RawRunFlags& raw, engine::Precision& p) {
  COLLBENCH_ASSIGN_OR_RETURN(p.min_time_s, flag("--min-time", parse_double(raw.min_time)));
  COLLBENCH_ASSIGN_OR_RETURN(p.max_time_s, flag("--max-time", parse_double(raw.max_time)));
  if (p.min_time_s < 0 || p.max_time_s <= 0 || p.min_time_s > p.max_time_s) {
    return Status::error(ErrorCode::kUsage, "--min-time " + raw.min_time + " / --max-time " + raw.max_time +
                                                ": need 0 <= min-time <= max-time and max-time > 0");
  }
  COLLBENCH_ASSIGN_OR_RETURN(p.target_spread, parse_fraction("--target-spread", raw.target_spread));
  COLLBENCH_ASSIGN_OR_RETURN(p.max_iterations, ranged("--max-iters", raw.max_iterations, 1, 1u << 30));
  p.min_iterations = std::min(p.min_iterations, p.max_iterations);
  return ok_status();
}

Status resolve_loops(const RawRunFlags& raw, engine::RunOptions& o) {
  o.iterations = 0;
  if (!raw.iterations.empty()) {
    COLLBENCH_ASSIGN_OR_RETURN(o.iterations, ranged("-n/--iters", raw.iterations, 1, 1u << 30));
  }
  COLLBENCH_RETURN_IF_ERROR(resolve_precision(raw, o.precision));
  COLLBENCH_ASSIGN_OR_RETURN(o.warmup_iterations, ranged("-w/--warmup_iters", raw.warmup, 0, 1u << 30));
  COLLBENCH_ASSIGN_OR_RETURN(o.check_iterations, ranged("-c/--check", raw.check, 0, 1u << 20));
  COLLBENCH_ASSIGN_OR_RETURN(auto avg, ranged("-a/--average", raw.average, 0, 3));
  o.average = static_cast<engine::Average>(avg);
  COLLBENCH_ASSIGN_OR_RETURN(auto blocking, ranged("-z/--blocking", raw.blocking, 0, 3));
  o.blocking = static_cast<engine::Blocking>(blocking);  // 0..3 are its values, by number
  COLLBENCH_ASSIGN_OR_RETURN(o.run_cycles, ranged("-N/--run_cycles", raw.run_cycles, 0, 1u << 30));
  o.all_roots = raw.root == "all";
  if (!o.all_roots) {
    COLLBENCH_ASSIGN_OR_RETURN(auto root, ranged("-r/--root", raw.root, 0, 1u << 24));
    o.root = static_cast<int>(root);
  }
  COLLBENCH_ASSIGN_OR_RETURN(o.seed, flag("--seed", parse_uint(raw.seed)));
  return ok_status();
}

Status resolve_compat(const RawRunFlags& raw) {
  // -p (parallel init) only matters with several threads per process: accepted, ignored.
  COLLBENCH_RETURN_IF_ERROR(ranged("-p/--parallel_init", raw.parallel_init, 0, 1).status());
  COLLBENCH_RETURN_IF_ERROR(only_value("-C/--report_cputime", raw.report_cputime, "0", "the table reports wall time"));
  COLLBENCH_RETURN_IF_ERROR(only_value("-M/--memory_report", raw.memory_report, "0", "no memory report"));
  COLLBENCH_RETURN_IF_ERROR(only_value("-u/--unalign", raw.unalign, "0", "buffers are always aligned"));
  return ok_status();
}

// -I, -K, -S: per-iteration timing and the table's timestamp column, as nccl-tests has them.
Status resolve_reporting(const RawRunFlags& raw, engine::RunOptions& o, std::vector<std::string>& warnings) {
  COLLBENCH_ASSIGN_OR_RETURN(auto timing, ranged("-I/--per_iter_timing", raw.per_iter_timing, 0, 1));
  COLLBENCH_ASSIGN_OR_RETURN(o.per_iter_skip, ranged("-K/--per_iter_skip", raw.per_iter_skip, 0, 1u << 30));
  COLLBENCH_ASSIGN_OR_RETURN(auto stamps, ranged("-S/--report_timestamps", raw.report_timestamps, 0, 1));
  o.per_iteration_timing = timing == 1;
  o.report_timestamps = stamps == 1;
  if (o.per_iteration_timing && o.graph_launches > 0) {
    warnings.emplace_back("per-iteration timing (-I) is incompatible with CUDA graph mode (-G): disabling -I");
    o.per_iteration_timing = false;
  }
  if (o.per_iter_skip > 0 && !o.per_iteration_timing) {
    warnings.emplace_back("per-iteration skip (-K) requires per-iteration timing (-I 1): disabling -K");
    o.per_iter_skip = 0;
  }
  if (o.iterations > 0 && o.per_iter_skip >= o.iterations) {
    warnings.emplace_back("per-iteration skip (-K) must be below -n " + std::to_string(o.iterations) +
                          ": disabling -K");
    o.per_iter_skip = 0;
  }
  return ok_status();
}

// nccl-tests' launch modes. Whether the backend can group (-m) or capture (-G) is checked
// once it exists (engine::check_launch_modes).
Status resolve_launch_modes(const RawRunFlags& raw, RunCommand& cmd) {
  COLLBENCH_RETURN_IF_ERROR(
      only_value("-t/--nthreads", raw.threads, "1", "use -g N for N ranks (threads) per process"));
  COLLBENCH_ASSIGN_OR_RETURN(auto gpus, ranged("-g/--ngpus", raw.gpus, 1, 1024));
  cmd.gpus_per_process = static_cast<int>(gpus);
  COLLBENCH_ASSIGN_OR_RETURN(cmd.run.aggregation, ranged("-m/--agg_iters", raw.agg_iters, 1, 1u << 20));
  COLLBENCH_ASSIGN_OR_RETURN(cmd.run.graph_launches, ranged("-G/--cudagraph", raw.graph, 0, 1u << 20));
  COLLBENCH_ASSIGN_OR_RETURN(auto reg, ranged("-R/--local_register", raw.register_buffers, 0, 2));
  cmd.device.register_buffers = static_cast<int>(reg);
  COLLBENCH_ASSIGN_OR_RETURN(auto null_stream, ranged("-y/--stream_null", raw.stream_null, 0, 1));
  cmd.device.stream_null = null_stream == 1;
  if (!raw.cta_policy.empty()) {
    COLLBENCH_ASSIGN_OR_RETURN(auto policy, ranged("-x/--cta_policy", raw.cta_policy, 0, 2));
    cmd.device.cta_policy = static_cast<int>(policy);
  }
  // As nccl-tests: a capture cannot wait, so -z 3 is dropped rather than the graph.
  if (cmd.run.graph_launches > 0 && cmd.run.blocking == engine::Blocking::kSyncUntimedBarrier) {
    cmd.warnings.emplace_back("blocking mode (-z 3) is incompatible with CUDA graph mode (-G): using -z 0");
    cmd.run.blocking = engine::Blocking::kAsync;
  }
  return ok_status();
}

}  // namespace

// Names the registry knows (built or not): a known name this build lacks fails later, when
// the session starts, with how to get it (exit 5).
Status check_session_choices(const std::string& bootstrap, const std::string& backend) {
  const auto known = [](const std::vector<std::string>& names, const std::string& name) {
    return name == "auto" || std::find(names.begin(), names.end(), name) != names.end();
  };
  if (!known(known_bootstraps(), bootstrap)) {
    return Status::error(ErrorCode::kUsage, "--bootstrap: unknown value '" + bootstrap + "' (expected auto, " +
                                                join(known_bootstraps(), ", ") + ")");
  }
  if (!known(known_backends(), backend)) {
    return Status::error(ErrorCode::kUsage, "--backend: unknown value '" + backend + "' (expected auto, " +
                                                join(known_backends(), ", ") + ")");
  }
  return ok_status();
}

Result<double> parse_timeout(const std::string& text) {
  auto t = parse_double(text);
  if (!t.ok()) return Status::error(ErrorCode::kUsage, "-T/--timeout: " + t.status().message());
  if (*t < 0) return Status::error(ErrorCode::kUsage, "-T/--timeout: must not be negative");
  // The watchdog multiplies it by the iterations of a step and reports it in whole seconds.
  if (*t > kMaxTimeoutS) return Status::error(ErrorCode::kUsage, "-T/--timeout: at most 1000000 seconds (11.6 days)");
  return *t;
}

Result<std::uint32_t> parse_stagger(const std::string& text) {
  COLLBENCH_ASSIGN_OR_RETURN(const auto ms, ranged("--stagger-ms", text, 0, std::uint64_t{3600} * 1000));
  return static_cast<std::uint32_t>(ms);
}

Result<engine::FaultPlan> parse_fault(std::string_view spec) {
  engine::FaultPlan plan;
  const auto bad = [&](std::string_view why) {
    return Status::error(ErrorCode::kUsage, "--fault: '" + std::string(spec) + "': " + std::string(why));
  };
  for (std::string_view item : split(spec, ',')) {
    const auto eq = item.find('=');
    if (eq == std::string_view::npos) return bad("expected key=value items");
    const std::string_view key = item.substr(0, eq);
    const std::string_view value = item.substr(eq + 1);
    auto size = parse_size(value);
    if (!size.ok()) return bad(size.status().message());
    const auto v = *size;
    // Ranks become ints and the delay a signed microsecond count: no wrap-around to another rank.
    const bool rank_key = key == "corrupt-rank" || key == "kill-rank" || key == "slow-rank";
    if (rank_key && v > kMaxFaultRank) {
      return bad(std::string(key) + " must be a rank (at most " + std::to_string(kMaxFaultRank) + ")");
    }
    if (key == "split-hosts" && v > kMaxFaultRank) {
      return bad("split-hosts must be at most " + std::to_string(kMaxFaultRank) + " hosts");
    }
    if ((key == "delay-us" || key == "stall-us") && v > kMaxFaultDelayUs) {
      return bad(std::string(key) + " must be at most an hour (3600000000)");
    }
    if (key == "factor" && (v < 2 || v > 1000)) return bad("factor must be between 2 and 1000");
    if (key == "corrupt-rank") plan.corrupt_rank = static_cast<int>(v);
    else if (key == "index") plan.corrupt_index = v;
    else if (key == "min-size") plan.min_bytes = v;
    else if (key == "kill-rank") plan.kill_rank = static_cast<int>(v);
    else if (key == "after-size") plan.kill_after_bytes = v;
    else if (key == "slow-rank") plan.slow_rank = static_cast<int>(v);
    else if (key == "delay-us") plan.slow_us = v;
    else if (key == "split-hosts") plan.split_hosts = static_cast<int>(v);
    else if (key == "at-size") plan.at_size = v;
    else if (key == "stall-every") plan.stall_every = v;
    else if (key == "stall-us") plan.stall_us = v;
    else if (key == "factor") plan.slow_factor = v;
    else return bad("unknown key '" + std::string(key) + "'");
  }
  if ((plan.stall_every > 0 || plan.slow_factor > 0) && plan.at_size == 0) {
    return bad("stall-every and factor need at-size=S (the requested size they apply to)");
  }
  return plan;
}

RawRunFlags nccl_tests_defaults() {
  RawRunFlags raw;
  raw.min_bytes = "32M";
  raw.max_bytes = "32M";
  raw.iterations = "20";
  raw.nccl_tests_stepping = true;
  return raw;
}

namespace {

// The collectives and what each does, from the traits table.
std::string collective_help() {
  std::string text = "Collectives to run, or all (default all_reduce):";
  for (const auto& t : coll::all_collectives()) {
    text += "\n  " + std::string(t.name) + std::string(t.name.size() < 15 ? 15 - t.name.size() : 1, ' ') +
            std::string(t.summary);
  }
  return text;
}

}  // namespace

void add_run_flags(CLI::App& app, RawRunFlags& raw, bool with_positional) {
  if (with_positional) app.add_option("collective", raw.collectives, collective_help())->type_name("COLLECTIVE");
  app.add_option("-b,--minbytes", raw.min_bytes, "Smallest message size; K/M/G suffixes are binary")
      ->capture_default_str()
      ->type_name("SIZE");
  app.add_option("-e,--maxbytes", raw.max_bytes, "Largest message size")->capture_default_str()->type_name("SIZE");
  app.add_option("-f,--stepfactor", raw.step_factor, "Multiply the size by this factor (>= 2) between rows [2]")
      ->type_name("N");
  app.add_option("-i,--stepbytes", raw.step_bytes, "Add this many bytes between rows (instead of -f)")
      ->type_name("SIZE");
  app.add_option("-n,--iters", raw.iterations,
                 "Timed iterations per size and placement (nccl-tests' fixed count); without -n, iterations run "
                 "until the median is known to --target-spread")
      ->type_name("N");
  app.add_option("--min-time", raw.min_time, "Without -n: measure each size and placement at least this long")
      ->capture_default_str()
      ->type_name("SECONDS");
  app.add_option("--max-time", raw.max_time, "Without -n: and at most this long")
      ->capture_default_str()
      ->type_name("SECONDS");
  app.add_option("--target-spread", raw.target_spread,
                 "Without -n: stop once the 95% confidence interval of the median is within +-this")
      ->capture_default_str()
      ->type_name("PERCENT");
  app.add_option("--max-iters", raw.max_iterations, "Without -n: at most this many iterations")
      ->capture_default_str()
      ->type_name("N");
  app.add_option("-w,--warmup_iters", raw.warmup, "Untimed warm-up iterations per size")
      ->capture_default_str()
      ->type_name("N");
  app.add_option("-c,--check", raw.check, "Checked runs per size after timing (0 disables checking)")
      ->capture_default_str()
      ->type_name("N");
  app.add_option("-d,--datatype", raw.datatype,
                 "Element type(s): int8 uint8 int32 uint32 int64 uint64 half float "
                 "double bfloat16 f8e4m3 f8e5m2, a comma list, or all")
      ->capture_default_str()
      ->type_name("TYPES");
  app.add_option("-o,--op", raw.op, "Reduction(s): sum prod min max avg mulsum, a comma list, or all")
      ->capture_default_str()
      ->type_name("OPS");
  app.add_option("-r,--root", raw.root, "Root rank of rooted collectives, or all (cycle through every rank)")
      ->capture_default_str()
      ->type_name("RANK|all");
  app.add_option("-a,--average", raw.average, "Headline time across ranks: 0 rank 0, 1 mean, 2 min, 3 max")
      ->capture_default_str()
      ->type_name("0-3");
  app.add_option("-z,--blocking", raw.blocking,
                 "0 async launches; 1 sync+barrier per op; 2 sync per op; "
                 "3 barrier per op, excluded from the time")
      ->capture_default_str()
      ->type_name("0-3");
  app.add_option("-N,--run_cycles", raw.run_cycles, "Repeat the sweep this many times (0: until interrupted)")
      ->capture_default_str()
      ->type_name("N");
  app.add_option("-T,--timeout", raw.timeout, "Seconds any collective or barrier may take (0: no limit)")
      ->capture_default_str()
      ->type_name("SECONDS");
  app.add_option("-J,--output_file", raw.output_file, "Write the JSON result here (never overwritten without --force)")
      ->type_name("FILE");
  app.add_flag("--force", raw.force, "Overwrite an existing -J file");
  app.add_option("--metrics", raw.metrics_file,
                 "Write the finished run's metrics here in Prometheus text format, for node_exporter's textfile "
                 "collector (replaced atomically; see docs/health.md)")
      ->type_name("FILE");
  app.add_option("--expect", raw.expect_file,
                 "Check the run against a JSON file of expected figures (schema collbench.expect, docs/health.md), "
                 "or a published figure of this system: auto, or a reference's name (" +
                     report::reference_names() +
                     "), with :PCT the share to reach (90); a miss, or an expected row not measured, ends with exit 13")
      ->type_name("FILE|auto|NAME[:PCT]");
  app.add_option("--seed", raw.seed, "Seed of the checked data")->capture_default_str()->type_name("N");
  app.add_option("--bootstrap", raw.bootstrap, bootstrap_flag_help())->capture_default_str()->type_name("NAME");
  app.add_option("--backend", raw.backend, backend_flag_help())->capture_default_str()->type_name("NAME");
  app.add_flag("--no-progress", raw.no_progress, "Never show the progress line on stderr");
  app.add_option("--stagger-ms", raw.stagger_ms,
                 "Environment rendezvous: spread the ranks' connects over this many milliseconds (thousands of ranks)")
      ->capture_default_str()
      ->type_name("MS");
  app.add_flag("--bind", raw.bind,
               "Pin each rank to the CPUs local to its GPU (on host memory: to NUMA node local_rank mod nodes), "
               "before any buffer is allocated");
  app.add_flag("--no-topology", raw.no_topology, "Do not discover and record each host's topology");
  app.add_flag("--fixed-buffers", raw.fixed_buffers,
               "Run every iteration on the same addresses, instead of moving through the allocation from one "
               "iteration to the next as nccl-tests does");
  app.add_flag("--malloc-keep", raw.malloc_keep,
               "Let glibc reuse large allocations instead of mapping each one afresh: removes the page-fault cliff of "
               "MPI's per-call temporaries above 32 MiB (recorded in the JSON; see docs/performance.md)");
  app.add_option("-t,--nthreads", raw.threads, "nccl-tests compatibility: threads per process (1 only; use -g)")
      ->type_name("N");
  app.add_option("-g,--ngpus", raw.gpus,
                 "Ranks per process, one thread and one GPU each, like nccl-tests' -g (ranks = processes x N)")
      ->capture_default_str();
  app.add_option("-m,--agg_iters", raw.agg_iters, "Operations launched as one group per iteration (nccl backend)")
      ->capture_default_str();
  app.add_option("-G,--cudagraph", raw.graph,
                 "Capture the timed iterations in a CUDA graph once and replay it N times (nccl backend; 0: off)")
      ->capture_default_str();
  app.add_option("-R,--local_register", raw.register_buffers,
                 "1: register the send and receive buffers with the communicator (ncclCommRegister); 2: as "
                 "symmetric windows (ncclCommWindowRegister, NCCL >= 2.27, else 1) (nccl backend, NCCL >= 2.19)")
      ->capture_default_str();
  app.add_option("-x,--cta_policy", raw.cta_policy,
                 "The communicator's CTA policy: 0 default, 1 efficiency, 2 zero (nccl backend, NCCL >= 2.27; "
                 "default: NCCL's)")
      ->type_name("0|1|2");
  app.add_option("-y,--stream_null", raw.stream_null, "1: launch on the legacy default stream (nccl backend)")
      ->capture_default_str();
  app.add_option("-I,--per_iter_timing", raw.per_iter_timing,
                 "1: time every iteration on the device (CUDA events) or host, for per-iteration statistics; "
                 "without it, GPU runs time whole batches as nccl-tests does")
      ->capture_default_str();
  app.add_option("-K,--per_iter_skip", raw.per_iter_skip,
                 "Leave the first N iterations out of the per-iteration statistics (with -I 1)")
      ->capture_default_str();
  app.add_option("-S,--report_timestamps", raw.report_timestamps, "1: a timestamp column at the end of each table row")
      ->capture_default_str();
  app.add_option("-p,--parallel_init", raw.parallel_init, "nccl-tests compatibility: accepted, no effect")
      ->type_name("0|1");
  app.add_option("-C,--report_cputime", raw.report_cputime, "nccl-tests compatibility (0)")->type_name("0|1");
  app.add_option("-M,--memory_report", raw.memory_report, "nccl-tests compatibility (0)")->type_name("0|1");
  app.add_option("-u,--unalign", raw.unalign, "nccl-tests compatibility (0)")->type_name("0|1");
  app.add_option("--fault", raw.fault,
                 "TEST ONLY, never in production: corrupt-rank=R[,index=I] overwrites one output element of rank R "
                 "after each checked collective; slow-rank=R,delay-us=U delays every timed collective of rank R; "
                 "min-size=S limits both to sizes >= S; kill-rank=R,after-size=S kills rank R (SIGKILL) once it "
                 "has finished size S; at-size=S,stall-every=N,stall-us=U stalls every N-th timed iteration of "
                 "size S; at-size=S,factor=F makes size S F times slower")
      ->type_name("SPEC");
}

Result<RunCommand> resolve_run_flags(const RawRunFlags& raw) {
  RunCommand cmd;
  engine::RunOptions& o = cmd.run;
  COLLBENCH_ASSIGN_OR_RETURN(o.collectives, flag("collective", parse_collectives(raw.collectives)));
  COLLBENCH_ASSIGN_OR_RETURN(o.types, flag("-d/--datatype", parse_data_types(raw.datatype)));
  COLLBENCH_ASSIGN_OR_RETURN(o.ops, flag("-o/--op", parse_reduce_ops(raw.op)));
  COLLBENCH_RETURN_IF_ERROR(resolve_sizes(raw, o));
  COLLBENCH_RETURN_IF_ERROR(resolve_loops(raw, o));
  COLLBENCH_RETURN_IF_ERROR(resolve_compat(raw));
  COLLBENCH_RETURN_IF_ERROR(resolve_launch_modes(raw, cmd));
  COLLBENCH_RETURN_IF_ERROR(resolve_reporting(raw, o, cmd.warnings));
  COLLBENCH_RETURN_IF_ERROR(apply_nccl_tests_env(raw.env, o, cmd.device));
  COLLBENCH_ASSIGN_OR_RETURN(cmd.timeout_s, parse_timeout(raw.timeout));
  if (!raw.fault.empty()) {
    COLLBENCH_ASSIGN_OR_RETURN(o.fault, parse_fault(raw.fault));
    if (o.fault.split_hosts != 0) {
      return Status::error(ErrorCode::kUsage, "--fault: split-hosts is for collbench locate only");
    }
  }
  COLLBENCH_RETURN_IF_ERROR(check_session_choices(raw.bootstrap, raw.backend));
  cmd.output_file = raw.output_file;
  cmd.metrics_file = raw.metrics_file;
  cmd.expect_file = raw.expect_file;
  if (!cmd.metrics_file.empty() && cmd.metrics_file == cmd.output_file) {
    return Status::error(ErrorCode::kUsage, "--metrics and -J/--output_file name the same file " + cmd.metrics_file);
  }
  cmd.force = raw.force;
  cmd.bootstrap = raw.bootstrap;
  cmd.backend = raw.backend;
  cmd.progress = !raw.no_progress;
  cmd.bind = raw.bind;
  cmd.malloc_keep = raw.malloc_keep;
  o.fixed_buffers = raw.fixed_buffers;
  COLLBENCH_ASSIGN_OR_RETURN(cmd.stagger_ms, parse_stagger(raw.stagger_ms));
  cmd.topology = !raw.no_topology;
  return cmd;
}

}  // namespace collbench::cli
