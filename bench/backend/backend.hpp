// A backend is a Memory (where the data lives, how it is filled, checked and timed) paired
// with a Communicator (the library that moves it): MPI or the bootstrap on host memory, NCCL
// on CUDA device memory. The engine sees only these interfaces, never a vendor type.
#pragma once

#include <cstdint>
#include <memory>

#include "bench/backend/buffer.hpp"
#include "bench/backend/communicator.hpp"
#include "bench/backend/memory.hpp"

namespace collbench::backend {

// A communicator that registers buffers with its library (NCCL's -R) says so through this
// hook; the backend calls it for every buffer it allocates.
class BufferRegistrar {
 public:
  virtual ~BufferRegistrar() = default;
  virtual Result<Buffer> attach(Buffer buffer) = 0;
};

class Backend {
 public:
  // `registrar` (may be null) is the communicator itself where it registers buffers.
  Backend(std::unique_ptr<Memory> memory, std::unique_ptr<Communicator> comm, BufferRegistrar* registrar = nullptr)
      : memory_(std::move(memory)), comm_(std::move(comm)), registrar_(registrar) {}
  ~Backend() = default;
  Backend(const Backend&) = delete;
  Backend& operator=(const Backend&) = delete;

  Memory& memory() { return *memory_; }
  Communicator& comm() { return *comm_; }
  const Communicator& comm() const { return *comm_; }

  BackendInfo info() const {
    BackendInfo i = comm_->info();
    i.memory = std::string(memory_->kind());
    return i;
  }
  DeviceInfo device() const { return memory_->device(); }

  // A buffer of this memory, registered with the communicator where it registers buffers.
  Result<Buffer> allocate(std::uint64_t bytes) {
    COLLBENCH_ASSIGN_OR_RETURN(Buffer b, memory_->allocate(bytes));
    if (registrar_ == nullptr) return b;
    return registrar_->attach(std::move(b));
  }

 private:
  // Declared in this order so that the communicator goes first: it may still refer to the
  // memory's device and stream.
  std::unique_ptr<Memory> memory_;
  std::unique_ptr<Communicator> comm_;
  BufferRegistrar* registrar_;
};

}  // namespace collbench::backend
