#include "report/documents/json_schema.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>

#include "report/record.hpp"
#include "report/documents/run_json.hpp"
#include "sample_run.hpp"

namespace collbench::report {
namespace {

using Json = nlohmann::ordered_json;

// The sample document, damaged by `edit`, then validated.
Status validate_damaged(const std::function<void(Json&)>& edit) {
  Json doc = Json::parse(to_json_text(testing::sample_document()));
  edit(doc);
  return validate_run_json(doc.dump(2));
}

void expect_error(const Status& s, const std::string& message) {
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.code(), ErrorCode::kUsage);
  EXPECT_EQ(s.message(), message);
}

TEST(RunSchema, AcceptsAGeneratedDocument) {
  const Status s = validate_run_json(to_json_text(testing::sample_document()));
  EXPECT_TRUE(s.ok()) << s.message();
}

TEST(RunSchema, EmbeddedTextIsTheSchemaFile) {
  std::ifstream in(COLLBENCH_SOURCE_DIR "/report/documents/schema/run.schema.json", std::ios::binary);
  std::stringstream file;
  file << in.rdbuf();
  EXPECT_EQ(run_schema_text(), file.str()) << "rebuild: the embedded schema is stale";
}

TEST(RunSchema, VersionMatchesTheLibrary) {
  const Json schema = Json::parse(run_schema_text());
  EXPECT_EQ(schema["properties"]["schema_version"]["const"], kRunSchemaVersion);
  EXPECT_EQ(schema["properties"]["schema"]["const"], kRunSchemaName);
}

TEST(RunSchema, AnomalyKindsAreTheWritersNames) {
  const Json schema = Json::parse(run_schema_text());
  Json written = Json::array();
  for (const AnomalyKind k : kAnomalyKinds) written.push_back(to_string(k));
  EXPECT_EQ(written, schema["$defs"]["anomaly"]["properties"]["kind"]["enum"]);
}

TEST(RunSchema, RejectsWrongTypes) {
  expect_error(validate_damaged([](Json& d) { d["results"][3]["busbw_gbps"] = true; }),
               "/results/3/busbw_gbps: expected number or string, got boolean");
  expect_error(validate_damaged([](Json& d) { d["results"][3]["busbw_gbps"] = "fast"; }),
               "/results/3/busbw_gbps: \"fast\" is not one of \"nan\", \"inf\", \"-inf\"");
  expect_error(validate_damaged([](Json& d) { d["results"][0]["checked"] = "true"; }),
               "/results/0/checked: expected boolean, got string");
  expect_error(validate_damaged([](Json& d) { d["context"]["ranks"][1]["pid"] = 1.5; }),
               "/context/ranks/1/pid: expected integer, got number");
  expect_error(validate_damaged([](Json& d) { d["results"][0]["wrong"] = -1; }),
               "/results/0/wrong: -1 is less than the minimum 0");
  expect_error(validate_damaged([](Json& d) { d["summary"]["status"] = "fine"; }),
               "/summary/status: \"fine\" is not one of \"ok\", \"wrong_data\", \"incomplete\", \"interrupted\", "
               "\"timeout\", \"error\"");
  expect_error(validate_damaged([](Json& d) { d["context"]["env"]["NCCL_DEBUG"] = 3; }),
               "/context/env/NCCL_DEBUG: expected string, got integer");
  expect_error(validate_damaged([](Json& d) { d["context"]["backend"]["allocates_per_call"] = "yes"; }),
               "/context/backend/allocates_per_call: expected boolean, got string");
  expect_error(validate_damaged([](Json& d) {
                 d["summary"]["anomalies"] = Json::parse(R"([{"collective": "all_reduce", "dtype": "float", "op": "sum",
                   "root": -1, "size_bytes": 8, "placement": "both", "kind": "slump", "message": "m"}])");
               }),
               "/summary/anomalies/0/kind: \"slump\" is not one of \"drop\", \"dip\", \"spread\", \"cache\"");
}

TEST(RunSchema, RejectsMissingAndUnexpectedFields) {
  expect_error(validate_damaged([](Json& d) { d["context"].erase("nranks"); }),
               "/context: missing required property \"nranks\"");
  expect_error(validate_damaged([](Json& d) { d["results"][1]["stats"].erase("p99_us"); }),
               "/results/1/stats: missing required property \"p99_us\"");
  expect_error(validate_damaged([](Json& d) { d["config"]["bogus"] = 1; }), "/config/bogus: unexpected property");
  // A skipped record carries no measurement.
  expect_error(validate_damaged([](Json& d) { d["results"][6]["time_us"] = 1.0; }),
               "/results/6/time_us: unexpected property");
  expect_error(validate_damaged([](Json& d) { d["results"][0].erase("collective"); }),
               "/results/0: missing required property \"collective\"");
}

TEST(RunSchema, RejectsOtherDocumentsAndVersions) {
  expect_error(validate_damaged([](Json& d) { d["schema_version"] = kRunSchemaVersion + 1; }),
               "/schema_version: unsupported schema version " + std::to_string(kRunSchemaVersion + 1) +
                   " (this build reads version " + std::to_string(kRunSchemaVersion) + ")");
  expect_error(validate_damaged([](Json& d) { d["schema"] = "nccl-tests"; }),
               "/schema: not a collbench run document (expected \"collbench.run\", got \"nccl-tests\")");
  expect_error(validate_damaged([](Json& d) { d.erase("schema"); }),
               "(root): not a collbench run document (no \"schema\" property)");
  expect_error(validate_run_json("[1, 2]"), "(root): expected an object (a collbench run document), got array");
}

TEST(RunSchema, RejectsTruncatedText) {
  const std::string text = to_json_text(testing::sample_document());
  // Cut at a line end, as a copy that stopped halfway would look.
  const Status s = validate_run_json(text.substr(0, text.find('\n', text.size() / 2)));
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.code(), ErrorCode::kUsage);
  EXPECT_EQ(s.message().rfind("not JSON: parse error at line ", 0), 0u) << s.message();
  EXPECT_NE(s.message().find("unexpected end of input"), std::string::npos) << s.message();
}

// Found by fuzzing: a number beyond any double is valid JSON, and nlohmann reports it with an
// out_of_range exception that escaped and aborted collbench validate/compare/report.
TEST(RunSchema, NumberBeyondADoubleIsAUsageError) {
  const std::string text = R"({"schema": "collbench.preflight", "schema_version": 1, "ranks": [{"rank": 1e400}]})";
  for (const Status& s : {validate_run_json(text), validate_document_json(text).status()}) {
    EXPECT_EQ(s.code(), ErrorCode::kUsage);
    EXPECT_EQ(s.message(), "unreadable JSON: number overflow parsing '1e400'");
  }
  EXPECT_EQ(parse_run_json(R"({"a": -1e999})").status().code(), ErrorCode::kUsage);
}

// The generic validator, on small schemas.
TEST(JsonSchema, TypeArraysRefsAndConditionals) {
  const std::string schema = R"({
    "$defs": {"id": {"type": ["integer", "null"], "minimum": 1}},
    "type": "object",
    "properties": {
      "id": {"$ref": "#/$defs/id"},
      "kind": {"enum": ["a", "b"]},
      "a/b~c": {"const": 7}
    },
    "if": {"properties": {"kind": {"const": "a"}}},
    "then": {"required": ["id"]},
    "else": {"required": ["a/b~c"]}
  })";
  EXPECT_TRUE(validate_json(schema, R"({"kind": "a", "id": null})").ok());
  EXPECT_TRUE(validate_json(schema, R"({"kind": "b", "a/b~c": 7})").ok());
  EXPECT_EQ(validate_json(schema, R"({"kind": "a", "id": 0})").message(), "/id: 0 is less than the minimum 1");
  EXPECT_EQ(validate_json(schema, R"({"kind": "a", "id": "x"})").message(),
            "/id: expected integer or null, got string");
  EXPECT_EQ(validate_json(schema, R"({"kind": "a"})").message(), "(root): missing required property \"id\"");
  EXPECT_EQ(validate_json(schema, R"({"kind": "b"})").message(), "(root): missing required property \"a/b~c\"");
  EXPECT_EQ(validate_json(schema, R"({"kind": "b", "a/b~c": 8})").message(), "/a~1b~0c: expected 7, got 8");
  EXPECT_EQ(validate_json(schema, R"({"kind": "c", "a/b~c": 7})").message(), "/kind: \"c\" is not one of \"a\", \"b\"");
}

TEST(JsonSchema, ItemsAndAdditionalPropertiesSchemas) {
  const std::string schema = R"({
    "type": "array",
    "items": {"type": "object", "additionalProperties": {"type": "number"}}
  })";
  EXPECT_TRUE(validate_json(schema, R"([{"x": 1}, {"y": 2.5}])").ok());
  EXPECT_EQ(validate_json(schema, R"([{"x": 1}, {"y": "2"}])").message(), "/1/y: expected number, got string");
  EXPECT_TRUE(validate_json(R"({"type": "integer"})", "3.0").ok());  // JSON Schema: 3.0 is an integer
}

TEST(JsonSchema, RejectsSchemasOutsideTheSupportedSubset) {
  const Status unsupported = validate_json(R"({"properties": {"x": {"oneOf": []}}})", "{}");
  EXPECT_EQ(unsupported.code(), ErrorCode::kInternal);
  EXPECT_EQ(unsupported.message(), "invalid schema at /properties/x: unsupported keyword \"oneOf\"");
  EXPECT_EQ(validate_json(R"({"$ref": "#/$defs/nope"})", "{}").message(),
            "invalid schema at (root): unresolvable $ref \"#/$defs/nope\"");
  EXPECT_EQ(validate_json(R"({"type": "float"})", "1").message(), "invalid schema at (root): unknown type \"float\"");
  EXPECT_EQ(validate_json("{", "1").code(), ErrorCode::kInternal);
}

}  // namespace
}  // namespace collbench::report
