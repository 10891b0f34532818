// The collective backend interface: where the measured data lives and how it moves.
// Implementations: MPI on host memory, NCCL on GPUs. The engine sees only this interface.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "bench/backend/buffer.hpp"
#include "bench/check/host_check.hpp"
#include "bench/coll/collective.hpp"
#include "common/status.hpp"
#include "common/types.hpp"

namespace collbench::backend {

struct BackendInfo {
  std::string name;     // "mpi", "nccl"
  std::string library;  // "Open MPI v4.1.4", "NCCL 2.28.9 (headers 22809), CUDA 13.0"
  std::string memory;   // "host" or "device"
};

// What this rank measures on, for the "Using devices" block.
struct DeviceInfo {
  std::string device = "cpu";  // "cpu" or "cuda:N"
  int index = -1;              // device ordinal, -1 for host memory
  std::string name;            // GPU name or CPU set
  std::string pci_bus_id;      // empty for host memory
  int visible_devices = -1;    // GPUs this process can see; -1 for host memory
  std::uint64_t memory_bytes = 0;  // the device's memory; 0 for host memory
};

// One collective call. In place, `send` and `recv` point into one buffer at nccl-tests'
// offsets (coll::Counts::*_inplace_offset).
struct Call {
  coll::Collective collective = coll::Collective::kAllReduce;
  DataType type = DataType::kFloat;
  ReduceOp op = ReduceOp::kSum;
  int root = 0;
  coll::Counts counts;
  const void* send = nullptr;
  void* recv = nullptr;
  bool in_place = false;
};

// One point-to-point step (nccl-tests' sendrecv with chosen peers): this rank sends `count`
// elements of `type` from `send` to `send_peer` and receives as many into `recv` from
// `recv_peer`. A peer of -1 means none; both may be the same rank (a pairwise exchange) or
// differ (a ring restricted to a group). Peers must agree: when rank a sends to b, b receives
// from a in the same step.
struct P2pCall {
  DataType type = DataType::kFloat;
  std::uint64_t count = 0;
  const void* send = nullptr;
  void* recv = nullptr;
  int send_peer = -1;
  int recv_peer = -1;
};

// Timestamps taken between launches. mark() must be cheap and allocation-free: it runs inside
// the timed loop. On GPUs these are stream events, so they time the device, not the host.
class IterationClock {
 public:
  virtual ~IterationClock() = default;
  virtual Status prepare(std::size_t marks) = 0;
  virtual void mark(std::size_t index) = 0;
  // After synchronize(): microseconds of each mark since mark 0.
  virtual Status read_us(std::span<double> out) = 0;
};

// Launch modes beyond one launch() per iteration (nccl-tests' -m and -G).
struct LaunchFeatures {
  bool groups = false;  // launch_group(): several operations submitted as one group
  bool graphs = false;  // begin_capture() / end_capture() / replay()
};

class Backend {
 public:
  virtual ~Backend() = default;

  virtual BackendInfo info() const = 0;
  virtual DeviceInfo device() const = 0;
  // Why this backend cannot run a combination, or nullopt when it can.
  virtual std::optional<std::string> unsupported(coll::Collective c, DataType type, ReduceOp op, int nranks) const = 0;

  virtual Result<Buffer> allocate(std::uint64_t bytes) = 0;
  // The data path runs where the memory lives: patterns are generated and checked there.
  virtual Status fill_input(void* dst, std::uint64_t count, const check::DataSpec& spec, int rank) = 0;
  virtual Status poison(void* dst, std::uint64_t bytes) = 0;
  virtual Result<check::CheckResult> verify(const void* recv, const check::DataSpec& spec, int rank,
                                            std::size_t max_report) = 0;
  // Small copies between host and backend memory (control values, fault injection).
  virtual Status write_bytes(void* dst, const void* src, std::size_t bytes) = 0;
  virtual Status read_bytes(void* host_dst, const void* src, std::size_t bytes) = 0;

  // May return before the collective completes; synchronize() waits for all launched work.
  virtual Status launch(const Call& call) = 0;
  // Every rank of the job calls launch_p2p in the same steps, like a collective, each naming
  // its own peers (a rank without peers in a step passes -1 for both, with the same type and
  // count): backends that can only move data through collective exchanges need every rank.
  // Point-to-point backends (MPI, NCCL: ncclSend/ncclRecv in one group) ignore a call without
  // peers. May return before the transfer completes, like launch(). Used by `collbench locate`.
  // The default says the backend has none (a backend written before this interface existed).
  virtual Status launch_p2p(const P2pCall& /*call*/) {
    return Status::error(ErrorCode::kUnsupported, info().name + " backend: no point-to-point exchange");
  }
  virtual Status synchronize() = 0;
  virtual IterationClock& clock() = 0;

  virtual LaunchFeatures features() const { return {}; }
  // Launches `count` operations of `call` as one group, which the library may merge.
  virtual Status launch_group(const Call& /*call*/, std::uint64_t /*count*/) { return not_offered("grouped launches"); }
  // Between begin_capture() and end_capture() launches are recorded, not run; replay() runs
  // the recording once more and, like launch(), may return before it completes.
  virtual Status begin_capture() { return not_offered("captured launches"); }
  virtual Status end_capture() { return not_offered("captured launches"); }
  virtual Status replay() { return not_offered("captured launches"); }

 private:
  Status not_offered(std::string_view what) const {
    return Status::error(ErrorCode::kUnsupported, "the " + info().name + " backend has no " + std::string(what));
  }
};

}  // namespace collbench::backend
