#include "report/render/gbench_json.hpp"

#include <gtest/gtest.h>

#include "report/documents/json_internal.hpp"
#include "report_test_data.hpp"

namespace collbench::report {
namespace {

using testing::load_fixture;
using testing::sample_document;

// Google Benchmark 1.7.1's JSON reporter (src/json_reporter.cc): the context block and, for
// every run of type "iteration", these fields with these JSON types.
struct Field {
  const char* name;
  Json::value_t type;
};

bool same_kind(Json::value_t a, Json::value_t b) {
  const auto integer = [](Json::value_t t) {
    return t == Json::value_t::number_integer || t == Json::value_t::number_unsigned;
  };
  return a == b || (integer(a) && integer(b));
}

const std::vector<Field> kContext = {{"date", Json::value_t::string},
                                     {"host_name", Json::value_t::string},
                                     {"executable", Json::value_t::string},
                                     {"num_cpus", Json::value_t::number_integer},
                                     {"mhz_per_cpu", Json::value_t::number_integer},
                                     {"cpu_scaling_enabled", Json::value_t::boolean},
                                     {"caches", Json::value_t::array},
                                     {"load_avg", Json::value_t::array},
                                     {"library_build_type", Json::value_t::string}};

const std::vector<Field> kIteration = {{"name", Json::value_t::string},
                                       {"family_index", Json::value_t::number_integer},
                                       {"per_family_instance_index", Json::value_t::number_integer},
                                       {"run_name", Json::value_t::string},
                                       {"run_type", Json::value_t::string},
                                       {"repetitions", Json::value_t::number_integer},
                                       {"repetition_index", Json::value_t::number_integer},
                                       {"threads", Json::value_t::number_integer},
                                       {"iterations", Json::value_t::number_integer},
                                       {"real_time", Json::value_t::number_float},
                                       {"cpu_time", Json::value_t::number_float},
                                       {"time_unit", Json::value_t::string}};

void expect_fields(const Json& j, const std::vector<Field>& fields, const std::string& where) {
  for (const auto& f : fields) {
    ASSERT_TRUE(j.contains(f.name)) << where << " lacks " << f.name;
    EXPECT_TRUE(same_kind(j.at(f.name).type(), f.type)) << where << "." << f.name << " is " << j.at(f.name).type_name();
  }
}

TEST(GbenchJson, HasGoogleBenchmarksLayoutAndTypes) {
  const Json j = Json::parse(gbench_json_text(load_fixture("base.json").document));
  expect_fields(j.at("context"), kContext, "context");
  const Json& benchmarks = j.at("benchmarks");
  ASSERT_EQ(benchmarks.size(), 46u);
  for (const auto& b : benchmarks) {
    expect_fields(b, kIteration, b.value("name", "?"));
    EXPECT_EQ(b.at("run_type"), "iteration");
    EXPECT_EQ(b.at("time_unit"), "us");
    EXPECT_EQ(b.at("run_name"), b.at("name"));
    EXPECT_FALSE(b.contains("error_occurred"));
    // Every counter is a number, as Google Benchmark writes them.
    for (const char* counter : {"busbw_gbps", "algbw_gbps", "bytes_per_second", "size_bytes", "nranks", "wrong"}) {
      ASSERT_TRUE(b.contains(counter)) << counter;
      EXPECT_TRUE(b.at(counter).is_number_float()) << counter;
    }
  }
}

TEST(GbenchJson, NamesTimesAndIndices) {
  const RunDocument d = load_fixture("base.json").document;
  const Json j = Json::parse(gbench_json_text(d));
  const Json& first = j.at("benchmarks").at(0);
  const Measurement& m = d.rows[0].placements[0];
  EXPECT_EQ(first.at("name"), "all_reduce/float/sum/out_of_place/1024");
  EXPECT_DOUBLE_EQ(first.at("real_time").get<double>(), m.time_us);
  EXPECT_DOUBLE_EQ(first.at("cpu_time").get<double>(), m.time_us);
  EXPECT_EQ(first.at("iterations"), 20);
  EXPECT_DOUBLE_EQ(first.at("bytes_per_second").get<double>(), m.algbw_gbps * 1e9);
  EXPECT_DOUBLE_EQ(first.at("busbw_gbps").get<double>(), m.busbw_gbps);
  const Json& second = j.at("benchmarks").at(1);
  EXPECT_EQ(second.at("name"), "all_reduce/float/sum/in_place/1024");
  EXPECT_EQ(second.at("family_index"), 1);
  const Json& third = j.at("benchmarks").at(2);
  EXPECT_EQ(third.at("family_index"), 0);
  EXPECT_EQ(third.at("per_family_instance_index"), 1);
  EXPECT_EQ(third.at("repetitions"), 1);
  EXPECT_EQ(j.at("context").at("date"), "2026-11-30T02:00:00+00:00");
  EXPECT_EQ(j.at("context").at("collbench_backend_library"), "NCCL 2.21.5");
}

TEST(GbenchJson, RootedCollectivesNameTheRoot) {
  SizeRecord row = testing::sized("broadcast", "none", 8, 2);
  row.root = 3;
  EXPECT_EQ(gbench_name(row, Placement::kInPlace), "broadcast/float/none/root:3/in_place/8");
}

TEST(GbenchJson, WrongAndSkippedAreErrors) {
  const Json j = Json::parse(gbench_json_text(sample_document()));
  bool wrong = false;
  bool skipped = false;
  for (const auto& b : j.at("benchmarks")) {
    if (!b.contains("error_occurred")) continue;
    EXPECT_TRUE(b.at("error_occurred").get<bool>());
    const std::string message = b.at("error_message");
    wrong = wrong || message == "3 wrong elements";
    skipped = skipped || message.rfind("skipped: out of device memory", 0) == 0;
    expect_fields(b, kIteration, b.at("name"));
  }
  EXPECT_TRUE(wrong);
  EXPECT_TRUE(skipped);
}

TEST(GbenchJson, RepeatedCyclesAreRepetitions) {
  RunDocument d = sample_document();
  d.rows.push_back(d.rows[1]);
  const Json j = Json::parse(gbench_json_text(d));
  int seen = 0;
  for (const auto& b : j.at("benchmarks")) {
    if (b.at("name") != "all_reduce/float/sum/out_of_place/1048576") continue;
    EXPECT_EQ(b.at("repetitions"), 2);
    EXPECT_EQ(b.at("repetition_index"), seen++);
  }
  EXPECT_EQ(seen, 2);
}

}  // namespace
}  // namespace collbench::report
