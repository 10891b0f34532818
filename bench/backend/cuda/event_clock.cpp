#include "bench/backend/cuda/event_clock.hpp"

#include "bench/backend/cuda/cuda_try.hpp"

namespace collbench::backend::cuda {

EventClock::~EventClock() {
  for (cudaEvent_t e : events_) (void)cudaEventDestroy(e);
}

Status EventClock::prepare(std::size_t marks) {
  while (events_.size() < marks) {
    cudaEvent_t event = nullptr;
    COLLBENCH_CUDA_TRY(cudaEventCreate(&event));
    events_.push_back(event);
  }
  prepared_ = marks;
  error_ = cudaSuccess;
  return ok_status();
}

Status EventClock::read_us(std::span<double> out) {
  if (out.size() > prepared_) return Status::error(ErrorCode::kInternal, "EventClock: more marks read than prepared");
  if (error_ != cudaSuccess) return cuda_error(error_, "cudaEventRecord(mark)", std::source_location::current());
  if (out.empty()) return ok_status();
  COLLBENCH_CUDA_TRY(cudaEventSynchronize(events_[out.size() - 1]));
  out[0] = 0;
  for (std::size_t i = 1; i < out.size(); ++i) {
    float ms = 0;
    COLLBENCH_CUDA_TRY(cudaEventElapsedTime(&ms, events_[0], events_[i]));
    out[i] = static_cast<double>(ms) * 1000.0;
  }
  return ok_status();
}

}  // namespace collbench::backend::cuda
