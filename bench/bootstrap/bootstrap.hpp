// How ranks find each other and exchange small control messages, kept apart from the
// collective backend that moves the measured data. Implementations: single process, MPI,
// and an environment rendezvous over TCP (tcp/env_bootstrap.hpp).
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.hpp"
#include "common/types.hpp"

namespace collbench::bootstrap {

class Bootstrap {
 public:
  virtual ~Bootstrap() = default;

  virtual std::string_view name() const = 0;  // "single", "mpi", "env"
  virtual int rank() const = 0;
  virtual int size() const = 0;
  virtual int local_rank() const = 0;  // rank among the ranks of this host
  virtual int local_size() const = 0;

  virtual Status barrier() = 0;
  // Every rank passes `mine` of the same length; `all` (size() * mine.size() bytes) receives
  // them in rank order.
  virtual Status allgather(std::span<const std::byte> mine, std::span<std::byte> all) = 0;
  virtual Status broadcast(std::span<std::byte> data, int root) = 0;
  // Element-wise reduction of small control values (timings, counters): sum, prod, min or max
  // on every bootstrap (tests/unit/bootstrap/control_reductions.hpp); other ops may be refused.
  virtual Status allreduce(std::span<double> values, ReduceOp op) = 0;
  // Ends the whole job as fast as the launcher allows; never returns.
  [[noreturn]] virtual void abort(int exit_code) = 0;
  // Ranks the exchange in progress is still waiting for; empty when unknown. Thread-safe:
  // the watchdog asks while the main thread is blocked.
  virtual std::vector<int> missing_ranks() const { return {}; }
};

// Variable-length allgather: every rank's string, in rank order.
Result<std::vector<std::string>> allgather_strings(Bootstrap& boot, std::string_view mine);

// Rank 0's value of `value` on every rank.
Result<std::string> broadcast_string(Bootstrap& boot, std::string value);

}  // namespace collbench::bootstrap
