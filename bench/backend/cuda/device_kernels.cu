#include "bench/backend/cuda/device_kernels.hpp"

#include <algorithm>

#include "bench/check/element_check.hpp"

namespace collbench::backend::cuda {
namespace {

using check::ElementOf;

__device__ std::uint64_t global_thread() { return static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; }

__device__ std::uint64_t grid_threads() { return static_cast<std::uint64_t>(gridDim.x) * blockDim.x; }

template <DataType T>
__global__ void fill_kernel(ElementOf<T>* dst, std::uint64_t count, check::Pattern pattern, int rank) {
  for (std::uint64_t i = global_thread(); i < count; i += grid_threads()) {
    dst[i] = check::Codec<T>::from_integer(check::input_value(pattern, rank, i));
  }
}

template <DataType T>
__global__ void check_kernel(const ElementOf<T>* recv, check::DataSpec spec, check::Segment seg, std::uint64_t first,
                             std::uint64_t last, CheckCounters* counters, MismatchBits* slots, std::uint32_t capacity) {
  unsigned long long wrong = 0;
  unsigned long long first_bad = ~0ull;
  for (std::uint64_t offset = first + global_thread(); offset < last; offset += grid_threads()) {
    const ElementOf<T> want = check::expected_element<T>(spec, seg, offset);
    const ElementOf<T> got = recv[seg.out_begin + offset];
    if (check::element_matches<T>(got, want, spec)) continue;
    const std::uint64_t index = seg.out_begin + offset;
    ++wrong;
    first_bad = index < first_bad ? index : first_bad;
    // Once the slots are full, a broken buffer must not turn into one atomic per element.
    if (*static_cast<volatile unsigned long long*>(&counters->recorded) < capacity) {
      const unsigned long long slot = atomicAdd(&counters->recorded, 1ull);
      if (slot < capacity) slots[slot] = {index, check::element_bits(want), check::element_bits(got)};
    }
  }
  if (wrong != 0) {
    atomicAdd(&counters->wrong, wrong);
    atomicMin(&counters->first_bad, first_bad);
  }
}

}  // namespace

LaunchShape launch_shape(std::uint64_t count, int sms) {
  LaunchShape shape;
  const std::uint64_t wanted = (count + shape.threads - 1) / shape.threads;
  // Enough blocks to fill every multiprocessor several times over; more only adds launches.
  const std::uint64_t cap = static_cast<std::uint64_t>(std::max(sms, 1)) * 8;
  shape.blocks = static_cast<unsigned>(std::max<std::uint64_t>(1, std::min(wanted, cap)));
  return shape;
}

cudaError_t fill_input_device(void* dst, std::uint64_t count, const check::DataSpec& spec, int rank, int sms,
                              cudaStream_t stream) {
  if (count == 0) return cudaSuccess;
  const LaunchShape shape = launch_shape(count, sms);
  check::dispatch_type(spec.type, [&]<DataType T>() {
    fill_kernel<T>
        <<<shape.blocks, shape.threads, 0, stream>>>(static_cast<ElementOf<T>*>(dst), count, spec.pattern, rank);
  });
  return cudaGetLastError();
}

cudaError_t check_segment_device(const void* recv, const check::DataSpec& spec, const check::Segment& seg,
                                 std::uint64_t first, std::uint64_t last, CheckCounters* counters, MismatchBits* slots,
                                 std::uint32_t capacity, int sms, cudaStream_t stream) {
  if (first >= last) return cudaSuccess;
  const LaunchShape shape = launch_shape(last - first, sms);
  check::dispatch_type(spec.type, [&]<DataType T>() {
    check_kernel<T><<<shape.blocks, shape.threads, 0, stream>>>(static_cast<const ElementOf<T>*>(recv), spec, seg,
                                                                first, last, counters, slots, capacity);
  });
  return cudaGetLastError();
}

}  // namespace collbench::backend::cuda
