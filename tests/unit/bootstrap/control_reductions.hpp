// The control reduction (Bootstrap::allreduce) checked for sum, prod, min and max on any
// bootstrap: single and threads (control_reduction_test.cpp), env
// (tests/integration/env_bootstrap_test.cpp) and MPI (tests/integration/mpi_bootstrap_test.cpp,
// under mpirun). Neighbouring ranks' values differ and do not grow with the rank: sum and prod
// differ from two ranks on, and from three ranks on an element's min and another's max come
// from a middle rank, so neither the first nor the last rank's value passes for them.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>

#include "bench/bootstrap/bootstrap.hpp"

namespace collbench::testing {

// Rank r contributes kControlValues[r % 8] and, as a second element, kControlValues[(r + 3) % 8].
inline constexpr std::array<double, 8> kControlValues = {3, -2, 5, 0.5, 7, -1.5, 4, 2};

inline double control_value(int rank, std::size_t element) {
  return kControlValues[(static_cast<std::size_t>(rank) + 3 * element) % kControlValues.size()];
}

// Folded here in rank order, by the definition of each op.
inline double control_expected(ReduceOp op, int size, std::size_t element) {
  double acc = control_value(0, element);
  for (int r = 1; r < size; ++r) {
    const double v = control_value(r, element);
    if (op == ReduceOp::kSum) acc += v;
    if (op == ReduceOp::kProd) acc *= v;
    if (op == ReduceOp::kMin) acc = std::min(acc, v);
    if (op == ReduceOp::kMax) acc = std::max(acc, v);
  }
  return acc;
}

// Runs the four reductions on `boot`; an empty string when every result is right, otherwise
// what was wrong (the values are small integers and halves: sums and products are exact).
inline std::string check_control_reductions(bootstrap::Bootstrap& boot) {
  std::string wrong;
  for (const ReduceOp op : {ReduceOp::kSum, ReduceOp::kProd, ReduceOp::kMin, ReduceOp::kMax}) {
    std::array<double, 2> values = {control_value(boot.rank(), 0), control_value(boot.rank(), 1)};
    const Status status = boot.allreduce(values, op);
    const std::string what = "rank " + std::to_string(boot.rank()) + " " + std::string(to_string(op));
    if (!status.ok()) {
      wrong += what + ": " + status.message() + "\n";
      continue;
    }
    for (std::size_t e = 0; e < values.size(); ++e) {
      const double want = control_expected(op, boot.size(), e);
      if (values[e] != want) {
        wrong += what + " element " + std::to_string(e) + ": " + std::to_string(values[e]) + ", want " +
                 std::to_string(want) + "\n";
      }
    }
  }
  return wrong;
}

}  // namespace collbench::testing
