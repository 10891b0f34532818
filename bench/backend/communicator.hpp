// What moves the data between ranks: one library's collectives and point-to-point exchanges
// (MPI, NCCL, the bootstrap itself), on whatever Memory the backend pairs it with.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "bench/coll/collective.hpp"
#include "common/status.hpp"
#include "common/types.hpp"

namespace collbench::backend {

struct BackendInfo {
  std::string name;     // "mpi", "nccl"
  std::string library;  // "Open MPI v4.1.4", "NCCL 2.28.9 (headers 22809), CUDA 13.0"
  std::string memory;   // "host" or "device" (filled in by Backend::info)
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

// Launch modes beyond one launch() per iteration (nccl-tests' -m and -G).
struct LaunchFeatures {
  bool groups = false;  // launch_group(): several operations submitted as one group
  bool graphs = false;  // begin_capture() / end_capture() / replay()
};

class Communicator {
 public:
  virtual ~Communicator() = default;

  virtual BackendInfo info() const = 0;
  // Why this communicator cannot run a combination, or nullopt when it can. The collective's
  // own constraints (coll::rank_constraint) are checked before.
  virtual std::optional<std::string> unsupported(coll::Collective c, DataType type, ReduceOp op, int nranks) const = 0;
  // Whether an in-place row's result can be checked. Libraries that alias the send and
  // receive buffers of a peer exchange (nccl-tests' in-place alltoall, alltoallv, sendrecv)
  // leave an undefined result there, and nccl-tests does not check it either.
  virtual bool checks_in_place(coll::Collective) const { return true; }

  // May return before the collective completes; synchronize() waits for all launched work.
  virtual Status launch(const Call& call) = 0;
  // Every rank of the job calls launch_p2p in the same steps, like a collective, each naming
  // its own peers (a rank without peers in a step passes -1 for both, with the same type and
  // count): communicators that can only move data through collective exchanges need every
  // rank. Point-to-point libraries (MPI, NCCL: ncclSend/ncclRecv in one group) ignore a call
  // without peers. May return before the transfer completes, like launch(). Used by
  // `collbench locate`. The default says the communicator has none.
  virtual Status launch_p2p(const P2pCall& /*call*/) {
    return Status::error(ErrorCode::kUnsupported, info().name + " backend: no point-to-point exchange");
  }
  virtual Status synchronize() = 0;

  virtual LaunchFeatures features() const { return {}; }
  // Launches the operations of `calls` as one group, which the library may merge (nccl-tests'
  // -m: each of them on its own rotated buffers).
  virtual Status launch_group(std::span<const Call> /*calls*/) { return not_offered("grouped launches"); }
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
