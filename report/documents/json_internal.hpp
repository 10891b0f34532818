// nlohmann-facing helpers shared by the report module's JSON code. Internal to report/: the
// public headers (run_json.hpp, json_schema.hpp) keep nlohmann out of their API so that the
// dependency stays PRIVATE.
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

#include "common/status.hpp"
#include "report/expect_record.hpp"
#include "report/job_header.hpp"

namespace collbench::report {

// Ordered, so that a parsed document writes back with its keys in the same order.
using Json = nlohmann::ordered_json;

// "not JSON: parse error at line 3, column 1: ..." on failure (ErrorCode::kUsage).
Result<Json> parse_json_text(std::string_view text);

// JSON has no NaN or infinity: the documents' convention is the string "nan", "inf" or "-inf".
Json real(double v);

// The "context" object of the preflight and locate documents.
Json job_header_json(const JobHeader& job);

// One --expect verdict, as the run and health documents hold it.
Json expectation_json(const ExpectationResult& r);

// validate_run_json for a document that is already parsed.
Status validate_run_value(const Json& document);

}  // namespace collbench::report
