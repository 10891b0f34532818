#include "bench/backend/mpi/mpi_communicator.hpp"

#include <mpi.h>

#include <cstring>
#include <string>
#include <vector>

#include "bench/backend/host_reduce.hpp"
#include "bench/backend/mpi/mpi_types.hpp"
#include "bench/check/pattern.hpp"
#include "bench/mpi/mpi_comm.hpp"
#include "bench/mpi/mpi_error.hpp"

namespace collbench::backend {
namespace {

using coll::Collective;

int as_int(std::uint64_t count) { return static_cast<int>(count); }

class MpiCommunicator final : public Communicator {
 public:
  explicit MpiCommunicator(std::shared_ptr<mpi::Runtime> runtime) : runtime_(std::move(runtime)) {}
  ~MpiCommunicator() override {
    if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
  }
  // Owns comm_: a copy would free it twice.
  MpiCommunicator(const MpiCommunicator&) = delete;
  MpiCommunicator& operator=(const MpiCommunicator&) = delete;

  Status init() {
    COLLBENCH_RETURN_IF_ERROR(mpi::dup_world(comm_, rank_, size_));
    return types_.init();
  }

  BackendInfo info() const override { return {"mpi", mpi::Runtime::library_version(), ""}; }

  std::optional<std::string> unsupported(Collective, DataType, ReduceOp, int) const override { return std::nullopt; }

  Status launch(const Call& call) override;
  Status launch_p2p(const P2pCall& call) override;
  Status synchronize() override { return ok_status(); }  // every MPI call here is blocking
  int rank() const { return rank_; }
  int size() const { return size_; }

 private:
  Status reduction(const Call& call, const void* input);
  Status movement(const Call& call);
  Status hypercube(const Call& call, MPI_Datatype type, std::uint64_t elem_size);
  Status alltoallv(const Call& call, MPI_Datatype type, std::uint64_t elem_size);
  const void* premultiplied(const Call& call);

  std::shared_ptr<mpi::Runtime> runtime_;
  MpiTypes types_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  int size_ = 1;
  std::vector<std::byte> scratch_;  // premulsum's scaled input, in-place alltoallv's input; grows during warm-up only
  std::vector<int> peer_counts_;    // alltoallv: send counts, send offsets, receive counts, receive offsets
};

// premulsum: the input times the scalar, then a sum. Out of place the send buffer must stay
// intact for the next iteration, so the scaled copy goes to scratch memory.
const void* MpiCommunicator::premultiplied(const Call& call) {
  const std::uint64_t count = call.counts.send;
  if (call.in_place) {
    scale_elements(const_cast<void*>(call.send), count, call.type, check::kPreMulScalar);
    return call.send;
  }
  const std::uint64_t bytes = count * traits(call.type).size;
  if (scratch_.size() < bytes) scratch_.resize(bytes);
  std::memcpy(scratch_.data(), call.send, bytes);
  scale_elements(scratch_.data(), count, call.type, check::kPreMulScalar);
  return scratch_.data();
}

Status MpiCommunicator::reduction(const Call& call, const void* input) {
  MPI_Datatype type = types_.datatype(call.type);
  MPI_Op op = types_.op(call.type, call.op);
  const int n = as_int(call.counts.param);
  const bool same = input == call.recv;
  switch (call.collective) {
    case Collective::kAllReduce:
      COLLBENCH_MPI_TRY(MPI_Allreduce(same ? MPI_IN_PLACE : input, call.recv, n, type, op, comm_));
      break;
    case Collective::kReduce:
      // MPI_IN_PLACE is only legal at the root; elsewhere the receive buffer is not used.
      COLLBENCH_MPI_TRY(
          MPI_Reduce(same && rank_ == call.root ? MPI_IN_PLACE : input, call.recv, n, type, op, call.root, comm_));
      break;
    case Collective::kReduceScatter: {
      if (!call.in_place) {
        COLLBENCH_MPI_TRY(MPI_Reduce_scatter_block(input, call.recv, n, type, op, comm_));
        break;
      }
      // In place MPI leaves the block at the buffer's start; nccl-tests expects it at this
      // rank's offset: one extra copy of 1/n of the data.
      void* base = const_cast<void*>(call.send);
      if (input != base) std::memcpy(base, input, call.counts.send * traits(call.type).size);
      COLLBENCH_MPI_TRY(MPI_Reduce_scatter_block(MPI_IN_PLACE, base, n, type, op, comm_));
      if (base != call.recv) std::memmove(call.recv, base, call.counts.recv * traits(call.type).size);
      break;
    }
    case Collective::kAllGather:
    case Collective::kBroadcast:
    case Collective::kAllToAll:
    case Collective::kSendRecv:
    case Collective::kGather:
    case Collective::kScatter:
    case Collective::kHypercube:
    case Collective::kAllToAllV: return Status::error(ErrorCode::kInternal, "MPI backend: not a reduction");
  }
  if (call.op == ReduceOp::kAvg && (call.collective != Collective::kReduce || rank_ == call.root)) {
    finish_average(call.recv, call.counts.recv, call.type, size_);
  }
  return ok_status();
}

Status MpiCommunicator::movement(const Call& call) {
  MPI_Datatype type = types_.datatype(call.type);
  const std::uint64_t elem = traits(call.type).size;
  const int n = as_int(call.counts.param);
  const bool root = rank_ == call.root;
  switch (call.collective) {
    case Collective::kBroadcast:
      if (root && !call.in_place) std::memcpy(call.recv, call.send, call.counts.param * elem);
      COLLBENCH_MPI_TRY(MPI_Bcast(call.recv, n, type, call.root, comm_));
      break;
    case Collective::kAllGather:  // in place, this rank's block already sits at its slot
      COLLBENCH_MPI_TRY(MPI_Allgather(call.in_place ? MPI_IN_PLACE : call.send, n, type, call.recv, n, type, comm_));
      break;
    case Collective::kAllToAll:
      COLLBENCH_MPI_TRY(MPI_Alltoall(call.in_place ? MPI_IN_PLACE : call.send, n, type, call.recv, n, type, comm_));
      break;
    case Collective::kSendRecv: {
      const int next = (rank_ + 1) % size_;
      const int prev = (rank_ + size_ - 1) % size_;
      if (call.in_place) {
        COLLBENCH_MPI_TRY(MPI_Sendrecv_replace(call.recv, n, type, next, 0, prev, 0, comm_, MPI_STATUS_IGNORE));
      } else {
        COLLBENCH_MPI_TRY(
            MPI_Sendrecv(call.send, n, type, next, 0, call.recv, n, type, prev, 0, comm_, MPI_STATUS_IGNORE));
      }
      break;
    }
    case Collective::kGather:
      COLLBENCH_MPI_TRY(
          MPI_Gather(call.in_place && root ? MPI_IN_PLACE : call.send, n, type, call.recv, n, type, call.root, comm_));
      break;
    case Collective::kScatter:
      COLLBENCH_MPI_TRY(
          MPI_Scatter(call.send, n, type, call.in_place && root ? MPI_IN_PLACE : call.recv, n, type, call.root, comm_));
      break;
    case Collective::kHypercube: return hypercube(call, type, elem);
    case Collective::kAllToAllV: return alltoallv(call, type, elem);
    case Collective::kAllReduce:
    case Collective::kReduceScatter:
    case Collective::kReduce: return Status::error(ErrorCode::kInternal, "MPI backend: a reduction, not a movement");
  }
  return ok_status();
}

Status MpiCommunicator::launch(const Call& call) {
  if (!coll::traits(call.collective).takes_op) return movement(call);
  return reduction(call, call.op == ReduceOp::kPreMulSum ? premultiplied(call) : call.send);
}

// MPI_PROC_NULL makes a missing peer a no-op on that side; a tag of its own keeps these
// apart from the hypercube exchange on the same communicator.
Status MpiCommunicator::launch_p2p(const P2pCall& call) {
  if (call.send_peer < 0 && call.recv_peer < 0) return ok_status();
  constexpr int kTag = 2;
  MPI_Datatype type = types_.datatype(call.type);
  const int n = as_int(call.count);
  const int to = call.send_peer < 0 ? MPI_PROC_NULL : call.send_peer;
  const int from = call.recv_peer < 0 ? MPI_PROC_NULL : call.recv_peer;
  COLLBENCH_MPI_TRY(
      MPI_Sendrecv(call.send, n, type, to, kTag, call.recv, n, type, from, kTag, comm_, MPI_STATUS_IGNORE));
  return ok_status();
}

// log2(n) rounds; in round k each rank swaps everything it holds with the rank 2^k away.
Status MpiCommunicator::hypercube(const Call& call, MPI_Datatype type, std::uint64_t elem_size) {
  const std::uint64_t block = call.counts.param * elem_size;
  auto* recv = static_cast<char*>(call.recv);
  const auto me = static_cast<std::uint64_t>(rank_);
  if (!call.in_place) std::memcpy(recv + me * block, call.send, block);
  for (int dist = 1; dist < size_; dist <<= 1) {
    const int peer = rank_ ^ dist;
    const auto mine_first = static_cast<std::uint64_t>(rank_ & ~(dist - 1));
    const auto peer_first = static_cast<std::uint64_t>(peer & ~(dist - 1));
    const int count = as_int(call.counts.param * static_cast<std::uint64_t>(dist));
    COLLBENCH_MPI_TRY(MPI_Sendrecv(recv + mine_first * block, count, type, peer, 1, recv + peer_first * block, count,
                                   type, peer, 1, comm_, MPI_STATUS_IGNORE));
  }
  return ok_status();
}

// Per-peer counts and offsets from the collective's rule. MPI_IN_PLACE would send each peer as
// much as it receives from it, which per-peer counts do not do; in place, the input is copied
// aside first (inside the timed operation, as a library's own staging would be).
Status MpiCommunicator::alltoallv(const Call& call, MPI_Datatype type, std::uint64_t elem_size) {
  const coll::PeerCounts& peers = call.counts.peers;
  const auto n = static_cast<std::size_t>(size_);
  peer_counts_.resize(4 * n);
  int* send_counts = peer_counts_.data();
  int* send_offsets = send_counts + n;
  int* recv_counts = send_offsets + n;
  int* recv_offsets = recv_counts + n;
  for (int r = 0; r < size_; ++r) {
    const auto i = static_cast<std::size_t>(r);
    send_counts[i] = as_int(coll::peer_count(peers, rank_, r));
    send_offsets[i] = as_int(coll::send_offset(peers, rank_, r));
    recv_counts[i] = as_int(coll::peer_count(peers, r, rank_));
    recv_offsets[i] = as_int(coll::recv_offset(peers, rank_, r));
  }
  const void* send = call.send;
  if (call.send == call.recv) {
    const std::uint64_t bytes = coll::send_total(peers, rank_) * elem_size;
    if (scratch_.size() < bytes) scratch_.resize(bytes);
    std::memcpy(scratch_.data(), call.send, bytes);
    send = scratch_.data();
  }
  COLLBENCH_MPI_TRY(
      MPI_Alltoallv(send, send_counts, send_offsets, type, call.recv, recv_counts, recv_offsets, type, comm_));
  return ok_status();
}

}  // namespace

Result<std::unique_ptr<Communicator>> make_mpi_communicator(std::shared_ptr<mpi::Runtime> runtime, int expected_rank,
                                                            int expected_size) {
  auto comm = std::make_unique<MpiCommunicator>(std::move(runtime));
  COLLBENCH_RETURN_IF_ERROR(comm->init().with_context("MPI backend"));
  if (comm->rank() != expected_rank || comm->size() != expected_size) {
    return Status::error(ErrorCode::kLaunch, "MPI sees rank " + std::to_string(comm->rank()) + " of " +
                                                 std::to_string(comm->size()) + " but the bootstrap says rank " +
                                                 std::to_string(expected_rank) + " of " +
                                                 std::to_string(expected_size));
  }
  return std::unique_ptr<Communicator>(std::move(comm));
}

}  // namespace collbench::backend
