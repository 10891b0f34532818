// One rank, no launcher: every exchange is a copy.
#pragma once

#include "bench/bootstrap/bootstrap.hpp"

namespace collbench::bootstrap {

class SingleBootstrap final : public Bootstrap {
 public:
  std::string_view name() const override { return "single"; }
  int rank() const override { return 0; }
  int size() const override { return 1; }
  int local_rank() const override { return 0; }
  int local_size() const override { return 1; }
  Status barrier() override { return ok_status(); }
  Status allgather(std::span<const std::byte> mine, std::span<std::byte> all) override;
  Status broadcast(std::span<std::byte> /*data*/, int /*root*/) override { return ok_status(); }
  Status allreduce(std::span<double> /*values*/, ReduceOp /*op*/) override { return ok_status(); }
  [[noreturn]] void abort(int exit_code) override;
};

}  // namespace collbench::bootstrap
