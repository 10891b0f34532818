#include "bench/cli/run_flags.hpp"

#include <CLI/CLI.hpp>

#include "common/strings.hpp"
#include "common/units.hpp"

namespace collbench::cli {
namespace {

// Prefixes a parse error with the flag it belongs to: "-b/--minbytes: '12X' is not a size".
template <typename T>
Result<T> flag(std::string_view name, Result<T> parsed) {
  if (parsed.ok()) return parsed;
  return Status::error(parsed.status().code(), std::string(name) + ": " + parsed.status().message());
}

Result<std::uint64_t> ranged(std::string_view name, const std::string& text, std::uint64_t lo, std::uint64_t hi) {
  COLLBENCH_ASSIGN_OR_RETURN(std::uint64_t v, flag(name, parse_uint(text)));
  if (v < lo || v > hi) {
    return Status::error(ErrorCode::kUsage, std::string(name) + ": " + text + " is out of range (" + std::to_string(lo) +
                                                "-" + std::to_string(hi) + ")");
  }
  return v;
}

Status only_value(std::string_view name, const std::string& text, std::string_view supported, std::string_view why) {
  if (text == supported) return ok_status();
  return Status::error(ErrorCode::kUnsupported, std::string(name) + " " + text + " is not supported yet: " + std::string(why));
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

Status resolve_sizes(const RawRunFlags& raw, engine::RunOptions& o) {
  COLLBENCH_ASSIGN_OR_RETURN(o.min_bytes, flag("-b/--minbytes", parse_size(raw.min_bytes)));
  COLLBENCH_ASSIGN_OR_RETURN(o.max_bytes, flag("-e/--maxbytes", parse_size(raw.max_bytes)));
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
  if (o.min_bytes > o.max_bytes) {
    return Status::error(ErrorCode::kUsage, "-b/--minbytes " + raw.min_bytes + " is larger than -e/--maxbytes " + raw.max_bytes);
  }
  return ok_status();
}

Status resolve_loops(const RawRunFlags& raw, engine::RunOptions& o) {
  COLLBENCH_ASSIGN_OR_RETURN(o.iterations, ranged("-n/--iters", raw.iterations, 1, 1u << 30));
  COLLBENCH_ASSIGN_OR_RETURN(o.warmup_iterations, ranged("-w/--warmup_iters", raw.warmup, 0, 1u << 30));
  COLLBENCH_ASSIGN_OR_RETURN(o.check_iterations, ranged("-c/--check", raw.check, 0, 1u << 20));
  COLLBENCH_ASSIGN_OR_RETURN(auto avg, ranged("-a/--average", raw.average, 0, 3));
  o.average = static_cast<engine::Average>(avg);
  COLLBENCH_ASSIGN_OR_RETURN(auto blocking, ranged("-z/--blocking", raw.blocking, 0, 3));
  o.blocking = static_cast<int>(blocking);
  COLLBENCH_ASSIGN_OR_RETURN(o.run_cycles, ranged("-N/--run_cycles", raw.run_cycles, 0, 1u << 30));
  COLLBENCH_ASSIGN_OR_RETURN(auto root, ranged("-r/--root", raw.root, 0, 1u << 24));
  o.root = static_cast<int>(root);
  COLLBENCH_ASSIGN_OR_RETURN(o.seed, flag("--seed", parse_uint(raw.seed)));
  return ok_status();
}

// nccl-tests' launch modes. Whether the backend can group (-m) or capture (-G) is checked
// once it exists (engine::check_launch_modes).
Status resolve_launch_modes(const RawRunFlags& raw, RunCommand& cmd) {
  COLLBENCH_RETURN_IF_ERROR(only_value("-t/--nthreads", raw.threads, "1", "use -g N for N ranks (threads) per process"));
  COLLBENCH_ASSIGN_OR_RETURN(auto gpus, ranged("-g/--ngpus", raw.gpus, 1, 1024));
  cmd.gpus_per_process = static_cast<int>(gpus);
  COLLBENCH_ASSIGN_OR_RETURN(cmd.run.aggregation, ranged("-m/--agg_iters", raw.agg_iters, 1, 1u << 20));
  COLLBENCH_ASSIGN_OR_RETURN(cmd.run.graph_launches, ranged("-G/--cudagraph", raw.graph, 0, 1u << 20));
  COLLBENCH_ASSIGN_OR_RETURN(auto reg, ranged("-R/--local_register", raw.register_buffers, 0, 2));
  if (reg == 2) {
    return only_value("-R/--local_register", raw.register_buffers, "1", "symmetric memory windows are not implemented");
  }
  cmd.register_buffers = static_cast<int>(reg);
  return ok_status();
}

}  // namespace

Status check_session_choices(const std::string& bootstrap, const std::string& backend) {
  if (bootstrap != "auto" && bootstrap != "mpi" && bootstrap != "env" && bootstrap != "single") {
    return Status::error(ErrorCode::kUsage, "--bootstrap: unknown value '" + bootstrap + "' (expected auto, mpi, env, single)");
  }
  if (backend != "auto" && backend != "nccl" && backend != "mpi" && backend != "bootstrap") {
    return Status::error(ErrorCode::kUsage,
                         "--backend: unknown value '" + backend + "' (expected auto, nccl, mpi, bootstrap)");
  }
  return ok_status();
}

Result<double> parse_timeout(const std::string& text) {
  auto t = parse_double(text);
  if (!t.ok()) return Status::error(ErrorCode::kUsage, "-T/--timeout: " + t.status().message());
  if (*t < 0) return Status::error(ErrorCode::kUsage, "-T/--timeout: must not be negative");
  return *t;
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
    if (key == "corrupt-rank") plan.corrupt_rank = static_cast<int>(v);
    else if (key == "index") plan.corrupt_index = v;
    else if (key == "min-size") plan.min_bytes = v;
    else if (key == "kill-rank") plan.kill_rank = static_cast<int>(v);
    else if (key == "after-size") plan.kill_after_bytes = v;
    else if (key == "slow-rank") plan.slow_rank = static_cast<int>(v);
    else if (key == "delay-us") plan.slow_us = v;
    else return bad("unknown key '" + std::string(key) + "'");
  }
  return plan;
}

void add_run_flags(CLI::App& app, RawRunFlags& raw) {
  app.add_option("collective", raw.collectives, "Collectives to run (all_reduce, ..., or all); default all_reduce");
  app.add_option("-b,--minbytes", raw.min_bytes, "Smallest message size; K/M/G suffixes are binary")->capture_default_str();
  app.add_option("-e,--maxbytes", raw.max_bytes, "Largest message size")->capture_default_str();
  app.add_option("-f,--stepfactor", raw.step_factor, "Multiply the size by this factor (>= 2) between rows [2]");
  app.add_option("-i,--stepbytes", raw.step_bytes, "Add this many bytes between rows (instead of -f)");
  app.add_option("-n,--iters", raw.iterations, "Timed iterations per size and placement")->capture_default_str();
  app.add_option("-w,--warmup_iters", raw.warmup, "Untimed warm-up iterations per size")->capture_default_str();
  app.add_option("-c,--check", raw.check, "Checked runs per size after timing (0 disables checking)")->capture_default_str();
  app.add_option("-d,--datatype", raw.datatype, "Element type(s): int8 uint8 int32 uint32 int64 uint64 half float "
                                                "double bfloat16 f8e4m3 f8e5m2, a comma list, or all")->capture_default_str();
  app.add_option("-o,--op", raw.op, "Reduction(s): sum prod min max avg mulsum, a comma list, or all")->capture_default_str();
  app.add_option("-r,--root", raw.root, "Root rank of rooted collectives")->capture_default_str();
  app.add_option("-a,--average", raw.average, "Headline time across ranks: 0 rank 0, 1 mean, 2 min, 3 max")->capture_default_str();
  app.add_option("-z,--blocking", raw.blocking, "0 async launches; 1 sync+barrier per op; 2 sync per op; "
                                                "3 barrier per op, excluded from the time")->capture_default_str();
  app.add_option("-N,--run_cycles", raw.run_cycles, "Repeat the sweep this many times (0: until interrupted)")->capture_default_str();
  app.add_option("-T,--timeout", raw.timeout, "Seconds any collective or barrier may take (0: no limit)")->capture_default_str();
  app.add_option("-J,--output_file", raw.output_file, "Write the JSON result here (never overwritten without --force)");
  app.add_flag("--force", raw.force, "Overwrite an existing -J file");
  app.add_option("--seed", raw.seed, "Seed of the checked data")->capture_default_str();
  app.add_option("--bootstrap", raw.bootstrap, "How ranks find each other: auto, mpi, env, single")->capture_default_str();
  app.add_option("--backend", raw.backend,
                 "Collective backend: auto (nccl when built with it and every rank sees a GPU, else mpi or "
                 "bootstrap), nccl, mpi, or bootstrap (collectives through the bootstrap: a correctness "
                 "reference, not a bandwidth measurement)")->capture_default_str();
  app.add_flag("--no-progress", raw.no_progress, "Never show the progress line on stderr");
  app.add_option("-t,--nthreads", raw.threads, "nccl-tests compatibility: threads per process (1 only; use -g)");
  app.add_option("-g,--ngpus", raw.gpus,
                 "Ranks per process, one thread and one GPU each, like nccl-tests' -g (ranks = processes x N)")
      ->capture_default_str();
  app.add_option("-m,--agg_iters", raw.agg_iters, "Operations launched as one group per iteration (nccl backend)")
      ->capture_default_str();
  app.add_option("-G,--cudagraph", raw.graph,
                 "Capture the timed iterations in a CUDA graph once and replay it N times (nccl backend; 0: off)")
      ->capture_default_str();
  app.add_option("-R,--local_register", raw.register_buffers,
                 "1: buffers from ncclMemAlloc, registered with the communicator (nccl backend, NCCL >= 2.19)")
      ->capture_default_str();
  app.add_option("--fault", raw.fault,
                 "TEST ONLY, never in production: corrupt-rank=R[,index=I] overwrites one output element of rank R "
                 "after each checked collective; slow-rank=R,delay-us=U delays every timed collective of rank R; "
                 "min-size=S limits both to sizes >= S; kill-rank=R,after-size=S kills rank R (SIGKILL) once it "
                 "has finished size S");
}

Result<RunCommand> resolve_run_flags(const RawRunFlags& raw) {
  RunCommand cmd;
  engine::RunOptions& o = cmd.run;
  COLLBENCH_ASSIGN_OR_RETURN(o.collectives, flag("collective", parse_collectives(raw.collectives)));
  COLLBENCH_ASSIGN_OR_RETURN(o.types, flag("-d/--datatype", parse_data_types(raw.datatype)));
  COLLBENCH_ASSIGN_OR_RETURN(o.ops, flag("-o/--op", parse_reduce_ops(raw.op)));
  COLLBENCH_RETURN_IF_ERROR(resolve_sizes(raw, o));
  COLLBENCH_RETURN_IF_ERROR(resolve_loops(raw, o));
  COLLBENCH_RETURN_IF_ERROR(resolve_launch_modes(raw, cmd));
  COLLBENCH_ASSIGN_OR_RETURN(cmd.timeout_s, parse_timeout(raw.timeout));
  if (!raw.fault.empty()) {
    COLLBENCH_ASSIGN_OR_RETURN(o.fault, parse_fault(raw.fault));
  }
  COLLBENCH_RETURN_IF_ERROR(check_session_choices(raw.bootstrap, raw.backend));
  cmd.output_file = raw.output_file;
  cmd.force = raw.force;
  cmd.bootstrap = raw.bootstrap;
  cmd.backend = raw.backend;
  cmd.progress = !raw.no_progress;
  return cmd;
}

}  // namespace collbench::cli
