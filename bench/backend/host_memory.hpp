// Host memory: page-aligned buffers, host pattern generation and checking, and a
// steady-clock iteration clock. The memory of the MPI and bootstrap backends.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "bench/backend/memory.hpp"

namespace collbench::backend {

Result<Buffer> allocate_host(std::uint64_t bytes);

class HostClock final : public IterationClock {
 public:
  Status prepare(std::size_t marks) override;
  void mark(std::size_t index) override { marks_[index] = std::chrono::steady_clock::now(); }
  Status read_us(std::span<double> out) override;

 private:
  std::vector<std::chrono::steady_clock::time_point> marks_;
};

class HostMemory final : public Memory {
 public:
  // `cpu_set`: the CPUs this rank may run on ("0-3"), shown as its device.
  explicit HostMemory(std::string cpu_set) : cpu_set_(std::move(cpu_set)) {}

  std::string_view kind() const override { return "host"; }
  DeviceInfo device() const override { return {"cpu", -1, "CPUs " + cpu_set_, "", -1, 0}; }
  Result<Buffer> allocate(std::uint64_t bytes) override { return allocate_host(bytes); }
  Status fill_input(void* dst, std::uint64_t count, const check::DataSpec& spec, int rank) override;
  Status poison(void* dst, std::uint64_t bytes) override;
  Result<check::CheckResult> verify(const void* recv, const check::DataSpec& spec, int rank,
                                    std::size_t max_report) override;
  Status write_bytes(void* dst, const void* src, std::size_t bytes) override;
  Status read_bytes(void* host_dst, const void* src, std::size_t bytes) override;
  IterationClock& clock() override { return clock_; }

 private:
  std::string cpu_set_;
  HostClock clock_;
};

}  // namespace collbench::backend
