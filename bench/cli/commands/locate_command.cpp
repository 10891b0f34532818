#include "bench/cli/commands/locate_command.hpp"

#include <CLI/CLI.hpp>
#include <unistd.h>

#include <array>
#include <ctime>
#include <iostream>

#include "bench/cli/wiring/adapter_registry.hpp"
#include "bench/cli/wiring/error_line.hpp"
#include "bench/cli/wiring/host_topology.hpp"
#include "bench/cli/wiring/output_path.hpp"
#include "bench/cli/wiring/run_flags.hpp"
#include "bench/cli/wiring/signals.hpp"
#include "bench/cli/wiring/version.hpp"
#include "bench/bootstrap/single.hpp"
#include "bench/engine/locate/locator.hpp"
#include "bench/engine/locate/sim/sim_measurer.hpp"
#include "bench/engine/rank_table.hpp"
#include "common/file_io.hpp"
#include "common/strings.hpp"
#include "common/units.hpp"
#include "report/documents/atomic_file.hpp"
#include "report/documents/locate_json.hpp"
#include "report/format/number_format.hpp"
#include "report/live/progress_reporter.hpp"
#include "report/render/locate_text.hpp"
#include "topo/analysis.hpp"
#include "topo/host_info.hpp"

namespace collbench::cli {
namespace {

constexpr std::uint64_t kHostMaxBytes = std::uint64_t{8} << 20;
constexpr std::uint64_t kDeviceMaxBytes = std::uint64_t{256} << 20;
// A simulation model is a few lines; a larger file is surely not one.
constexpr std::uint64_t kMaxModelBytes = std::uint64_t{1} << 20;
constexpr double kMinBudgetS = 1;

Result<std::uint64_t> size_flag(std::string_view name, const std::string& text) {
  auto v = parse_size(text);
  if (!v.ok()) return Status::error(ErrorCode::kUsage, std::string(name) + ": " + v.status().message());
  if (*v < 4)
    return Status::error(ErrorCode::kUsage, std::string(name) + ": " + text + " is below 4 bytes (one float)");
  return *v;
}

Status check_fault(const engine::FaultPlan& f) {
  if (f.corrupt_rank || f.kill_rank) {
    return Status::error(ErrorCode::kUsage, "--fault: locate takes slow-rank, delay-us, min-size and split-hosts only");
  }
  if (f.split_hosts < 0) return Status::error(ErrorCode::kUsage, "--fault: split-hosts must be positive");
  return ok_status();
}

// Where each rank runs, as the verdict names it; the test-only split-hosts fault cuts the
// ranks into consecutive blocks that pretend to be hosts.
std::vector<engine::locate::RankPlace> places_of(const std::vector<report::RankInfo>& ranks, int split_hosts) {
  std::vector<engine::locate::RankPlace> places;
  const auto n = static_cast<long>(ranks.size());
  places.reserve(ranks.size());
  for (const auto& r : ranks) places.push_back({r.host, r.local_rank, ""});
  if (split_hosts <= 0) return places;
  for (long r = 0; r < n; ++r) {
    const long block = r * split_hosts / n;
    const long first = (block * n + split_hosts - 1) / split_hosts;  // smallest rank of the block
    places[static_cast<std::size_t>(r)] = {ranks[static_cast<std::size_t>(r)].host + "#" + std::to_string(block),
                                           static_cast<int>(r - first), ""};
  }
  return places;
}

// Each rank's leaf switch from --fabric; the hosts it does not list are named in a note.
std::vector<std::string> place_on_fabric(std::vector<engine::locate::RankPlace>& places, const topo::Fabric& fabric) {
  std::vector<std::string> notes = fabric.notes();
  if (fabric.empty()) return notes;
  std::vector<std::string> unlisted;
  for (auto& p : places) {
    const topo::FabricSwitch* leaf = fabric.leaf_of(p.host);
    if (leaf != nullptr) p.leaf = leaf->name;
    if (leaf == nullptr && std::find(unlisted.begin(), unlisted.end(), p.host) == unlisted.end()) {
      unlisted.push_back(p.host);
    }
  }
  if (!unlisted.empty()) {
    notes.push_back(
        "--fabric does not list host" + std::string(unlisted.size() > 1 ? "s " : " ") + join(unlisted, ", ") +
        (unlisted.size() > 1 ? ": no switch uplink is judged for them" : ": no switch uplink is judged for it"));
  }
  return notes;
}

}  // namespace

Result<topo::Fabric> agree_fabric(bootstrap::Bootstrap& boot, const std::string& path) {
  if (path.empty()) return topo::Fabric();
  std::string shared;
  if (boot.rank() == 0) {
    auto text = read_text_file(path, topo::kMaxFabricFileBytes);
    shared = text.ok() ? "ok:" + *text : "error:" + text.status().message();
  }
  COLLBENCH_ASSIGN_OR_RETURN(shared, bootstrap::broadcast_string(boot, shared));
  const std::string where = "--fabric: fabric file '" + path + "'";
  if (shared.rfind("ok:", 0) != 0) return Status::error(ErrorCode::kUsage, where + ": " + shared.substr(6));
  auto fabric = topo::parse_fabric_text(std::string_view(shared).substr(3));
  if (!fabric.ok()) return Status::error(ErrorCode::kUsage, where + ": " + fabric.status().message());
  return fabric;
}

namespace {

// GPU and nearest NIC of each rank, from its host's topology (rank 0 only).
void label_devices(std::vector<report::LocateRank>& ranks, const std::vector<HostTopology>& hosts,
                   const std::vector<report::RankInfo>& info) {
  for (const auto& h : hosts) {
    const topo::Analysis analysis = topo::analyze(h.model);
    for (std::size_t i = 0; i < ranks.size(); ++i) {
      if (info[i].host != h.host || info[i].pci_bus_id.empty()) continue;
      const int gpu = h.model.gpu_by_bus_id(info[i].pci_bus_id);
      if (gpu < 0) continue;
      ranks[i].gpu = topo::gpu_label(gpu) + " " + info[i].pci_bus_id;
      const auto g = static_cast<std::size_t>(gpu);
      if (g < analysis.affinity.size() && analysis.affinity[g].nic >= 0) {
        ranks[i].nic = topo::nic_display_name(h.model, analysis.affinity[g].nic);
      }
    }
  }
}

// One row of the rank table, its host added to the job's hosts when new (a real job and a
// simulated one alike).
void add_rank(report::LocateReport& rep, report::LocateRank row) {
  if (std::find(rep.job.hosts.begin(), rep.job.hosts.end(), row.host) == rep.job.hosts.end())
    rep.job.hosts.push_back(row.host);
  rep.ranks.push_back(std::move(row));
}

void fill_context(report::LocateReport& rep, const std::vector<std::string>& argv, Session& s,
                  const std::vector<report::RankInfo>& info, const std::vector<engine::locate::RankPlace>& places) {
  fill_job_header(rep.job, s, argv);
  for (std::size_t i = 0; i < info.size(); ++i) {
    const auto& r = info[i];
    add_rank(rep, {r.rank, places[i].host, places[i].local_rank, r.device, r.device_name, r.pci_bus_id, "", "",
                   places[i].leaf});
  }
}

// The text on stdout, then the JSON document when -J named one (written whole or not at all).
Status print_and_save(const report::LocateReport& rep, const std::string& path) {
  report::write_locate_text(std::cout, rep);
  if (path.empty()) return ok_status();
  COLLBENCH_RETURN_IF_ERROR(report::write_file_atomically(path, report::locate_json_text(rep)));
  std::cout << "# JSON report written to " << path << "\n";
  return ok_status();
}

Status verdict_status(const report::LocateReport& rep) {
  if (rep.verdict != report::LocateVerdict::kOutlier) return ok_status();
  std::string who;
  for (const auto& f : rep.findings) {
    const std::string d = report::describe_finding(rep, f);
    if (who.find(d) == std::string::npos) who += (who.empty() ? "" : "; ") + d;
  }
  return Status::error(ErrorCode::kOutlier, "locate: far slower than the rest: " + who);
}

// Rank 0's verdict on every rank, so that the whole job exits alike.
Result<bool> share_verdict(bootstrap::Bootstrap& boot, bool outlier) {
  std::array<double, 1> v = {outlier ? 1.0 : 0.0};
  COLLBENCH_RETURN_IF_ERROR(boot.allreduce(v, ReduceOp::kMax));
  return v[0] != 0;
}

// A path flag that refuses "" (an unset variable in a script) rather than taking it as absent.
CLI::Validator non_empty_path(const std::string& name) {
  return CLI::Validator([](const std::string& v) { return v.empty() ? std::string("an empty path") : std::string(); },
                        name);
}

// --simulate: the model read and checked, the locator run over a SimMeasurer in this process.
CommandResult simulate_locate(const LocateCommand& cmd, const std::vector<std::string>& argv) {
  CommandResult result = CommandResult::from_launcher(topo::host_name());
  const std::string start_time = utc_now_iso8601();
  const std::string where = "--simulate '" + cmd.simulate_file + "'";
  auto text = read_text_file(cmd.simulate_file, kMaxModelBytes);
  if (!text.ok()) return result.with(Status::error(ErrorCode::kUsage, where + ": " + text.status().message()));
  auto model = engine::locate::sim::parse_sim_model(*text);
  if (!model.ok()) return result.with(Status::error(ErrorCode::kUsage, where + ": " + model.status().message()));
  auto m = engine::locate::sim::SimMeasurer::make(*model);
  if (!m.ok()) return result.with(m.status().with_context(where));
  bootstrap::SingleBootstrap one;  // the output path is agreed as in a job of one process
  auto path = agree_output_path(one, cmd.output_file, cmd.force);
  if (!path.ok()) return result.with(path.status());

  engine::locate::LocateOptions options;
  options.budget_s = cmd.budget_s;
  options.min_bytes = cmd.min_bytes;
  options.max_bytes = std::max(cmd.max_bytes != 0 ? cmd.max_bytes : kDeviceMaxBytes, cmd.min_bytes);
  options.places = engine::locate::sim::places_of(m->network());
  const std::clock_t cpu_began = std::clock();
  auto rep = engine::locate::run_locate(options, *m, {});
  if (!rep.ok()) return result.with(rep.status());
  const double cpu_s = static_cast<double>(std::clock() - cpu_began) / CLOCKS_PER_SEC;

  rep->job = {version(), git_commit(), start_time, argv, "simulated", "simulated", "flow model", "none", m->size(), {}};
  for (std::size_t i = 0; i < options.places.size(); ++i) {
    const auto& p = options.places[i];
    add_rank(*rep, {static_cast<int>(i), p.host, p.local_rank, "simulated", "", "", "", "", p.leaf});
  }
  const auto& noise = model->noise;
  rep->notes.push_back(
      "simulated from " + cmd.simulate_file + " (seed " + std::to_string(model->seed) + ", noise sigma " +
      report::format_fixed(noise.sigma, 3) + ", spikes " + report::format_fixed(noise.spike_probability, 4) + " x" +
      report::format_fixed(noise.spike_factor, 1) + "): every time is modelled and spent_s is simulated time; " +
      std::to_string(m->steps()) + " timed steps and " + std::to_string(m->agreements()) + " agreements, " +
      report::format_fixed(cpu_s, 2) + " s of CPU");
  Status saved = print_and_save(*rep, *path);
  if (!saved.ok()) return result.with(saved);
  return result.with(verdict_status(*rep));
}

}  // namespace

void add_locate_flags(CLI::App& app, RawLocateFlags& raw) {
  app.add_option("--budget", raw.budget,
                 "Seconds the whole command may take; the plan (sizes, repetitions, rounds) "
                 "is fitted to it")
      ->capture_default_str()
      ->type_name("SECONDS");
  app.add_option("-b,--minbytes", raw.min_bytes, "Smallest message size (the straggler sweep starts here)")
      ->capture_default_str()
      ->type_name("SIZE");
  app.add_option("-e,--maxbytes", raw.max_bytes, "Largest message size [8M on host memory, 256M on GPUs]")
      ->type_name("SIZE");
  app.add_option("-T,--timeout", raw.timeout, "Seconds any collective or exchange may take (0: no limit)")
      ->capture_default_str()
      ->type_name("SECONDS");
  app.add_option("-J,--output_file", raw.output_file,
                 "Write the report as JSON here (never overwritten without --force)")
      ->type_name("FILE");
  app.add_flag("--force", raw.force, "Overwrite an existing -J file");
  app.add_option("--bootstrap", raw.bootstrap, bootstrap_flag_help())->capture_default_str()->type_name("NAME");
  app.add_option("--backend", raw.backend, backend_flag_help())->capture_default_str()->type_name("NAME");
  app.add_flag("--no-progress", raw.no_progress, "Never show the progress line on stderr");
  app.add_flag("--no-topology", raw.no_topology, "Do not discover each host's topology (GPU and NIC of each rank)");
  app.add_option("--fabric", raw.fabric,
                 "The switch tree: Slurm's topology.conf (SwitchName=, Nodes=, Switches=) or the same tree as JSON, "
                 "read on rank 0's host; each leaf's pairs across it are then compared with those inside it, to name "
                 "a slow uplink")
      ->type_name("FILE")
      ->check(non_empty_path("FILE"));
  app.add_option("--simulate", raw.simulate,
                 "Run the same plan and verdict on a simulated cluster instead of this job: MODEL.json gives hosts, "
                 "ranks per host, link speeds, leaves, faults, noise and seed (docs/locate.md); times are modelled "
                 "and the budget is spent in simulated time")
      ->type_name("MODEL.json")
      ->check(non_empty_path("MODEL.json"));
  app.add_option("--fault", raw.fault,
                 "TEST ONLY, never in production: slow-rank=R,delay-us=U[,min-size=S] delays every timed operation of "
                 "rank R (all_reduce, pairs, rings) by U microseconds; split-hosts=N pretends the ranks sit on N hosts "
                 "(consecutive blocks)")
      ->type_name("SPEC");
}

Result<LocateCommand> resolve_locate_flags(const RawLocateFlags& raw) {
  LocateCommand cmd;
  auto budget = parse_double(raw.budget);
  if (!budget.ok()) return Status::error(ErrorCode::kUsage, "--budget: " + budget.status().message());
  if (!(*budget >= kMinBudgetS)) return Status::error(ErrorCode::kUsage, "--budget: must be at least 1 second");
  cmd.budget_s = *budget;
  COLLBENCH_ASSIGN_OR_RETURN(cmd.min_bytes, size_flag("-b/--minbytes", raw.min_bytes));
  if (!raw.max_bytes.empty()) {
    COLLBENCH_ASSIGN_OR_RETURN(cmd.max_bytes, size_flag("-e/--maxbytes", raw.max_bytes));
    if (cmd.min_bytes > cmd.max_bytes) {
      return Status::error(ErrorCode::kUsage,
                           "-b/--minbytes " + raw.min_bytes + " is larger than -e/--maxbytes " + raw.max_bytes);
    }
  }
  COLLBENCH_RETURN_IF_ERROR(check_session_choices(raw.bootstrap, raw.backend));
  COLLBENCH_ASSIGN_OR_RETURN(cmd.session.timeout_s, parse_timeout(raw.timeout));
  cmd.session.bootstrap = raw.bootstrap;
  cmd.session.backend = raw.backend;
  cmd.output_file = raw.output_file;
  cmd.force = raw.force;
  cmd.progress = !raw.no_progress;
  cmd.topology = !raw.no_topology;
  cmd.fabric_file = raw.fabric;
  cmd.simulate_file = raw.simulate;
  if (!cmd.simulate_file.empty() && !cmd.fabric_file.empty()) {
    return Status::error(ErrorCode::kUsage,
                         "--simulate and --fabric: the model's hosts_per_leaf places the simulated hosts under leaves");
  }
  if (!cmd.simulate_file.empty() && !raw.fault.empty()) {
    return Status::error(ErrorCode::kUsage, "--simulate and --fault: the model's \"faults\" say what is slow");
  }
  if (!raw.fault.empty()) {
    COLLBENCH_ASSIGN_OR_RETURN(cmd.fault, parse_fault(raw.fault));
    COLLBENCH_RETURN_IF_ERROR(check_fault(cmd.fault));
  }
  return cmd;
}

CommandResult locate_command(const LocateCommand& cmd, const std::vector<std::string>& argv, SignalStop& signals,
                             std::chrono::steady_clock::time_point start) {
  if (!cmd.simulate_file.empty()) return simulate_locate(cmd, argv);
  CommandResult result = CommandResult::from_launcher(topo::host_name());
  const std::string start_time = utc_now_iso8601();
  auto session = Session::open(cmd.session);
  if (!session.ok()) return result.with(session.status(), speaks_after_failed_open(session.status()));
  Session& s = **session;
  bootstrap::Bootstrap& b = s.boot();
  result.rank = b.rank();
  result.nranks = b.size();
  auto path = agree_output_path(b, cmd.output_file, cmd.force);
  if (!path.ok()) return result.with(path.status(), b.rank() == 0);

  backend::DeviceInfo device = s.backend().device();
  if (device.device == "cpu") device.name = "CPUs " + topo::allowed_cpus();
  auto info = engine::gather_rank_table(b, device, result.host);
  if (!info.ok()) return result.with(info.status(), true);
  std::vector<HostTopology> hosts;
  std::vector<std::string> failures;
  if (cmd.topology) {
    auto gathered = gather_host_topologies(b, result.host, failures);
    if (!gathered.ok()) return result.with(gathered.status(), true);
    hosts = std::move(gathered).value();
  }

  engine::locate::LocateOptions options;
  options.budget_s = cmd.budget_s;
  options.start = start;
  options.min_bytes = cmd.min_bytes;
  options.max_bytes = cmd.max_bytes != 0 ? cmd.max_bytes : (device.device == "cpu" ? kHostMaxBytes : kDeviceMaxBytes);
  options.max_bytes = std::max(options.max_bytes, options.min_bytes);
  options.fault = cmd.fault;
  options.places = places_of(*info, cmd.fault.split_hosts);
  auto fabric = agree_fabric(b, cmd.fabric_file);
  if (!fabric.ok()) return result.with(fabric.status(), b.rank() == 0);
  const std::vector<std::string> fabric_notes = place_on_fabric(options.places, *fabric);

  report::ProgressReporter progress_line(std::cerr);
  engine::locate::ProgressSink sink;
  if (b.rank() == 0 && cmd.progress && isatty(STDERR_FILENO)) {
    (void)progress_line.begin(report::RunContext{});
    sink = [&progress_line](const report::Progress& p) { progress_line.progress(p); };
  }
  auto rep = engine::locate::run_locate(options, b, s.backend(), s.watchdog(), sink, signals.token());
  (void)progress_line.end(report::RunSummary{});
  if (!rep.ok()) return result.with(rep.status(), true);
  auto outlier = share_verdict(b, rep->verdict == report::LocateVerdict::kOutlier);
  if (!outlier.ok()) return result.with(outlier.status(), true);
  // The other ranks wait for rank 0's report: a launcher that saw them leave with the outlier's
  // exit code would end the job before rank 0 had printed what it found.
  if (b.rank() != 0) {
    Status verdict = *outlier ? Status::error(ErrorCode::kOutlier, "locate: outlier found") : ok_status();
    return speak_then_leave(b, result.with(verdict, false));
  }

  rep->job.start_time = start_time;
  fill_context(*rep, argv, s, *info, options.places);
  label_devices(rep->ranks, hosts, *info);
  for (const auto& f : failures) rep->notes.push_back("topology discovery failed on " + f);
  rep->notes.insert(rep->notes.end(), fabric_notes.begin(), fabric_notes.end());
  if (!s.note().empty()) rep->notes.push_back(s.note());
  Status saved = print_and_save(*rep, *path);
  if (!saved.ok()) return speak_then_leave(b, result.with(saved, true));
  return speak_then_leave(b, result.with(verdict_status(*rep), true));
}

}  // namespace collbench::cli
