// Run documents for the compare/report tests: the committed fixtures under
// tests/fixtures/reports/, and small synthetic sweeps whose every number is chosen by the test.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "report/documents/report_input.hpp"
#include "sample_run.hpp"

namespace collbench::report::testing {

inline std::string fixture_path(const std::string& name) { return COLLBENCH_FIXTURES_DIR "/reports/" + name; }

inline ReportRun load_fixture(const std::string& name) {
  std::ifstream in(fixture_path(name), std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  auto parsed = parse_run_json(text.str());
  EXPECT_TRUE(parsed.ok()) << name << ": " << parsed.status().message();
  std::string label = name.substr(0, name.rfind('.'));
  return {label, parsed.ok() ? *parsed : RunDocument{}, {}};
}

// One placement of one size with busbw `busbw` and per-iteration times spread from
// min = time * fast to p95 = time * slow.
inline Measurement point(Placement placement, double busbw, double fast = 0.99, double slow = 1.01) {
  Measurement m = measured(placement, 1000.0 / busbw, busbw / 2, busbw);
  m.per_iteration.min_us = m.time_us * fast;
  m.per_iteration.median_us = m.time_us;
  m.per_iteration.p95_us = m.time_us * slow;
  return m;
}

// An all_reduce sweep over `sizes`, busbw given per size by `busbw_of(size)`, both placements.
template <typename BusbwOf>
RunDocument sweep(const std::vector<std::uint64_t>& sizes, BusbwOf busbw_of, double fast = 0.99, double slow = 1.01,
                  const std::string& collective = "all_reduce") {
  RunDocument d{sample_context(), {}, {}};
  for (auto size : sizes) {
    SizeRecord r = sized(collective, collective == "all_reduce" ? "sum" : "none", size, size / 4);
    r.placements = {point(Placement::kOutOfPlace, busbw_of(size), fast, slow),
                    point(Placement::kInPlace, busbw_of(size), fast, slow)};
    d.rows.push_back(r);
  }
  d.summary = summarize(d.rows);
  return d;
}

inline std::vector<std::uint64_t> powers_of_two(std::uint64_t from, std::uint64_t to, std::uint64_t factor = 2) {
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t s = from; s <= to; s *= factor) sizes.push_back(s);
  return sizes;
}

inline ReportRun labeled(std::string label, RunDocument document) {
  return {std::move(label), std::move(document), {}};
}

}  // namespace collbench::report::testing
