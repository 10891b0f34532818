#include "bench/backend/cuda/device_select.hpp"

#include <cuda_runtime_api.h>

#include "bench/backend/device_map.hpp"
#include "bench/backend/cuda/cuda_try.hpp"

namespace collbench::backend::cuda {
namespace {

Status no_device(cudaError_t rc) {
  return Status::error(ErrorCode::kComm, no_device_message(static_cast<int>(rc), cudaGetErrorString(rc)));
}

// Looks at this process's GPUs, picks one and makes it current; fills as much of the claim
// as it learns on the way.
Status claim_device(const bootstrap::Bootstrap& boot, int first_device, DeviceClaim& claim, SelectedDevice& out) {
  int count = 0;
  const cudaError_t rc = cudaGetDeviceCount(&count);
  if (rc != cudaSuccess) {
    (void)cudaGetLastError();  // not sticky: later calls must not see it again
    return no_device(rc);
  }
  claim.visible_devices = count;
  COLLBENCH_ASSIGN_OR_RETURN(const int ordinal,
                             choose_device(boot.rank(), claim.host, boot.local_rank(), count, first_device));
  COLLBENCH_CUDA_TRY(cudaSetDevice(ordinal));
  cudaDeviceProp prop{};
  COLLBENCH_CUDA_TRY(cudaGetDeviceProperties(&prop, ordinal));
  char bus[32] = {};
  COLLBENCH_CUDA_TRY(cudaDeviceGetPCIBusId(bus, static_cast<int>(sizeof bus), ordinal));
  claim.device = ordinal;
  claim.pci_bus_id = bus;
  out.ordinal = ordinal;
  out.cc_major = prop.major;
  out.cc_minor = prop.minor;
  out.sms = prop.multiProcessorCount;
  out.info.device = "cuda:" + std::to_string(ordinal);
  out.info.index = ordinal;
  out.info.name = prop.name;
  out.info.pci_bus_id = bus;
  out.info.visible_devices = count;
  out.info.memory_bytes = prop.totalGlobalMem;
  return ok_status();
}

}  // namespace

Result<SelectedDevice> select_device(bootstrap::Bootstrap& boot, const std::string& host, int first_device) {
  DeviceClaim claim;
  claim.rank = boot.rank();
  claim.host = host;
  claim.local_rank = boot.local_rank();
  SelectedDevice selected;
  const Status mine = claim_device(boot, first_device, claim, selected);
  if (!mine.ok()) {
    claim.error_code = mine.code();
    claim.error = mine.message();
  }
  COLLBENCH_ASSIGN_OR_RETURN(auto texts, bootstrap::allgather_strings(boot, encode_claim(claim)));
  std::vector<DeviceClaim> claims;
  claims.reserve(texts.size());
  for (const auto& text : texts) {
    COLLBENCH_ASSIGN_OR_RETURN(auto c, decode_claim(text));
    claims.push_back(std::move(c));
  }
  COLLBENCH_RETURN_IF_ERROR(check_device_claims(claims));
  return selected;
}

}  // namespace collbench::backend::cuda
