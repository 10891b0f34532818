// collbench's Google Benchmark JSON against the real thing: a benchmark run by the installed
// Google Benchmark library with its own JSON reporter. Every field it writes for the context and
// for an iteration run must be in collbench's output with the same JSON type.
#include <benchmark/benchmark.h>
#include <gtest/gtest.h>

#include <sstream>

#include "report/render/gbench_json.hpp"
#include "report/documents/json_internal.hpp"
#include "report_test_data.hpp"

namespace collbench::report {
namespace {

Json real_google_benchmark_json() {
  benchmark::RegisterBenchmark(
      "BM_reference/1024",
      [](benchmark::State& state) {
    for (auto _ : state) benchmark::DoNotOptimize(state.iterations());
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * 1024);
    state.counters["busbw_gbps"] = 1.5;
      })
      ->Iterations(10)
      ->Unit(benchmark::kMicrosecond);
  std::ostringstream out;
  std::ostringstream err;
  benchmark::JSONReporter reporter;
  reporter.SetOutputStream(&out);
  reporter.SetErrorStream(&err);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::ClearRegisteredBenchmarks();
  return Json::parse(out.str());
}

bool same_kind(const Json& a, const Json& b) {
  if (a.is_number_integer() || a.is_number_unsigned()) return b.is_number_integer() || b.is_number_unsigned();
  return a.type() == b.type();
}

TEST(GbenchReference, EveryFieldOfTheRealReporterIsThereWithItsType) {
  const Json real = real_google_benchmark_json();
  const Json ours = Json::parse(gbench_json_text(testing::load_fixture("base.json").document));
  for (const auto& [key, value] : real.at("context").items()) {
    ASSERT_TRUE(ours.at("context").contains(key)) << "context." << key;
    EXPECT_TRUE(same_kind(value, ours.at("context").at(key))) << "context." << key;
  }
  const Json& real_run = real.at("benchmarks").at(0);
  ASSERT_EQ(real_run.at("run_type"), "iteration");
  for (const auto& b : ours.at("benchmarks")) {
    for (const auto& [key, value] : real_run.items()) {
      if (key == "label") continue;  // optional in Google Benchmark too
      ASSERT_TRUE(b.contains(key)) << b.at("name") << " lacks " << key;
      EXPECT_TRUE(same_kind(value, b.at(key))) << b.at("name") << "." << key;
    }
  }
}

}  // namespace
}  // namespace collbench::report
