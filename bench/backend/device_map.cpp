#include "bench/backend/device_map.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "common/strings.hpp"
#include "common/units.hpp"

namespace collbench::backend {
namespace {

constexpr char kSep = '\x1f';  // cannot appear in host names, bus ids or error messages

// "rank 3 on nodeB", "ranks 0, 1 on nodeA, nodeB"; long lists are cut.
std::string who(const std::vector<const DeviceClaim*>& claims) {
  std::vector<std::string> ranks;
  std::vector<std::string> hosts;
  std::set<std::string> seen;
  for (const DeviceClaim* c : claims) {
    if (ranks.size() < 8) ranks.push_back(std::to_string(c->rank));
    if (seen.insert(c->host).second && hosts.size() < 4) hosts.push_back(c->host);
  }
  std::string text = (claims.size() == 1 ? "rank " : "ranks ") + join(ranks, ", ");
  if (claims.size() > ranks.size()) text += ", ... (" + std::to_string(claims.size()) + " in all)";
  text += " on " + join(hosts, ", ");
  if (seen.size() > hosts.size()) text += ", ...";
  return text;
}

Result<int> field_int(std::string_view text) {
  COLLBENCH_ASSIGN_OR_RETURN(std::uint64_t v, parse_uint(text, 1u << 30));
  return static_cast<int>(v);
}

}  // namespace

Result<int> choose_device(int rank, std::string_view host, int local_rank, int visible_devices, int first_device) {
  if (visible_devices <= 0) {
    return Status::error(ErrorCode::kComm, no_device_message(100, "no CUDA-capable device is detected"));
  }
  if (first_device >= 0) {
    if (first_device + local_rank < visible_devices) return first_device + local_rank;
    return Status::error(ErrorCode::kLaunch, "rank " + std::to_string(rank) + " on " + std::string(host) +
                                                 ": NCCL_TESTS_DEVICE=" + std::to_string(first_device) +
                                                 " plus local rank " + std::to_string(local_rank) + " is beyond the " +
                                                 std::to_string(visible_devices) + " GPUs this process sees");
  }
  if (local_rank < visible_devices) return local_rank;
  if (visible_devices == 1) return 0;
  return Status::error(ErrorCode::kLaunch,
                       "rank " + std::to_string(rank) + " on " + std::string(host) + " has local rank " +
                           std::to_string(local_rank) + " but sees only " + std::to_string(visible_devices) +
                           " GPUs: launch at most one rank per visible GPU on each host, or fix CUDA_VISIBLE_DEVICES");
}

std::string no_device_message(int error_code, std::string_view error_text) {
  return "no CUDA device visible (driver error " + std::to_string(error_code) + ": " + std::string(error_text) + ")";
}

Status check_device_claims(const std::vector<DeviceClaim>& claims) {
  // Ranks without a device, grouped by what went wrong, first problem (in rank order) first.
  std::vector<std::pair<std::string, std::vector<const DeviceClaim*>>> failed;
  for (const DeviceClaim& c : claims) {
    if (c.error.empty()) continue;
    auto it = std::find_if(failed.begin(), failed.end(), [&](const auto& f) { return f.first == c.error; });
    if (it == failed.end()) it = failed.insert(failed.end(), {c.error, {}});
    it->second.push_back(&c);
  }
  if (!failed.empty()) {
    const auto& [message, group] = failed.front();
    const ErrorCode code = group.front()->error_code == ErrorCode::kOk ? ErrorCode::kComm : group.front()->error_code;
    // A message that already names its rank (local rank too large), or the only rank of the
    // job (the error line names it), needs no prefix.
    if (claims.size() == 1 || (group.size() == 1 && message.starts_with("rank "))) return Status::error(code, message);
    return Status::error(code, who(group) + ": " + message);
  }

  std::map<std::pair<std::string, std::string>, std::vector<const DeviceClaim*>> by_gpu;
  for (const DeviceClaim& c : claims) {
    const std::string id = c.pci_bus_id.empty() ? "device " + std::to_string(c.device) : c.pci_bus_id;
    by_gpu[{c.host, id}].push_back(&c);
  }
  for (const auto& [gpu, group] : by_gpu) {
    if (group.size() < 2) continue;
    return Status::error(ErrorCode::kLaunch,
                         who(group) + " share the GPU " + gpu.second +
                             ": select the GPU from the local rank (collbench does by default), and do not restrict "
                             "CUDA_VISIBLE_DEVICES to the same GPU for every rank of a host");
  }
  return ok_status();
}

std::string encode_claim(const DeviceClaim& c) {
  return join({std::to_string(c.rank), c.host, std::to_string(c.local_rank), std::to_string(c.visible_devices),
               std::to_string(c.device + 1), c.pci_bus_id, std::to_string(static_cast<int>(c.error_code)), c.error},
              std::string(1, kSep));
}

Result<DeviceClaim> decode_claim(std::string_view text) {
  const auto f = split(text, kSep);
  if (f.size() != 8) return Status::error(ErrorCode::kInternal, "malformed device claim");
  DeviceClaim c;
  COLLBENCH_ASSIGN_OR_RETURN(c.rank, field_int(f[0]));
  c.host = std::string(f[1]);
  COLLBENCH_ASSIGN_OR_RETURN(c.local_rank, field_int(f[2]));
  COLLBENCH_ASSIGN_OR_RETURN(c.visible_devices, field_int(f[3]));
  COLLBENCH_ASSIGN_OR_RETURN(const int device, field_int(f[4]));
  c.device = device - 1;
  c.pci_bus_id = std::string(f[5]);
  COLLBENCH_ASSIGN_OR_RETURN(const int code, field_int(f[6]));
  c.error_code = static_cast<ErrorCode>(code);
  c.error = std::string(f[7]);
  return c;
}

}  // namespace collbench::backend
