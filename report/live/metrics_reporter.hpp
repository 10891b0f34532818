// `collbench run --metrics FILE`: the finished run as Prometheus text (render/prometheus_text.hpp),
// written once at the end, atomically: node_exporter's textfile collector reads every *.prom
// file of its folder at each scrape, so it must see the previous run's file or this one's,
// never half of one. The temporary file (documents/atomic_file.hpp: ".NAME.tmp.PID.N") does not
// end in .prom, so the collector never reads it.
#pragma once

#include <string>
#include <vector>

#include "report/reporter.hpp"

namespace collbench::report {

class MetricsFileReporter final : public Reporter {
 public:
  // `path` is used as given: check it with check_writable before the run starts.
  explicit MetricsFileReporter(std::string path) : path_(std::move(path)) {}

  Status begin(const RunContext& context) override;
  Status row(const SizeRecord& record) override;
  // A run that ends early (error, timeout, signal) is written too, with run_ok 0.
  Status end(const RunSummary& summary) override;

 private:
  std::string path_;
  RunContext context_;
  std::vector<SizeRecord> rows_;
};

}  // namespace collbench::report
