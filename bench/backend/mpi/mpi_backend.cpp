#include "bench/backend/mpi/mpi_backend.hpp"

#include <mpi.h>

#include <cstring>
#include <string>

#include "bench/backend/host_memory.hpp"
#include "bench/backend/mpi/mpi_types.hpp"
#include "bench/mpi/mpi_error.hpp"

namespace collbench::backend {
namespace {

int as_int(std::uint64_t count) { return static_cast<int>(count); }

class MpiBackend final : public HostMemoryBackend {
 public:
  MpiBackend(std::shared_ptr<mpi::Runtime> runtime, std::string cpu_set)
      : runtime_(std::move(runtime)), cpu_set_(std::move(cpu_set)) {}
  ~MpiBackend() override {
    if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
  }

  Status init() {
    // The measured traffic gets a communicator of its own, apart from the bootstrap's.
    COLLBENCH_MPI_TRY(MPI_Comm_dup(MPI_COMM_WORLD, &comm_));
    COLLBENCH_MPI_TRY(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN));
    COLLBENCH_MPI_TRY(MPI_Comm_rank(comm_, &rank_));
    COLLBENCH_MPI_TRY(MPI_Comm_size(comm_, &size_));
    return ok_status();
  }

  BackendInfo info() const override { return {"mpi", mpi::Runtime::library_version(), "host"}; }
  DeviceInfo device() const override { return {"cpu", -1, "CPUs " + cpu_set_, ""}; }

  std::optional<std::string> unsupported(coll::Collective c, DataType type, ReduceOp op, int nranks) const override {
    if (!mpi_datatype(type)) return "MPI has no built-in " + std::string(to_string(type)) + " type";
    if (coll::traits(c).takes_op && !mpi_op(op)) return "MPI has no built-in " + std::string(to_string(op)) + " reduction";
    if (c == coll::Collective::kHypercube && (nranks & (nranks - 1)) != 0) return "hypercube needs a power-of-two rank count";
    return std::nullopt;
  }

  Status launch(const Call& call) override;
  Status synchronize() override { return ok_status(); }  // every MPI call here is blocking
  int rank() const { return rank_; }
  int size() const { return size_; }

 private:
  Status hypercube(const Call& call, MPI_Datatype type, std::uint64_t elem_size);

  std::shared_ptr<mpi::Runtime> runtime_;
  std::string cpu_set_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  int size_ = 1;
};

Status MpiBackend::launch(const Call& call) {
  using coll::Collective;
  const MPI_Datatype type = *mpi_datatype(call.type);
  const MPI_Op op = coll::traits(call.collective).takes_op ? *mpi_op(call.op) : MPI_OP_NULL;
  const bool in_place = call.send == call.recv;
  const void* send = in_place ? MPI_IN_PLACE : call.send;
  const int n = as_int(call.counts.param);
  switch (call.collective) {
    case Collective::kAllReduce:
      COLLBENCH_MPI_TRY(MPI_Allreduce(send, call.recv, n, type, op, comm_));
      break;
    case Collective::kReduce: {
      // MPI_IN_PLACE is only legal at the root; elsewhere the send buffer is the input.
      const void* src = in_place && rank_ != call.root ? call.recv : send;
      COLLBENCH_MPI_TRY(MPI_Reduce(src, call.recv, n, type, op, call.root, comm_));
      break;
    }
    case Collective::kBroadcast: {
      const std::uint64_t bytes = call.counts.param * traits(call.type).size;
      if (rank_ == call.root && !in_place) std::memcpy(call.recv, call.send, bytes);
      COLLBENCH_MPI_TRY(MPI_Bcast(call.recv, n, type, call.root, comm_));
      break;
    }
    case Collective::kAllGather: {
      // In place, this rank's block already sits at its slot of the receive buffer.
      const void* src = call.send == static_cast<const char*>(call.recv) + call.counts.param * traits(call.type).size *
                                                                               static_cast<std::uint64_t>(rank_)
                            ? MPI_IN_PLACE
                            : call.send;
      COLLBENCH_MPI_TRY(MPI_Allgather(src, n, type, call.recv, n, type, comm_));
      break;
    }
    case Collective::kReduceScatter:
      COLLBENCH_MPI_TRY(MPI_Reduce_scatter_block(call.send, call.recv, n, type, op, comm_));
      break;
    case Collective::kAllToAll:
      COLLBENCH_MPI_TRY(MPI_Alltoall(send, n, type, call.recv, n, type, comm_));
      break;
    case Collective::kSendRecv:
      COLLBENCH_MPI_TRY(MPI_Sendrecv(call.send, n, type, (rank_ + 1) % size_, 0, call.recv, n, type,
                                     (rank_ + size_ - 1) % size_, 0, comm_, MPI_STATUS_IGNORE));
      break;
    case Collective::kGather:
      COLLBENCH_MPI_TRY(MPI_Gather(call.send, n, type, call.recv, n, type, call.root, comm_));
      break;
    case Collective::kScatter:
      COLLBENCH_MPI_TRY(MPI_Scatter(call.send, n, type, call.recv, n, type, call.root, comm_));
      break;
    case Collective::kHypercube:
      return hypercube(call, type, traits(call.type).size);
  }
  return ok_status();
}

// log2(n) rounds; in round k each rank swaps everything it holds with the rank 2^k away.
Status MpiBackend::hypercube(const Call& call, MPI_Datatype type, std::uint64_t elem_size) {
  const std::uint64_t block = call.counts.param * elem_size;
  auto* recv = static_cast<char*>(call.recv);
  const auto me = static_cast<std::uint64_t>(rank_);
  if (call.send != recv + me * block) std::memcpy(recv + me * block, call.send, block);
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

}  // namespace

Result<std::unique_ptr<Backend>> make_mpi_backend(std::shared_ptr<mpi::Runtime> runtime, int expected_rank,
                                                  int expected_size, std::string cpu_set) {
  auto backend = std::make_unique<MpiBackend>(std::move(runtime), std::move(cpu_set));
  COLLBENCH_RETURN_IF_ERROR(backend->init().with_context("MPI backend"));
  if (backend->rank() != expected_rank || backend->size() != expected_size) {
    return Status::error(ErrorCode::kLaunch, "MPI sees rank " + std::to_string(backend->rank()) + " of " +
                                                 std::to_string(backend->size()) + " but the bootstrap says rank " +
                                                 std::to_string(expected_rank) + " of " + std::to_string(expected_size));
  }
  return std::unique_ptr<Backend>(std::move(backend));
}

}  // namespace collbench::backend
