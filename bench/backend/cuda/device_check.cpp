#include "bench/backend/cuda/device_check.hpp"

#include <algorithm>
#include <cstring>

#include "bench/backend/cuda/cuda_try.hpp"
#include "bench/check/codec.hpp"

namespace collbench::backend::cuda {
namespace {

double as_double(DataType type, std::uint64_t bits) {
  return check::dispatch_type(type, [&]<DataType T>() {
    typename check::Codec<T>::Storage value{};
    std::memcpy(&value, &bits, sizeof value);
    return check::Codec<T>::to_double(value);
  });
}

// One past the last receive-buffer index that rank `rank`'s segments cover.
std::uint64_t covered_end(const check::DataSpec& spec, int rank) {
  std::uint64_t end = 0;
  for (int s = 0; s < check::segment_count(spec.layout, rank); ++s) {
    const check::Segment seg = check::segment_at(spec.layout, rank, s);
    end = std::max(end, seg.out_begin + seg.length);
  }
  return end;
}

}  // namespace

DeviceChecker::~DeviceChecker() {
  if (state_ != nullptr) (void)cudaFree(state_);
}

Status DeviceChecker::reserve(std::uint32_t capacity) {
  if (capacity <= capacity_) return ok_status();
  if (state_ != nullptr) COLLBENCH_CUDA_TRY(cudaFree(state_));
  state_ = nullptr;
  capacity_ = 0;
  COLLBENCH_CUDA_TRY(cudaMalloc(&state_, sizeof(CheckCounters) + capacity * sizeof(MismatchBits)));
  capacity_ = capacity;
  return ok_status();
}

Result<DeviceChecker::Pass> DeviceChecker::check_window(const void* recv, const check::DataSpec& spec, int rank,
                                                        std::uint64_t lo, std::uint64_t hi) {
  auto* counters = static_cast<CheckCounters*>(state_);
  auto* slots = reinterpret_cast<MismatchBits*>(counters + 1);
  const CheckCounters fresh;
  COLLBENCH_CUDA_TRY(cudaMemcpyAsync(counters, &fresh, sizeof fresh, cudaMemcpyHostToDevice, stream_));
  for (int s = 0; s < check::segment_count(spec.layout, rank); ++s) {
    const check::Segment seg = check::segment_at(spec.layout, rank, s);
    const std::uint64_t first = std::max(lo, seg.out_begin) - seg.out_begin;
    const std::uint64_t last = std::min(hi, seg.out_begin + seg.length);
    if (last <= seg.out_begin + first) continue;
    COLLBENCH_CUDA_TRY(
        check_segment_device(recv, spec, seg, first, last - seg.out_begin, counters, slots, capacity_, sms_, stream_));
  }
  Pass pass;
  COLLBENCH_CUDA_TRY(cudaMemcpyAsync(&pass.counters, counters, sizeof pass.counters, cudaMemcpyDeviceToHost, stream_));
  COLLBENCH_CUDA_TRY(cudaStreamSynchronize(stream_));
  pass.recorded.resize(std::min<unsigned long long>(pass.counters.recorded, capacity_));
  if (!pass.recorded.empty()) {
    COLLBENCH_CUDA_TRY(
        cudaMemcpy(pass.recorded.data(), slots, pass.recorded.size() * sizeof(MismatchBits), cudaMemcpyDeviceToHost));
  }
  std::sort(pass.recorded.begin(), pass.recorded.end(),
            [](const MismatchBits& a, const MismatchBits& b) { return a.index < b.index; });
  return pass;
}

// Windows from the first wrong index: a window with more wrong elements than the slots hold
// is halved (its recorded ones are not necessarily its first), one that fits is taken whole
// and the next one doubles. A window of one element always fits, so this ends.
Result<std::vector<MismatchBits>> DeviceChecker::first_mismatches(const void* recv, const check::DataSpec& spec,
                                                                  int rank, std::uint64_t first_bad,
                                                                  std::size_t wanted) {
  std::vector<MismatchBits> found;
  const std::uint64_t end = covered_end(spec, rank);
  std::uint64_t lo = first_bad;
  std::uint64_t width = std::uint64_t{1} << 16;
  while (found.size() < wanted && lo < end) {
    const std::uint64_t hi = lo + std::min(width, end - lo);
    COLLBENCH_ASSIGN_OR_RETURN(Pass pass, check_window(recv, spec, rank, lo, hi));
    if (pass.counters.wrong > capacity_ && width > 1) {
      width /= 2;
      continue;
    }
    for (const auto& m : pass.recorded) {
      if (found.size() < wanted) found.push_back(m);
    }
    lo = hi;
    width *= 2;
  }
  return found;
}

Result<check::CheckResult> DeviceChecker::verify(const void* recv, const check::DataSpec& spec, int rank,
                                                 std::size_t max_report) {
  check::CheckResult result;
  if (check::segment_count(spec.layout, rank) == 0) return result;
  COLLBENCH_RETURN_IF_ERROR(reserve(static_cast<std::uint32_t>(std::max<std::size_t>(max_report, 1))));
  COLLBENCH_ASSIGN_OR_RETURN(Pass all, check_window(recv, spec, rank, 0, covered_end(spec, rank)));
  result.wrong = all.counters.wrong;
  if (result.wrong == 0 || max_report == 0) return result;
  std::vector<MismatchBits> first = std::move(all.recorded);
  if (all.counters.wrong > capacity_) {
    COLLBENCH_ASSIGN_OR_RETURN(first, first_mismatches(recv, spec, rank, all.counters.first_bad, max_report));
  }
  for (std::size_t i = 0; i < first.size() && i < max_report; ++i) {
    result.first.push_back(
        {first[i].index, as_double(spec.type, first[i].expected), as_double(spec.type, first[i].got)});
  }
  return result;
}

}  // namespace collbench::backend::cuda
