#include "bench/backend/host_memory.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

#include "common/units.hpp"

namespace collbench::backend {
namespace {
constexpr std::size_t kPage = 4096;
}

Result<Buffer> allocate_host(std::uint64_t bytes) {
  const std::uint64_t rounded = (bytes + kPage - 1) / kPage * kPage;
  void* data = nullptr;
  if (rounded > 0) {
    const int rc = posix_memalign(&data, kPage, rounded);
    if (rc != 0) {
      return Status::error(ErrorCode::kUnsupported,
                           "cannot allocate " + format_bytes(rounded) + " of host memory: " + std::strerror(rc));
    }
    // Touch every page now so that page faults never land in a timed loop.
    std::memset(data, 0, rounded);
  }
  return Buffer(data, bytes, [](void* p) { std::free(p); });
}

Status HostClock::prepare(std::size_t marks) {
  marks_.assign(marks, std::chrono::steady_clock::time_point{});
  return ok_status();
}

Status HostClock::read_us(std::span<double> out) {
  if (out.size() > marks_.size())
    return Status::error(ErrorCode::kInternal, "HostClock: more marks read than prepared");
  for (std::size_t i = 0; i < out.size(); ++i) {
    out[i] = std::chrono::duration<double, std::micro>(marks_[i] - marks_[0]).count();
  }
  return ok_status();
}

Status HostMemory::fill_input(void* dst, std::uint64_t count, const check::DataSpec& spec, int rank) {
  check::fill_input_host(dst, count, spec, rank);
  return ok_status();
}

Status HostMemory::poison(void* dst, std::uint64_t bytes) {
  check::poison_host(dst, bytes);
  return ok_status();
}

Result<check::CheckResult> HostMemory::verify(const void* recv, const check::DataSpec& spec, int rank,
                                              std::size_t max_report) {
  return check::verify_output_host(recv, spec, rank, max_report);
}

Status HostMemory::write_bytes(void* dst, const void* src, std::size_t bytes) {
  std::memcpy(dst, src, bytes);
  return ok_status();
}

Status HostMemory::read_bytes(void* host_dst, const void* src, std::size_t bytes) {
  std::memcpy(host_dst, src, bytes);
  return ok_status();
}

}  // namespace collbench::backend
