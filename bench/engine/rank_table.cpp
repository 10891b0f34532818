#include "bench/engine/rank_table.hpp"

#include <unistd.h>

#include <algorithm>

#include "common/strings.hpp"
#include "common/units.hpp"

namespace collbench::engine {
namespace {

constexpr char kSep = '\x1f';  // ASCII unit separator: cannot appear in host or device names

std::string encode(const report::RankInfo& r) {
  return std::to_string(r.rank) + kSep + r.host + kSep + std::to_string(r.pid) + kSep + std::to_string(r.local_rank) +
         kSep + r.device + kSep + r.device_name + kSep + r.pci_bus_id + kSep + std::to_string(r.device_memory_bytes);
}

Result<report::RankInfo> decode(std::string_view text) {
  const auto f = split(text, kSep);
  if (f.size() != 8) return Status::error(ErrorCode::kInternal, "malformed rank record");
  report::RankInfo r;
  COLLBENCH_ASSIGN_OR_RETURN(auto rank, parse_uint(f[0]));
  COLLBENCH_ASSIGN_OR_RETURN(auto pid, parse_uint(f[2]));
  COLLBENCH_ASSIGN_OR_RETURN(auto local, parse_uint(f[3]));
  r.rank = static_cast<int>(rank);
  r.host = std::string(f[1]);
  r.pid = static_cast<long>(pid);
  r.local_rank = static_cast<int>(local);
  r.device = std::string(f[4]);
  r.device_name = std::string(f[5]);
  r.pci_bus_id = std::string(f[6]);
  COLLBENCH_ASSIGN_OR_RETURN(r.device_memory_bytes, parse_uint(f[7]));
  return r;
}

}  // namespace

Result<std::vector<report::RankInfo>> gather_rank_table(bootstrap::Bootstrap& boot, const backend::DeviceInfo& device,
                                                        const std::string& host) {
  report::RankInfo mine{boot.rank(),   host,        static_cast<long>(getpid()), boot.local_rank(),
                        device.device, device.name, device.pci_bus_id,           device.memory_bytes};
  COLLBENCH_ASSIGN_OR_RETURN(auto texts, bootstrap::allgather_strings(boot, encode(mine)));
  std::vector<report::RankInfo> table;
  table.reserve(texts.size());
  for (const auto& text : texts) {
    COLLBENCH_ASSIGN_OR_RETURN(auto info, decode(text));
    table.push_back(std::move(info));
  }
  return table;
}

std::vector<std::string> distinct_hosts(const std::vector<report::RankInfo>& ranks) {
  std::vector<std::string> hosts;
  for (const auto& r : ranks) {
    if (std::find(hosts.begin(), hosts.end(), r.host) == hosts.end()) hosts.push_back(r.host);
  }
  return hosts;
}

}  // namespace collbench::engine
