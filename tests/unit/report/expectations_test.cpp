// run --expect: the expectations file (documents/expect_json.hpp) and the check
// (analysis/expectations.hpp), on rows whose every figure the test chooses.
#include "report/analysis/expectations.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "report/documents/expect_json.hpp"
#include "report/documents/run_json.hpp"
#include "sample_run.hpp"

namespace collbench::report {
namespace {

using testing::measured;
using testing::sized;

std::vector<Expectation> parsed(const std::string& rows) {
  auto e = parse_expectations(R"({"schema": "collbench.expect", "version": 1, "rows": )" + rows + "}");
  EXPECT_TRUE(e.ok()) << e.status().message();
  return e.ok() ? *e : std::vector<Expectation>{};
}

std::string parse_error(const std::string& text) {
  auto e = parse_expectations(text);
  EXPECT_FALSE(e.ok()) << text;
  if (e.ok()) return {};
  EXPECT_EQ(e.status().code(), ErrorCode::kUsage);
  EXPECT_EQ(e.status().message().find('\n'), std::string::npos) << "one line";
  return e.status().message();
}

// all_reduce float sum at 8 B and 1 MiB, both placements; in-place is the slower one.
std::vector<SizeRecord> rows() {
  std::vector<SizeRecord> out;
  SizeRecord r = sized("all_reduce", "sum", 8, 2);
  r.placements = {measured(Placement::kOutOfPlace, 20, 0.0004, 0.0008),
                  measured(Placement::kInPlace, 30, 0.0003, 0.0005)};
  out.push_back(r);
  r = sized("all_reduce", "sum", 1048576, 262144);
  r.placements = {measured(Placement::kOutOfPlace, 400, 2.6, 5.2), measured(Placement::kInPlace, 500, 2.1, 4.2)};
  out.push_back(r);
  r = sized("all_reduce", "sum", 2097152, 524288);
  r.skipped = "out of memory";
  out.push_back(r);
  return out;
}

TEST(ExpectFile, ReadsEveryField) {
  const auto e = parsed(R"([{"collective": "all_reduce", "size_bytes": 1048576, "min_busbw_gbps": 2.5},
                            {"collective": "all_gather", "size_bytes": "1M", "max_time_us": 50, "dtype": "half",
                             "op": "none", "placement": "in_place"},
                            {"collective": "all_reduce", "size_bytes": 8, "min_algbw_gbps": 0.1}])");
  ASSERT_EQ(e.size(), 3u);
  EXPECT_EQ(e[0].collective, "all_reduce");
  EXPECT_EQ(e[0].size_bytes, 1048576u);
  EXPECT_EQ(e[0].bound, ExpectBound::kMinBusbw);
  EXPECT_DOUBLE_EQ(e[0].limit, 2.5);
  EXPECT_EQ(e[0].placement, ExpectPlacement::kBoth);
  EXPECT_FALSE(e[0].dtype.has_value());
  EXPECT_EQ(e[1].size_bytes, 1048576u);
  EXPECT_EQ(e[1].bound, ExpectBound::kMaxTime);
  EXPECT_EQ(e[1].dtype, "half");
  EXPECT_EQ(e[1].op, "none");
  EXPECT_EQ(e[1].placement, ExpectPlacement::kInPlace);
  EXPECT_EQ(e[2].bound, ExpectBound::kMinAlgbw);
}

TEST(ExpectFile, RefusesMalformedFilesWithOneLine) {
  const std::string head = R"({"schema": "collbench.expect", "version": 1, "rows": )";
  EXPECT_NE(parse_error("{not json").find("not JSON"), std::string::npos);
  EXPECT_NE(parse_error("[]").find("expected an object"), std::string::npos);
  EXPECT_NE(parse_error(R"({"schema": "collbench.run", "version": 1, "rows": []})").find("schema"), std::string::npos);
  EXPECT_NE(parse_error(R"({"schema": "collbench.expect", "version": 2, "rows": []})").find("version"),
            std::string::npos);
  EXPECT_NE(parse_error(head + "[]}").find("rows: expected a non-empty array"), std::string::npos);
  EXPECT_NE(parse_error(head + R"([{"collective": "all_reduce", "size_bytes": 8, "min_bw": 1}]})")
                .find("rows[0]: unknown key 'min_bw'"),
            std::string::npos);
  EXPECT_NE(
      parse_error(head + R"([{"collective": "all_reduce", "min_busbw_gbps": 1}]})").find("missing \"size_bytes\""),
      std::string::npos);
  EXPECT_NE(parse_error(head + R"([{"collective": "all_reduce", "size_bytes": 8}]})").find("exactly one bound"),
            std::string::npos);
  EXPECT_NE(parse_error(head +
                        R"([{"collective": "all_reduce", "size_bytes": 8, "min_busbw_gbps": 1, "max_time_us": 5}]})")
                .find("exactly one bound"),
            std::string::npos);
  EXPECT_NE(parse_error(head + R"([{"collective": "all_reduce", "size_bytes": 8, "min_busbw_gbps": -1}]})")
                .find("rows[0].min_busbw_gbps: expected a number above 0"),
            std::string::npos);
  EXPECT_NE(parse_error(head + R"([{"collective": "all_reduce", "size_bytes": -8, "min_busbw_gbps": 1}]})")
                .find("rows[0].size_bytes"),
            std::string::npos);
  EXPECT_NE(parse_error(head + R"([{"collective": "all_reduce", "size_bytes": "8Q", "min_busbw_gbps": 1}]})")
                .find("rows[0].size_bytes"),
            std::string::npos);
  EXPECT_NE(
      parse_error(head + R"([{"collective": "", "size_bytes": 8, "min_busbw_gbps": 1}]})").find("rows[0].collective"),
      std::string::npos);
  EXPECT_NE(parse_error(head + R"([{"collective": "all_reduce", "size_bytes": 8, "min_busbw_gbps": 1,
                                    "placement": "sideways"}]})")
                .find("rows[0].placement"),
            std::string::npos);
}

// A share of the placement's busbw bound becomes a figure once the bound is known.
TEST(Expectations, AShareOfTheBusbwBound) {
  std::vector<Expectation> e = parsed(
      R"([{"collective": "all_reduce", "size_bytes": "1M", "min_busbw_percent_of_bound": 60},
                                          {"collective": "all_reduce", "size_bytes": 8, "max_time_us": 50}])");
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0].bound, ExpectBound::kMinBusbw);
  EXPECT_EQ(e[0].percent_of_bound, 60);
  ASSERT_TRUE(apply_busbw_bound(e, ExpectedBusbw{10, "host memory copy bandwidth on vm"}).ok());
  EXPECT_DOUBLE_EQ(e[0].limit, 6);
  EXPECT_DOUBLE_EQ(e[1].limit, 50);  // other bounds stay as written
  const auto results = check_expectations(rows(), {e[0]});
  EXPECT_FALSE(results[0].passed);
  EXPECT_EQ(results[0].message,
            "all_reduce 1048576 B: busbw 4.2 GB/s, expected >= 6 GB/s (60% of the bound) (worst: in_place)");
  // No bound to take a share of: a usage error naming the row and the reason.
  const Status unknown = apply_busbw_bound(e, ExpectedBusbw{0, "no NIC speed is known on h1"});
  EXPECT_EQ(unknown.code(), ErrorCode::kUsage);
  EXPECT_EQ(unknown.message(), "--expect: rows[0] asks for a share of the busbw bound, which is unknown here (no NIC "
                               "speed is known on h1)");
  const std::string head = R"({"schema": "collbench.expect", "version": 1, "rows": )";
  EXPECT_NE(parse_error(head + R"([{"collective": "all_reduce", "size_bytes": 8, "min_busbw_percent_of_bound": 101}]})")
                .find("rows[0].min_busbw_percent_of_bound: expected a percentage above 0 and at most 100"),
            std::string::npos);
}

TEST(Expectations, WorstPlacementDecides) {
  const auto r = check_expectations(
      rows(), parsed(R"([{"collective": "all_reduce", "size_bytes": 1048576, "min_busbw_gbps": 4.5},
      {"collective": "all_reduce", "size_bytes": 1048576, "min_busbw_gbps": 4.0},
      {"collective": "all_reduce", "size_bytes": 1048576, "min_busbw_gbps": 4.5, "placement": "out_of_place"},
      {"collective": "all_reduce", "size_bytes": 8, "max_time_us": 25},
      {"collective": "all_reduce", "size_bytes": 8, "max_time_us": 30},
      {"collective": "all_reduce", "size_bytes": 1048576, "min_algbw_gbps": 2.2}])"));
  ASSERT_EQ(r.size(), 6u);
  EXPECT_FALSE(r[0].passed);
  EXPECT_DOUBLE_EQ(r[0].figure, 4.2);
  EXPECT_EQ(r[0].placement, "in_place");
  EXPECT_EQ(r[0].message, "all_reduce 1048576 B: busbw 4.2 GB/s, expected >= 4.5 GB/s (worst: in_place)");
  EXPECT_TRUE(r[1].passed);
  EXPECT_TRUE(r[2].passed) << "out-of-place alone reaches 5.2";
  EXPECT_DOUBLE_EQ(r[2].figure, 5.2);
  EXPECT_FALSE(r[3].passed);
  EXPECT_EQ(r[3].message, "all_reduce 8 B: time 30 us, expected <= 25 us (worst: in_place)");
  EXPECT_TRUE(r[4].passed) << "the bound itself passes";
  EXPECT_FALSE(r[5].passed);
  EXPECT_EQ(expectations_met(r).code(), ErrorCode::kBelowExpectation);
  EXPECT_NE(expectations_met(r).message().find(
                "3 of 6 expectations failed (--expect): all_reduce 1048576 B: busbw 4.2"),
            std::string::npos)
      << expectations_met(r).message();
  EXPECT_TRUE(expectations_met({r[1], r[2], r[4]}).ok());
  EXPECT_TRUE(expectations_met({}).ok());
}

TEST(Expectations, UnmeasuredRowsFail) {
  const auto r = check_expectations(
      rows(), parsed(R"([{"collective": "all_reduce", "size_bytes": 2097152, "min_busbw_gbps": 0.1},
      {"collective": "all_reduce", "size_bytes": 4096, "min_busbw_gbps": 0.1},
      {"collective": "broadcast", "size_bytes": 8, "max_time_us": 1000},
      {"collective": "all_reduce", "size_bytes": 8, "dtype": "double", "max_time_us": 1000},
      {"collective": "all_reduce", "size_bytes": 8, "op": "max", "max_time_us": 1000},
      {"collective": "all_reduce", "size_bytes": 8, "dtype": "float", "op": "sum", "max_time_us": 1000}])"));
  ASSERT_EQ(r.size(), 6u);
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_FALSE(r[i].measured) << i;
    EXPECT_FALSE(r[i].passed) << i;
  }
  EXPECT_EQ(r[0].message, "all_reduce 2097152 B: not measured, expected busbw >= 0.1 GB/s");
  EXPECT_TRUE(r[5].passed);
  EXPECT_EQ(r[5].message, "all_reduce float sum 8 B: time 30 us, expected <= 1000 us (worst: in_place)");
}

TEST(Expectations, EveryCycleCountsAndNanFails) {
  std::vector<SizeRecord> cycles = rows();
  cycles.push_back(cycles[1]);
  cycles.back().placements.front().busbw_gbps = 1.0;  // a slow second cycle
  const auto bound = parsed(R"([{"collective": "all_reduce", "size_bytes": 1048576, "min_busbw_gbps": 4.0}])");
  auto r = check_expectations(cycles, bound);
  EXPECT_FALSE(r[0].passed);
  EXPECT_DOUBLE_EQ(r[0].figure, 1.0);
  cycles.back().placements.front().busbw_gbps = std::numeric_limits<double>::quiet_NaN();
  r = check_expectations(cycles, bound);
  EXPECT_FALSE(r[0].passed);
  EXPECT_TRUE(std::isnan(r[0].figure));
}

TEST(Expectations, RoundTripThroughTheRunDocument) {
  RunDocument d = testing::sample_document();
  d.summary.expectations = check_expectations(
      d.rows, parsed(R"([{"collective": "all_reduce", "size_bytes": 1048576, "min_busbw_gbps": 50, "dtype": "float"},
      {"collective": "all_reduce", "size_bytes": 64, "max_time_us": 5, "placement": "in_place"}])"));
  const std::string text = to_json_text(d);
  auto back = parse_run_json(text);
  ASSERT_TRUE(back.ok()) << back.status().message();
  ASSERT_EQ(back->summary.expectations.size(), 2u);
  EXPECT_EQ(to_json_text(*back), text);
  EXPECT_TRUE(back->summary.expectations[0].passed);
  EXPECT_FALSE(back->summary.expectations[1].measured);
  EXPECT_EQ(back->summary.expectations[1].expectation.placement, ExpectPlacement::kInPlace);
  // A document without --expect has no "expectations" key at all (older readers stay happy).
  EXPECT_EQ(to_json_text(testing::sample_document()).find("\"expectations\""), std::string::npos);
}

}  // namespace
}  // namespace collbench::report
