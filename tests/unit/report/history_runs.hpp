// Nightly run documents for the history tests: the sample run (sample_run.hpp) with its start
// time, busbw level, library and hosts set per night.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "report/documents/run_json.hpp"
#include "tests/unit/report/sample_run.hpp"

namespace collbench::report::testing {

struct Night {
  int day = 1;         // night number: 2026-01-01 plus day - 1 days (up to 365)
  double level = 1.0;  // busbw factor
  std::string library = "NCCL 2.21.5, CUDA runtime 12.4, driver 12.4";
  std::vector<std::string> hosts = {"node0001"};
};

inline std::string night_time(int day) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  int month = 0;
  int d = day - 1;
  while (month < 11 && d >= kDays[month]) d -= kDays[month++];
  auto two = [](int v) { return std::string(v < 10 ? "0" : "") + std::to_string(v); };
  return "2026-" + two(month + 1) + "-" + two(d + 1) + "T02:00:00Z";
}

// Small deterministic noise (+-0.3 %) so that the noise band is not zero.
inline double jitter(int day) { return 1 + 0.003 * std::sin(day * 2.399); }

inline RunDocument night_document(const Night& n) {
  RunDocument d = sample_document();
  d.context.start_time = night_time(n.day);
  d.context.backend_library = n.library;
  d.context.hosts = n.hosts;
  for (auto& r : d.context.ranks) r.host = n.hosts.front();
  for (auto& row : d.rows) {
    for (auto& m : row.placements) {
      m.busbw_gbps *= n.level * jitter(n.day);
      m.algbw_gbps *= n.level * jitter(n.day);
    }
  }
  return d;
}

}  // namespace collbench::report::testing
