#include "bench/engine/progress_model.hpp"

#include <algorithm>

namespace collbench::engine {

ProgressModel::ProgressModel(const SweepPlan& plan, std::uint64_t cycles) : cycles_(cycles) {
  for (const auto& row : plan.rows) sizes_.push_back(static_cast<double>(row.requested_bytes));
}

report::Progress ProgressModel::after_row(const std::string& collective, std::uint64_t bytes, double elapsed_s) {
  const double x = static_cast<double>(bytes);
  const double y = elapsed_s - last_elapsed_;
  last_elapsed_ = elapsed_s;
  sum_x_ += x;
  sum_y_ += y;
  sum_xx_ += x * x;
  sum_xy_ += x * y;
  ++done_;
  report::Progress p;
  p.collective = collective;
  p.size_bytes = bytes;
  p.rows_done = done_;
  p.rows_total = cycles_ == 0 ? 0 : sizes_.size() * cycles_;
  p.elapsed_s = elapsed_s;
  p.estimated_total_s = cycles_ == 0 ? 0 : elapsed_s + remaining_s();
  return p;
}

double ProgressModel::remaining_s() const {
  if (cycles_ == 0 || done_ == 0 || sizes_.empty()) return 0;
  const double n = static_cast<double>(done_);
  const double denom = n * sum_xx_ - sum_x_ * sum_x_;
  double slope = denom > 0 ? (n * sum_xy_ - sum_x_ * sum_y_) / denom : 0;
  slope = std::max(slope, 0.0);
  const double intercept = std::max((sum_y_ - slope * sum_x_) / n, 0.0);
  const std::size_t total = sizes_.size() * cycles_;
  double rest = 0;
  for (std::size_t i = done_; i < total; ++i) rest += intercept + slope * sizes_[i % sizes_.size()];
  return rest;
}

}  // namespace collbench::engine
