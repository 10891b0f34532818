#include "bench/engine/preflight.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <map>
#include <set>

#include "bench/engine/rank_table.hpp"
#include "common/strings.hpp"
#include "common/units.hpp"

namespace collbench::engine {
namespace {

using report::PreflightProblem;
using report::PreflightRank;
using report::Severity;

std::string rank_list(const std::vector<int>& ranks) {
  std::vector<std::string> parts;
  parts.reserve(ranks.size());
  for (int r : ranks) parts.push_back(std::to_string(r));
  return (ranks.size() == 1 ? "rank " : "ranks ") + join(parts, ", ");
}

PreflightProblem problem(Severity severity, std::vector<int> ranks, std::vector<std::string> hosts, std::string message,
                         std::string fix) {
  return {severity, std::move(ranks), std::move(hosts), std::move(message), std::move(fix)};
}

void check_world_size(const std::vector<PreflightRank>& ranks, int world_size, std::vector<PreflightProblem>& out) {
  std::map<int, std::vector<const PreflightRank*>> by_claim;
  for (const auto& r : ranks) {
    if (r.launcher_world_size >= 0 && r.launcher_world_size != world_size)
      by_claim[r.launcher_world_size].push_back(&r);
  }
  for (const auto& [claim, group] : by_claim) {
    std::vector<int> ids;
    std::set<std::string> hosts;
    for (const auto* r : group) {
      ids.push_back(r->rank);
      hosts.insert(r->host);
    }
    out.push_back(problem(Severity::kError, ids, {hosts.begin(), hosts.end()},
                          rank_list(ids) + " on " + join({hosts.begin(), hosts.end()}, ", ") +
                              " were started for a world of " + std::to_string(claim) + " ranks, but " +
                              std::to_string(world_size) + " joined",
                          "start every rank with the same WORLD_SIZE (or the same mpirun -np / srun --ntasks)"));
  }
}

void check_hosts(const std::vector<PreflightRank>& ranks, std::vector<PreflightProblem>& out) {
  std::map<std::string, std::vector<const PreflightRank*>> by_host;
  for (const auto& r : ranks) by_host[r.host].push_back(&r);
  std::map<std::size_t, std::vector<std::string>> hosts_by_count;
  for (const auto& [host, group] : by_host) {
    hosts_by_count[group.size()].push_back(host);
    std::map<int, std::vector<int>> by_local;
    std::map<std::string, std::vector<int>> by_device;
    for (const auto* r : group) {
      by_local[r->local_rank].push_back(r->rank);
      if (r->device != "cpu") by_device[r->pci_bus_id.empty() ? r->device : r->pci_bus_id].push_back(r->rank);
      if (r->visible_devices >= 0 && r->local_rank >= r->visible_devices) {
        out.push_back(problem(Severity::kError, {r->rank}, {host},
                              "rank " + std::to_string(r->rank) + " on " + host + " has local rank " +
                                  std::to_string(r->local_rank) + " but sees only " +
                                  std::to_string(r->visible_devices) + " GPU(s)",
                              "launch at most one rank per visible GPU on each host, or fix CUDA_VISIBLE_DEVICES"));
      }
    }
    for (const auto& [local, ids] : by_local) {
      if (ids.size() < 2) continue;
      out.push_back(problem(Severity::kError, ids, {host},
                            rank_list(ids) + " on " + host + " all have local rank " + std::to_string(local),
                            "give each process on a host its own LOCAL_RANK (torchrun, mpirun and srun set it)"));
    }
    for (const auto& [device, ids] : by_device) {
      if (ids.size() < 2) continue;
      out.push_back(problem(Severity::kError, ids, {host}, rank_list(ids) + " on " + host + " share the GPU " + device,
                            "select the GPU from the local rank (collbench does by default), and do not restrict "
                            "CUDA_VISIBLE_DEVICES to one GPU for all ranks"));
    }
  }
  if (hosts_by_count.size() > 1) {
    std::vector<std::string> parts;
    std::vector<std::string> all_hosts;
    for (const auto& [count, hosts] : hosts_by_count) {
      parts.push_back(join(hosts, ", ") + ": " + std::to_string(count));
      all_hosts.insert(all_hosts.end(), hosts.begin(), hosts.end());
    }
    out.push_back(problem(Severity::kWarning, {}, all_hosts,
                          "hosts run different numbers of ranks (" + join(parts, "; ") + ")",
                          "check the hostfile, --map-by or srun --ntasks-per-node"));
  }
}

constexpr char kSep = '\x1f';

std::string encode_facts(const PreflightRank& r) {
  return join({std::to_string(r.rank), r.host, std::to_string(r.pid), std::to_string(r.local_rank),
               std::to_string(r.local_size), r.device, r.device_name, r.pci_bus_id,
               std::to_string(r.launcher_world_size), std::to_string(r.visible_devices)},
              std::string(1, kSep));
}

Result<PreflightRank> decode_facts(std::string_view text) {
  const auto f = split(text, kSep);
  if (f.size() != 10) return Status::error(ErrorCode::kInternal, "malformed preflight record");
  PreflightRank r;
  const auto number = [](std::string_view s) -> long {
    const bool negative = !s.empty() && s[0] == '-';
    auto v = parse_uint(negative ? s.substr(1) : s);
    return v.ok() ? (negative ? -static_cast<long>(*v) : static_cast<long>(*v)) : 0;
  };
  r.rank = static_cast<int>(number(f[0]));
  r.host = std::string(f[1]);
  r.pid = number(f[2]);
  r.local_rank = static_cast<int>(number(f[3]));
  r.local_size = static_cast<int>(number(f[4]));
  r.device = std::string(f[5]);
  r.device_name = std::string(f[6]);
  r.pci_bus_id = std::string(f[7]);
  r.launcher_world_size = static_cast<int>(number(f[8]));
  r.visible_devices = static_cast<int>(number(f[9]));
  return r;
}

// The experiment itself: all_reduce of each rank's own number, on the measured backend.
Result<std::int64_t> sum_of_ranks(bootstrap::Bootstrap& boot, backend::Backend& backend, double& micros) {
  COLLBENCH_ASSIGN_OR_RETURN(backend::Buffer buffer, backend.allocate(sizeof(std::int64_t)));
  const auto mine = static_cast<std::int64_t>(boot.rank());
  COLLBENCH_RETURN_IF_ERROR(backend.memory().write_bytes(buffer.data(), &mine, sizeof mine));
  const coll::Counts one = coll::counts_for(coll::Collective::kAllReduce, 1, sizeof mine, boot.size());
  const backend::Call call{
      coll::Collective::kAllReduce, DataType::kInt64, ReduceOp::kSum, 0, one, buffer.data(), buffer.data(), true};
  COLLBENCH_RETURN_IF_ERROR(boot.barrier());
  const auto start = std::chrono::steady_clock::now();
  COLLBENCH_RETURN_IF_ERROR(backend.comm().launch(call));
  COLLBENCH_RETURN_IF_ERROR(backend.comm().synchronize());
  micros = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
  std::int64_t value = 0;
  COLLBENCH_RETURN_IF_ERROR(backend.memory().read_bytes(&value, buffer.data(), sizeof value));
  return value;
}

}  // namespace

std::vector<PreflightProblem> find_launch_problems(const std::vector<PreflightRank>& ranks, int world_size) {
  std::vector<PreflightProblem> out;
  check_world_size(ranks, world_size, out);
  check_hosts(ranks, out);
  return out;
}

Result<report::PreflightReport> run_preflight(bootstrap::Bootstrap& boot, backend::Backend& backend,
                                              const PreflightInputs& in) {
  const backend::DeviceInfo device = backend.device();
  PreflightRank me{boot.rank(),        in.host,           static_cast<long>(getpid()),
                   boot.local_rank(),  boot.local_size(), device.device,
                   device.name,        device.pci_bus_id, in.launcher_world_size,
                   in.visible_devices, in.bootstrap_ms,   in.communicator_ms};
  COLLBENCH_ASSIGN_OR_RETURN(auto texts, bootstrap::allgather_strings(boot, encode_facts(me)));
  report::PreflightReport rep;
  rep.job.nranks = boot.size();
  const auto n = static_cast<std::int64_t>(boot.size());
  rep.expected = n * (n - 1) / 2;
  for (const auto& text : texts) {
    COLLBENCH_ASSIGN_OR_RETURN(auto r, decode_facts(text));
    rep.ranks.push_back(std::move(r));
  }
  rep.problems = find_launch_problems(rep.ranks, boot.size());
  const bool blocked = std::any_of(rep.problems.begin(), rep.problems.end(),
                                   [](const auto& p) { return p.severity == Severity::kError; });

  // Every rank computes the same problems from the same table, so all skip or all run.
  std::array<double, 5> result = {0, 0, 0, in.bootstrap_ms, in.communicator_ms};
  if (!blocked) {
    double micros = 0;
    COLLBENCH_ASSIGN_OR_RETURN(std::int64_t value, sum_of_ranks(boot, backend, micros));
    if (in.corrupt_rank && *in.corrupt_rank == boot.rank()) value += 1;
    result = {1, static_cast<double>(value), micros, in.bootstrap_ms, in.communicator_ms};
  }
  std::vector<double> all(result.size() * rep.ranks.size());
  COLLBENCH_RETURN_IF_ERROR(boot.allgather(std::as_bytes(std::span(result)), std::as_writable_bytes(std::span(all))));
  bool wrong = false;
  for (std::size_t r = 0; r < rep.ranks.size(); ++r) {
    auto& line = rep.ranks[r];
    line.collective_ran = all[r * result.size()] != 0;
    line.value = static_cast<std::int64_t>(all[r * result.size() + 1]);
    line.value_ok = line.collective_ran && line.value == rep.expected;
    line.collective_us = all[r * result.size() + 2];
    line.bootstrap_ms = all[r * result.size() + 3];
    line.communicator_ms = all[r * result.size() + 4];
    wrong = wrong || (line.collective_ran && !line.value_ok);
  }
  rep.job.hosts = [&] {
    std::vector<std::string> hosts;
    for (const auto& r : rep.ranks) {
      if (std::find(hosts.begin(), hosts.end(), r.host) == hosts.end()) hosts.push_back(r.host);
    }
    return hosts;
  }();
  rep.verdict = blocked ? report::PreflightVerdict::kLaunchProblem
                        : (wrong ? report::PreflightVerdict::kWrongData : report::PreflightVerdict::kOk);
  return rep;
}

}  // namespace collbench::engine
