// Estimates how long the rest of a sweep takes: a row costs a fixed part plus a part
// proportional to its size, fitted by least squares on the rows measured so far.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bench/engine/sweep.hpp"
#include "report/reporter.hpp"

namespace collbench::engine {

class ProgressModel {
 public:
  // cycles == 0 means "until interrupted": no total and no estimate.
  ProgressModel(const SweepPlan& plan, std::uint64_t cycles);

  // Call after each row with the time elapsed since the sweep started.
  report::Progress after_row(const std::string& collective, std::uint64_t bytes, double elapsed_s);

  // Predicted seconds for the rows not yet done (0 when unknown).
  double remaining_s() const;

 private:
  std::vector<double> sizes_;  // requested bytes of every row of one cycle
  std::uint64_t cycles_;
  std::size_t done_ = 0;
  double last_elapsed_ = 0;
  double sum_x_ = 0, sum_y_ = 0, sum_xx_ = 0, sum_xy_ = 0;
};

}  // namespace collbench::engine
