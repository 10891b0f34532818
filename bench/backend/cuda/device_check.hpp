// Verification of a receive buffer on the device: one pass counts every wrong element and
// keeps a few; only when there are more wrong elements than that does it look again, over
// growing windows from the first wrong index, so that the ones it reports are the first.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

#include "bench/backend/cuda/device_kernels.hpp"
#include "bench/check/host_check.hpp"
#include "common/status.hpp"

namespace collbench::backend::cuda {

class DeviceChecker {
 public:
  DeviceChecker(cudaStream_t stream, int sms) : stream_(stream), sms_(sms) {}
  ~DeviceChecker();
  DeviceChecker(const DeviceChecker&) = delete;
  DeviceChecker& operator=(const DeviceChecker&) = delete;

  Result<check::CheckResult> verify(const void* recv, const check::DataSpec& spec, int rank, std::size_t max_report);

 private:
  struct Pass {
    CheckCounters counters;
    std::vector<MismatchBits> recorded;  // sorted by index; complete when counters.wrong <= capacity
  };

  Status reserve(std::uint32_t capacity);
  // Checks receive-buffer indices [lo, hi) of every segment of rank `rank`'s output.
  Result<Pass> check_window(const void* recv, const check::DataSpec& spec, int rank, std::uint64_t lo,
                            std::uint64_t hi);
  Result<std::vector<MismatchBits>> first_mismatches(const void* recv, const check::DataSpec& spec, int rank,
                                                     std::uint64_t first_bad, std::size_t wanted);

  cudaStream_t stream_;
  int sms_;
  void* state_ = nullptr;  // CheckCounters, then capacity_ MismatchBits slots
  std::uint32_t capacity_ = 0;
};

}  // namespace collbench::backend::cuda
