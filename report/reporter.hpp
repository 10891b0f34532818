// The reporter interface: begin with the context, one call per finished row, end with the
// summary. Reporters only format; they never measure or decide.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "common/status.hpp"
#include "report/record.hpp"

namespace collbench::report {

// Where a sweep stands, for progress displays.
struct Progress {
  std::string collective;
  std::uint64_t size_bytes = 0;
  std::size_t rows_done = 0;
  std::size_t rows_total = 0;
  double elapsed_s = 0;
  double estimated_total_s = 0;  // 0 when unknown
  std::string unit = "rows";     // what rows_done counts ("steps" for locate)
};

class Reporter {
 public:
  virtual ~Reporter() = default;
  virtual Status begin(const RunContext& context) = 0;
  virtual Status row(const SizeRecord& record) = 0;
  virtual Status end(const RunSummary& summary) = 0;
  virtual void progress(const Progress& /*progress*/) {}
};

// Sends every call to several reporters; stops at the first error.
class TeeReporter final : public Reporter {
 public:
  void add(std::unique_ptr<Reporter> reporter) { reporters_.push_back(std::move(reporter)); }
  Status begin(const RunContext& context) override;
  Status row(const SizeRecord& record) override;
  Status end(const RunSummary& summary) override;
  void progress(const Progress& progress) override;

 private:
  std::vector<std::unique_ptr<Reporter>> reporters_;
};

}  // namespace collbench::report
