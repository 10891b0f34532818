// Pattern generation and checking on the GPU, one pass over device memory, with the element
// functions of bench/check (the host checker's very definitions). Only counters and the first
// few mismatches ever leave the device.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "bench/check/host_check.hpp"
#include "bench/check/layout.hpp"

namespace collbench::backend::cuda {

// One wrong element, as raw bits of its type (zero-extended).
struct MismatchBits {
  std::uint64_t index = 0;  // in the receive buffer
  std::uint64_t expected = 0;
  std::uint64_t got = 0;
};

// What a check pass accumulates on the device.
struct CheckCounters {
  unsigned long long wrong = 0;          // wrong elements seen
  unsigned long long recorded = 0;       // slots claimed (may exceed the capacity)
  unsigned long long first_bad = ~0ull;  // lowest wrong index
};

// Grid size for a grid-stride loop over `count` elements on a GPU with `sms` multiprocessors.
struct LaunchShape {
  unsigned blocks = 1;
  unsigned threads = 256;
};
LaunchShape launch_shape(std::uint64_t count, int sms);

// dst[i] = rank's input value i for i < count, in spec's type.
cudaError_t fill_input_device(void* dst, std::uint64_t count, const check::DataSpec& spec, int rank, int sms,
                              cudaStream_t stream);

// Checks offsets [first, last) of segment `seg` of the receive buffer `recv`; adds to
// `counters` and records up to `capacity` mismatches in `slots` (device memory).
cudaError_t check_segment_device(const void* recv, const check::DataSpec& spec, const check::Segment& seg,
                                 std::uint64_t first, std::uint64_t last, CheckCounters* counters, MismatchBits* slots,
                                 std::uint32_t capacity, int sms, cudaStream_t stream);

}  // namespace collbench::backend::cuda
