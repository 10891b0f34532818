// Per-iteration marks as CUDA events on the backend's stream: they time the GPU, and
// recording one is cheap enough for the timed loop. The events are created in prepare(),
// never in the loop, and reused from row to row.
#pragma once

#include <cuda_runtime_api.h>

#include <vector>

#include "bench/backend/memory.hpp"

namespace collbench::backend::cuda {

class EventClock final : public IterationClock {
 public:
  EventClock() = default;
  ~EventClock() override;
  EventClock(const EventClock&) = delete;
  EventClock& operator=(const EventClock&) = delete;

  void attach(cudaStream_t stream) { stream_ = stream; }
  Status prepare(std::size_t marks) override;
  // Cannot fail visibly inside the loop: the first error is kept and read_us() returns it.
  void mark(std::size_t index) override {
    const cudaError_t rc = cudaEventRecord(events_[index], stream_);
    if (rc != cudaSuccess && error_ == cudaSuccess) error_ = rc;
  }
  Status read_us(std::span<double> out) override;
  bool intrusive() const override { return true; }

 private:
  cudaStream_t stream_ = nullptr;
  std::vector<cudaEvent_t> events_;
  std::size_t prepared_ = 0;
  cudaError_t error_ = cudaSuccess;
};

}  // namespace collbench::backend::cuda
