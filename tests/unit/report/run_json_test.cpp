#include "report/documents/run_json.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "report/documents/json_schema.hpp"
#include "sample_run.hpp"

namespace collbench::report {
namespace {

using testing::measured;
using testing::sample_document;
using testing::sized;

TEST(RunJson, WrittenDocumentIsValid) {
  const Status s = validate_run_json(to_json_text(sample_document()));
  EXPECT_TRUE(s.ok()) << s.message();
}

TEST(RunJson, RoundTripsByteForByte) {
  const std::string text = to_json_text(sample_document());
  auto parsed = parse_run_json(text);
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_EQ(to_json_text(*parsed), text);
}

TEST(RunJson, MatchesGoldenFile) {
  // Any difference here changes the file format: update the fixture deliberately, and bump
  // kRunSchemaVersion when old readers would misread the new layout.
  const std::string golden_path = COLLBENCH_FIXTURES_DIR "/report/run_sample.json";
  std::ifstream in(golden_path, std::ios::binary);
  std::stringstream golden;
  golden << in.rdbuf();
  const std::string actual = to_json_text(sample_document());
  if (actual != golden.str()) {
    const auto dump = std::filesystem::temp_directory_path() /
                      ("run_sample.actual." + std::to_string(getpid()) + ".json");
    std::ofstream(dump, std::ios::binary) << actual;
    ADD_FAILURE() << "output differs from " << golden_path << "; actual output written to " << dump.string();
  }
}

TEST(RunJson, TheExpectedBusbwSurvivesAndMayBeUnknown) {
  for (const ExpectedBusbw& e : {ExpectedBusbw{450, "NVLink (NV18) between GPU0 and GPU1 on node1"},
                                 ExpectedBusbw{0, "no NIC speed is known on h1"}}) {
    RunDocument doc = sample_document();
    doc.context.expected_busbw = e;
    const std::string text = to_json_text(doc);
    const Status valid = validate_run_json(text);
    EXPECT_TRUE(valid.ok()) << valid.message();
    auto parsed = parse_run_json(text);
    ASSERT_TRUE(parsed.ok()) << parsed.status().message();
    ASSERT_TRUE(parsed->context.expected_busbw.has_value());
    EXPECT_EQ(parsed->context.expected_busbw->gbps, e.gbps);
    EXPECT_EQ(parsed->context.expected_busbw->bottleneck, e.bottleneck);
    EXPECT_EQ(to_json_text(*parsed), text);
  }
}

TEST(RunJson, LaunchModesAndGpuMemorySurvive) {
  RunDocument doc = sample_document();
  doc.context.config.gpus_per_process = 8;
  doc.context.config.aggregation = 4;
  doc.context.config.graph_launches = 10;
  doc.context.config.buffer_registration = 1;
  const std::string text = to_json_text(doc);
  EXPECT_TRUE(validate_run_json(text).ok());
  auto parsed = parse_run_json(text);
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_EQ(parsed->context.config.gpus_per_process, 8);
  EXPECT_EQ(parsed->context.config.aggregation, 4u);
  EXPECT_EQ(parsed->context.config.graph_launches, 10u);
  EXPECT_EQ(parsed->context.config.buffer_registration, 1);
  EXPECT_EQ(parsed->context.ranks[0].device_memory_bytes, 85520809984u);
}

TEST(RunJson, PrecisionBoundsSurviveAndAreAbsentWithFixedIterations) {
  RunDocument doc = sample_document();
  EXPECT_EQ(to_json_text(doc).find("\"precision\""), std::string::npos);
  doc.context.config.iterations = 0;
  doc.context.config.precision = PrecisionConfig{0.05, 0.5, 0.02, 10, 100000};
  const std::string text = to_json_text(doc);
  const Status valid = validate_run_json(text);
  EXPECT_TRUE(valid.ok()) << valid.message();
  auto parsed = parse_run_json(text);
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  ASSERT_TRUE(parsed->context.config.precision.has_value());
  EXPECT_DOUBLE_EQ(parsed->context.config.precision->min_time_s, 0.05);
  EXPECT_DOUBLE_EQ(parsed->context.config.precision->max_time_s, 0.5);
  EXPECT_DOUBLE_EQ(parsed->context.config.precision->target_spread, 0.02);
  EXPECT_EQ(parsed->context.config.precision->min_iterations, 10u);
  EXPECT_EQ(parsed->context.config.precision->max_iterations, 100000u);
  EXPECT_EQ(to_json_text(*parsed), text);
}

TEST(RunJson, DocumentsWithoutLaunchModesStillReadWithDefaults) {
  // Written before the NCCL backend: no -g/-m/-G/-R fields, no GPU memory.
  auto j = nlohmann::json::parse(to_json_text(sample_document()));
  for (const char* key : {"gpus_per_process", "aggregation", "graph_launches", "buffer_registration"}) {
    j["config"].erase(key);
  }
  for (auto& rank : j["context"]["ranks"]) rank.erase("device_memory_bytes");
  const std::string text = j.dump(2);
  const Status valid = validate_run_json(text);
  EXPECT_TRUE(valid.ok()) << valid.message();
  auto parsed = parse_run_json(text);
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_EQ(parsed->context.config.gpus_per_process, 1);
  EXPECT_EQ(parsed->context.config.aggregation, 1u);
  EXPECT_EQ(parsed->context.config.graph_launches, 0u);
  EXPECT_EQ(parsed->context.ranks[1].device_memory_bytes, 0u);
}

TEST(RunJson, AnomalyKindsSurviveByName) {
  RunDocument doc = sample_document();
  for (const AnomalyKind k : kAnomalyKinds) {
    Anomaly a;
    a.collective = "all_reduce";
    a.dtype = "float";
    a.op = "sum";
    a.size_bytes = 1 << 20;
    a.sizes = {1 << 20};
    a.placement = "both";
    a.kind = k;
    a.explained = k == AnomalyKind::kCache;
    a.message = "m";
    doc.summary.anomalies.push_back(a);
  }
  const std::string text = to_json_text(doc);
  const Status valid = validate_run_json(text);
  EXPECT_TRUE(valid.ok()) << valid.message();
  EXPECT_NE(text.find("\"kind\": \"spread\""), std::string::npos);
  auto parsed = parse_run_json(text);
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  ASSERT_EQ(parsed->summary.anomalies.size(), std::size(kAnomalyKinds));
  for (std::size_t i = 0; i < std::size(kAnomalyKinds); ++i)
    EXPECT_EQ(parsed->summary.anomalies[i].kind, kAnomalyKinds[i]);
  EXPECT_EQ(to_json_text(*parsed), text);
}

TEST(RunJson, PerCallAllocationSurvivesAndOlderFilesTakeItFromTheBackendsName) {
  RunDocument doc = sample_document();  // nccl: allocates nothing per call
  doc.context.allocates_per_call = true;
  auto parsed = parse_run_json(to_json_text(doc));
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_TRUE(parsed->context.allocates_per_call);
  // Written before the field: MPI was the one backend that allocates per call.
  for (const char* backend : {"mpi", "nccl"}) {
    auto j = nlohmann::json::parse(to_json_text(sample_document()));
    j["context"]["backend"].erase("allocates_per_call");
    j["context"]["backend"]["name"] = backend;
    const std::string text = j.dump(2);
    const Status valid = validate_run_json(text);
    EXPECT_TRUE(valid.ok()) << valid.message();
    auto old = parse_run_json(text);
    ASSERT_TRUE(old.ok()) << old.status().message();
    EXPECT_EQ(old->context.allocates_per_call, std::string(backend) == "mpi") << backend;
  }
}

TEST(RunJson, TheBufferPolicySurvivesAndOldDocumentsHaveNone) {
  RunDocument doc = sample_document();
  EXPECT_EQ(to_json_text(doc).find("\"buffers\""), std::string::npos);  // as files written before it
  auto old = parse_run_json(to_json_text(doc));
  ASSERT_TRUE(old.ok()) << old.status().message();
  EXPECT_FALSE(old->context.config.buffers.has_value());
  for (const BufferConfig b :
       {BufferConfig{BufferPolicy::kRotated, 268435456}, BufferConfig{BufferPolicy::kFixed, 4096}}) {
    doc.context.config.buffers = b;
    const std::string text = to_json_text(doc);
    const auto j = nlohmann::json::parse(text);
    EXPECT_EQ(j.at("config").at("buffers").at("policy"), to_string(b.policy));
    EXPECT_EQ(j.at("config").at("buffers").at("bytes_per_buffer"), b.bytes_per_buffer);
    const Status valid = validate_run_json(text);
    EXPECT_TRUE(valid.ok()) << valid.message();
    auto parsed = parse_run_json(text);
    ASSERT_TRUE(parsed.ok()) << parsed.status().message();
    ASSERT_TRUE(parsed->context.config.buffers.has_value());
    EXPECT_EQ(parsed->context.config.buffers->policy, b.policy);
    EXPECT_EQ(parsed->context.config.buffers->bytes_per_buffer, b.bytes_per_buffer);
    EXPECT_EQ(to_json_text(*parsed), text);
  }
}

TEST(RunJson, AnUnknownBufferPolicyIsRefused) {
  auto j = nlohmann::json::parse(to_json_text(sample_document()));
  j["config"]["buffers"] = {{"policy", "pinned"}, {"bytes_per_buffer", 1024}};
  EXPECT_FALSE(validate_run_json(j.dump()).ok());
  const auto parsed = parse_run_json(j.dump());
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.status().message().find("\"pinned\""), std::string::npos) << parsed.status().message();
}

TEST(RunJson, ParseRegroupsPlacementsIntoRows) {
  auto parsed = parse_run_json(to_json_text(sample_document()));
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  const auto& rows = parsed->rows;
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[0].placements.size(), 2u);
  EXPECT_EQ(rows[0].placements[1].placement, Placement::kInPlace);
  EXPECT_EQ(rows[2].size_bytes, 8589934592u);
  EXPECT_DOUBLE_EQ(rows[2].placements[0].busbw_gbps, 481.11);
  ASSERT_TRUE(rows[3].skipped.has_value());
  EXPECT_EQ(*rows[3].skipped, "out of device memory (needs 32 GiB per rank)");
  EXPECT_TRUE(rows[3].placements.empty());
  EXPECT_FALSE(rows[4].placements[1].checked);
  EXPECT_EQ(rows[4].op, "none");
}

TEST(RunJson, ContextConfigAndSummarySurvive) {
  const RunDocument original = sample_document();
  auto parsed = parse_run_json(to_json_text(original));
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_EQ(parsed->context.env, original.context.env);  // order kept, not sorted
  EXPECT_EQ(parsed->context.ranks[1].pci_bus_id, "0000:2A:00.0");
  EXPECT_EQ(parsed->context.config.max_bytes, 8589934592u);
  EXPECT_EQ(parsed->context.config.collectives, original.context.config.collectives);
  EXPECT_EQ(parsed->summary.status, RunStatus::kWrongData);
  EXPECT_EQ(parsed->summary.total_wrong, 3u);
  EXPECT_EQ(parsed->summary.peak_placement, "in_place");
  EXPECT_FALSE(parsed->summary.error.has_value());
}

TEST(RunJson, NonFiniteValuesSurvive) {
  const std::string text = to_json_text(sample_document());
  EXPECT_NE(text.find("\"got\": \"nan\""), std::string::npos);
  EXPECT_NE(text.find("\"got\": \"inf\""), std::string::npos);
  EXPECT_NE(text.find("\"got\": \"-inf\""), std::string::npos);
  auto parsed = parse_run_json(text);
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  const auto& mismatches = parsed->rows[4].placements[0].mismatches;
  ASSERT_EQ(mismatches.size(), 3u);
  EXPECT_TRUE(std::isnan(mismatches[0].got));
  EXPECT_EQ(mismatches[1].got, std::numeric_limits<double>::infinity());
  EXPECT_EQ(mismatches[2].got, -std::numeric_limits<double>::infinity());
  EXPECT_EQ(mismatches[0].expected, 6);
  EXPECT_EQ(mismatches[0].index, 17u);
}

TEST(RunJson, NonFiniteMeasurementsAreWrittenAsStrings) {
  RunDocument d = sample_document();
  d.rows[0].placements[0].per_iteration.cv = std::numeric_limits<double>::quiet_NaN();
  d.rows[0].placements[0].algbw_gbps = std::numeric_limits<double>::infinity();
  const std::string text = to_json_text(d);
  EXPECT_TRUE(validate_run_json(text).ok());
  auto parsed = parse_run_json(text);
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_TRUE(std::isnan(parsed->rows[0].placements[0].per_iteration.cv));
  EXPECT_TRUE(std::isinf(parsed->rows[0].placements[0].algbw_gbps));
}

TEST(RunJson, ErrorAndEmptyRunRoundTrip) {
  RunDocument d{testing::sample_context(), {}, {}};
  d.summary.status = RunStatus::kTimeout;
  d.summary.error = "rank 3 (node0002) did not reach the barrier within 300 s";
  const std::string text = to_json_text(d);
  EXPECT_NE(text.find("\"peak_placement\": null"), std::string::npos);
  auto parsed = parse_run_json(text);
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_EQ(parsed->summary.error, d.summary.error);
  EXPECT_EQ(parsed->summary.status, RunStatus::kTimeout);
  EXPECT_TRUE(parsed->rows.empty());
  EXPECT_EQ(to_json_text(*parsed), text);
}

// Two consecutive rows with the same key (a one-size sweep repeated with -N 2) stay two rows.
TEST(RunJson, RepeatedKeyStartsANewRow) {
  RunDocument d{testing::sample_context(), {}, {}};
  SizeRecord r = sized("all_reduce", "sum", 1024, 256);
  r.placements = {measured(Placement::kOutOfPlace, 10, 1, 2), measured(Placement::kInPlace, 11, 1, 2)};
  d.rows = {r, r};
  auto parsed = parse_run_json(to_json_text(d));
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  ASSERT_EQ(parsed->rows.size(), 2u);
  EXPECT_EQ(parsed->rows[1].placements.size(), 2u);
}

TEST(RunJson, ParseReportsWhatIsWrong) {
  auto not_json = parse_run_json("{\"schema\": ");
  ASSERT_FALSE(not_json.ok());
  EXPECT_EQ(not_json.status().code(), ErrorCode::kUsage);
  EXPECT_EQ(not_json.status().message().rfind("not JSON: parse error at line 1", 0), 0u) << not_json.status().message();

  std::string text = to_json_text(sample_document());
  text.replace(text.find("\"nranks\": 2"), 11, "\"nranks\": \"2\"");
  auto mistyped = parse_run_json(text);
  ASSERT_FALSE(mistyped.ok());
  EXPECT_EQ(mistyped.status().message(), "/context/nranks: expected integer, got string");
}

TEST(RunJson, OutOfRangeIntegerIsRejected) {
  std::string text = to_json_text(sample_document());
  text.replace(text.find("\"nranks\": 2"), 11, "\"nranks\": 4294967297");
  auto parsed = parse_run_json(text);
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.status().message().find("\"nranks\": 4294967297 is out of range"), std::string::npos)
      << parsed.status().message();
}

}  // namespace
}  // namespace collbench::report
