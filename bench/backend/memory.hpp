// Where the measured data lives, and everything done to it that is not communication:
// allocation, the test patterns written and checked where the memory is, small copies to and
// from the host, and the clock that marks iterations on the same timeline as the work. Host
// memory (host_memory.hpp) and CUDA device memory (cuda/cuda_memory.hpp) implement it; any
// communicator can run on either, so a new library reuses these data paths.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "bench/backend/buffer.hpp"
#include "bench/check/host_check.hpp"
#include "common/status.hpp"

namespace collbench::backend {

// What this rank measures on, for the "Using devices" block.
struct DeviceInfo {
  std::string device = "cpu";      // "cpu" or "cuda:N"
  int index = -1;                  // device ordinal, -1 for host memory
  std::string name;                // GPU name or CPU set
  std::string pci_bus_id;          // empty for host memory
  int visible_devices = -1;        // GPUs this process can see; -1 for host memory
  std::uint64_t memory_bytes = 0;  // the device's memory; 0 for host memory
};

// Timestamps taken between launches. mark() must be cheap and allocation-free: it runs inside
// the timed loop. On GPUs these are stream events, so they time the device, not the host.
class IterationClock {
 public:
  virtual ~IterationClock() = default;
  virtual Status prepare(std::size_t marks) = 0;
  virtual void mark(std::size_t index) = 0;
  // After the work is synchronized: microseconds of each mark since mark 0.
  virtual Status read_us(std::span<double> out) = 0;
  // Whether a mark adds work the measured operations share (a CUDA event between NCCL
  // launches): such marks are taken only when asked for (-I 1), as in nccl-tests.
  virtual bool intrusive() const { return false; }
};

class Memory {
 public:
  virtual ~Memory() = default;

  virtual std::string_view kind() const = 0;  // "host" or "device"
  virtual DeviceInfo device() const = 0;

  virtual Result<Buffer> allocate(std::uint64_t bytes) = 0;
  // The data path runs where the memory lives: patterns are generated and checked there.
  virtual Status fill_input(void* dst, std::uint64_t count, const check::DataSpec& spec, int rank) = 0;
  virtual Status poison(void* dst, std::uint64_t bytes) = 0;
  virtual Result<check::CheckResult> verify(const void* recv, const check::DataSpec& spec, int rank,
                                            std::size_t max_report) = 0;
  // Small copies between host and this memory (control values, fault injection), complete
  // when they return.
  virtual Status write_bytes(void* dst, const void* src, std::size_t bytes) = 0;
  virtual Status read_bytes(void* host_dst, const void* src, std::size_t bytes) = 0;
  virtual IterationClock& clock() = 0;
};

}  // namespace collbench::backend
