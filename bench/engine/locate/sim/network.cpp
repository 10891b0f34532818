#include "bench/engine/locate/sim/network.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace collbench::engine::locate::sim {
namespace {

Status bad(const std::string& why) { return Status::error(ErrorCode::kUsage, "simulated network: " + why); }

bool is_factor(double f) { return f > 0 && f <= 1; }

Status check_faults(const NetworkShape& s, const NetworkFaults& f, int leaves) {
  for (const auto& [host, factor] : f.host) {
    if (host < 0 || host >= s.hosts) return bad("slow host " + std::to_string(host) + " is not in the cluster");
    if (!is_factor(factor)) return bad("slow host " + std::to_string(host) + ": factor must be in (0, 1]");
  }
  for (const auto& [rank, factor] : f.nic) {
    if (rank < 0 || rank >= s.hosts * s.ranks_per_host)
      return bad("slow NIC of rank " + std::to_string(rank) + " is not in the cluster");
    if (!is_factor(factor)) return bad("slow NIC of rank " + std::to_string(rank) + ": factor must be in (0, 1]");
  }
  for (const auto& [leaf, factor] : f.uplink) {
    if (s.hosts_per_leaf == 0 || leaf < 0 || leaf >= leaves)
      return bad("slow uplink of leaf " + std::to_string(leaf) + " is not in the cluster");
    if (!is_factor(factor)) return bad("slow uplink of leaf " + std::to_string(leaf) + ": factor must be in (0, 1]");
  }
  for (const auto& [pair, factor] : f.link) {
    const bool ok = pair.first >= 0 && pair.first < pair.second && pair.second < s.hosts;
    const std::string name = std::to_string(pair.first) + "-" + std::to_string(pair.second);
    if (!ok) return bad("slow link " + name + ": two different hosts of the cluster, the lower first");
    if (!is_factor(factor)) return bad("slow link " + name + ": factor must be in (0, 1]");
  }
  return ok_status();
}

}  // namespace

int Network::leaves() const {
  return shape_.hosts_per_leaf > 0 ? (shape_.hosts + shape_.hosts_per_leaf - 1) / shape_.hosts_per_leaf : 1;
}

Result<Network> Network::make(const NetworkShape& shape, const NetworkFaults& faults) {
  if (shape.hosts < 1 || shape.ranks_per_host < 1) return bad("hosts and ranks per host must be at least 1");
  if (static_cast<long>(shape.hosts) * shape.ranks_per_host > (1L << 20)) return bad("more than 2^20 ranks");
  for (const double v : {shape.nic_gbps, shape.intra_host_gbps}) {
    if (!(v > 0) || !std::isfinite(v)) return bad("link speeds must be positive and finite");
  }
  if (shape.hosts_per_leaf < 0) return bad("hosts per leaf must be 0 (one switch) or more");
  if (!(shape.uplink_gbps >= 0) || !std::isfinite(shape.uplink_gbps)) return bad("uplink speed must be 0 or more");
  if (!(shape.latency_us >= 0) || !std::isfinite(shape.latency_us)) return bad("latency must be 0 or more");
  Network n;
  n.shape_ = shape;
  COLLBENCH_RETURN_IF_ERROR(check_faults(shape, faults, n.leaves()));
  const int ranks = n.ranks();
  n.capacity_.reserve(static_cast<std::size_t>(4 * ranks + 2 * n.leaves()) + faults.link.size());
  for (int r = 0; r < ranks; ++r) {
    const auto host = faults.host.find(n.host_of(r));
    const auto nic = faults.nic.find(r);
    const double factor = (host == faults.host.end() ? 1 : host->second) * (nic == faults.nic.end() ? 1 : nic->second);
    n.capacity_.insert(n.capacity_.end(), {shape.nic_gbps * factor, shape.nic_gbps * factor, shape.intra_host_gbps,
                                           shape.intra_host_gbps});
  }
  n.uplinks_at_ = n.capacity_.size();
  // One switch for all (hosts_per_leaf 0): no uplink is crossed, none is modelled.
  const int uplinks = shape.hosts_per_leaf > 0 ? n.leaves() : 0;
  for (int l = 0; l < uplinks; ++l) {
    const int hosts_here = std::min(shape.hosts_per_leaf, shape.hosts - l * shape.hosts_per_leaf);
    const double full = shape.uplink_gbps > 0 ? shape.uplink_gbps : shape.nic_gbps * hosts_here * shape.ranks_per_host;
    const auto fault = faults.uplink.find(l);
    const double up = full * (fault == faults.uplink.end() ? 1 : fault->second);
    n.capacity_.insert(n.capacity_.end(), {up, up});
  }
  for (const auto& [pair, factor] : faults.link) {
    n.links_[pair] = n.capacity_.size();
    // A slow link as the namespace cluster's `fault link` makes one: the path between the two
    // hosts, all their rails together, carries `factor` of what one pair of ranks would.
    n.capacity_.push_back(shape.nic_gbps * factor);
  }
  return n;
}

std::vector<std::size_t> Network::path(const Transfer& t) const {
  const auto src = static_cast<std::size_t>(t.src);
  const auto dst = static_cast<std::size_t>(t.dst);
  const int hs = host_of(t.src);
  const int hd = host_of(t.dst);
  if (hs == hd) return {4 * src + 2, 4 * dst + 3};
  std::vector<std::size_t> p = {4 * src, 4 * dst + 1};
  if (shape_.hosts_per_leaf > 0 && leaf_of_host(hs) != leaf_of_host(hd)) {
    p.push_back(uplinks_at_ + 2 * static_cast<std::size_t>(leaf_of_host(hs)));
    p.push_back(uplinks_at_ + 2 * static_cast<std::size_t>(leaf_of_host(hd)) + 1);
  }
  if (const auto it = links_.find({std::min(hs, hd), std::max(hs, hd)}); it != links_.end()) p.push_back(it->second);
  return p;
}

Result<std::vector<double>> Network::rates(const std::vector<Transfer>& step) const {
  std::vector<Flow> flows;
  flows.reserve(step.size());
  for (const Transfer& t : step) {
    if (t.src < 0 || t.dst < 0 || t.src >= ranks() || t.dst >= ranks() || t.src == t.dst) {
      return bad("transfer " + std::to_string(t.src) + " -> " + std::to_string(t.dst) + " is not between two ranks");
    }
    flows.push_back({path(t)});
  }
  return fair_share(capacity_, flows);
}

double Network::seconds(std::uint64_t bytes, double gbps) const {
  return static_cast<double>(bytes) / (gbps * 1e9) + shape_.latency_us * 1e-6;
}

}  // namespace collbench::engine::locate::sim
