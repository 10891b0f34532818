#include "bench/cli/wiring/run_context.hpp"

#include "bench/cli/wiring/adapter_registry.hpp"
#include "bench/cli/wiring/launch_env.hpp"
#include "bench/cli/wiring/version.hpp"
#include "bench/engine/rank_table.hpp"
#include "bench/engine/runner.hpp"
#include "common/file_io.hpp"
#include "topo/host_info.hpp"

namespace collbench::cli {
namespace {

report::RunConfig config_of(const engine::RunOptions& o, double timeout_s, bool malloc_keep) {
  report::RunConfig c;
  for (auto col : o.collectives) c.collectives.emplace_back(coll::to_string(col));
  for (auto t : o.types) c.dtypes.emplace_back(to_string(t));
  for (auto op : o.ops) c.ops.emplace_back(to_string(op));
  c.root = o.root;
  c.min_bytes = o.min_bytes;
  c.max_bytes = o.max_bytes;
  c.step_factor = o.step_factor;
  c.step_bytes = o.step_bytes;
  c.iterations = o.iterations;
  if (o.iterations == 0) {
    const auto& p = o.precision;
    c.precision = report::PrecisionConfig{p.min_time_s, p.max_time_s, p.target_spread, p.min_iterations,
                                          p.max_iterations};
  }
  c.warmup_iterations = o.warmup_iterations;
  c.check_iterations = o.check_iterations;
  c.average = static_cast<int>(o.average);
  c.blocking = static_cast<int>(o.blocking);  // the document records -z's number
  c.run_cycles = o.run_cycles;
  c.timeout_s = timeout_s;
  c.seed = o.seed;
  c.malloc_keep = malloc_keep;
  c.aggregation = o.aggregation;
  c.graph_launches = o.graph_launches;
  c.per_iteration_timing = o.per_iteration_timing;
  c.report_timestamps = o.report_timestamps;
  c.per_iter_skip = o.per_iter_skip;
  c.min_busbw_gbps = o.min_busbw_gbps;
  return c;
}

}  // namespace

Result<report::RunContext> make_run_context(const RunCommand& cmd, const std::vector<std::string>& argv,
                                            const bootstrap::Bootstrap& boot, const backend::Backend& backend,
                                            std::vector<report::RankInfo> ranks, const engine::SweepPlan& plan) {
  report::RunContext ctx;
  ctx.tool_version = version();
  ctx.git_commit = git_commit();
  ctx.start_time = utc_now_iso8601();
  ctx.argv = argv;
  ctx.env = allow_listed_environment();
  ctx.bootstrap = std::string(boot.name());
  const auto info = backend.info();
  ctx.backend = info.name;
  ctx.backend_library = info.library;
  ctx.memory = info.memory;
  // What the entry the backend was made from declares (the registry names it as the backend does).
  COLLBENCH_ASSIGN_OR_RETURN(const backend::BackendEntry* entry, find_backend(info.name));
  ctx.allocates_per_call = entry->features.allocates_per_call;
  ctx.nranks = boot.size();
  ctx.hosts = engine::distinct_hosts(ranks);
  ctx.ranks = std::move(ranks);
  ctx.config = config_of(cmd.run, cmd.timeout_s, cmd.malloc_keep);
  ctx.config.gpus_per_process = cmd.gpus_per_process;
  ctx.config.buffer_registration = cmd.device.register_buffers;
  ctx.config.buffers = engine::buffer_config(plan, cmd.run);
  ctx.llc_bytes = topo::last_level_cache_bytes();
  ctx.drop_in = cmd.drop_in;
  return ctx;
}

}  // namespace collbench::cli
