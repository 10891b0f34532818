#include "bench/bootstrap/mpi/mpi_bootstrap.hpp"

#include <mpi.h>

#include <cstdlib>
#include <string>

#include "bench/bootstrap/bootstrap_entry.hpp"
#include "bench/mpi/mpi_comm.hpp"
#include "bench/mpi/mpi_error.hpp"

namespace collbench::bootstrap {
namespace {

// The control reduction does sum, prod, min and max, as the env and threads bootstraps do;
// MPI_OP_NULL for the rest, which allreduce refuses.
MPI_Op to_mpi(ReduceOp op) {
  switch (op) {
    case ReduceOp::kSum: return MPI_SUM;
    case ReduceOp::kProd: return MPI_PROD;
    case ReduceOp::kMin: return MPI_MIN;
    case ReduceOp::kMax: return MPI_MAX;
    case ReduceOp::kAvg:
    case ReduceOp::kPreMulSum: return MPI_OP_NULL;
  }
  return MPI_OP_NULL;
}

// Control traffic runs on its own duplicate of MPI_COMM_WORLD, so it can never match a
// message of the measured collectives.
class MpiBootstrap final : public Bootstrap {
 public:
  explicit MpiBootstrap(std::shared_ptr<mpi::Runtime> runtime) : runtime_(std::move(runtime)) {}
  ~MpiBootstrap() override {
    if (local_ != MPI_COMM_NULL) MPI_Comm_free(&local_);
    if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
  }
  // Owns both communicators: a copy would free them twice.
  MpiBootstrap(const MpiBootstrap&) = delete;
  MpiBootstrap& operator=(const MpiBootstrap&) = delete;

  Status init() {
    COLLBENCH_RETURN_IF_ERROR(mpi::dup_world(comm_, rank_, size_));
    COLLBENCH_MPI_TRY(MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &local_));
    COLLBENCH_MPI_TRY(MPI_Comm_rank(local_, &local_rank_));
    COLLBENCH_MPI_TRY(MPI_Comm_size(local_, &local_size_));
    return ok_status();
  }

  std::string_view name() const override { return "mpi"; }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  int local_rank() const override { return local_rank_; }
  int local_size() const override { return local_size_; }

  Status barrier() override {
    COLLBENCH_MPI_TRY(MPI_Barrier(comm_));
    return ok_status();
  }

  Status allgather(std::span<const std::byte> mine, std::span<std::byte> all) override {
    if (all.size() != mine.size() * static_cast<std::size_t>(size_)) {
      return Status::error(ErrorCode::kInternal, "allgather: receive size mismatch");
    }
    COLLBENCH_MPI_TRY(MPI_Allgather(mine.data(), static_cast<int>(mine.size()), MPI_BYTE, all.data(),
                                    static_cast<int>(mine.size()), MPI_BYTE, comm_));
    return ok_status();
  }

  Status broadcast(std::span<std::byte> data, int root) override {
    COLLBENCH_MPI_TRY(MPI_Bcast(data.data(), static_cast<int>(data.size()), MPI_BYTE, root, comm_));
    return ok_status();
  }

  Status allreduce(std::span<double> values, ReduceOp op) override {
    MPI_Op mpi_op = to_mpi(op);  // not const: MPI_Op is a pointer typedef (misc-misplaced-const)
    if (mpi_op == MPI_OP_NULL) {
      return Status::error(ErrorCode::kUnsupported, "the MPI bootstrap's allreduce does sum, prod, min and max, not " +
                                                        std::string(to_string(op)));
    }
    COLLBENCH_MPI_TRY(
        MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_DOUBLE, mpi_op, comm_));
    return ok_status();
  }

  [[noreturn]] void abort(int exit_code) override {
    MPI_Abort(MPI_COMM_WORLD, exit_code);
    std::_Exit(exit_code);
  }

 private:
  std::shared_ptr<mpi::Runtime> runtime_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  MPI_Comm local_ = MPI_COMM_NULL;
  int rank_ = 0;
  int size_ = 1;
  int local_rank_ = 0;
  int local_size_ = 1;
};

}  // namespace

Result<std::unique_ptr<Bootstrap>> make_mpi_bootstrap(std::shared_ptr<mpi::Runtime> runtime) {
  auto boot = std::make_unique<MpiBootstrap>(std::move(runtime));
  COLLBENCH_RETURN_IF_ERROR(boot->init().with_context("MPI bootstrap"));
  return std::unique_ptr<Bootstrap>(std::move(boot));
}

const BootstrapEntry& mpi_bootstrap_entry() {
  static const BootstrapEntry entry{"mpi", "MPI_COMM_WORLD (auto: under mpirun, or srun --mpi=pmix)",
                                    [](const BootstrapSetup& setup) -> Result<std::unique_ptr<Bootstrap>> {
                                      COLLBENCH_ASSIGN_OR_RETURN(auto runtime, mpi::shared_runtime(setup.process));
                                      return make_mpi_bootstrap(std::move(runtime));
                                    }};
  return entry;
}

}  // namespace collbench::bootstrap
