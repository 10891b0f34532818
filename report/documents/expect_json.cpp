#include "report/documents/expect_json.hpp"

#include <cmath>
#include <string>

#include "common/units.hpp"
#include "report/documents/json_internal.hpp"

namespace collbench::report {
namespace {

Status bad(const std::string& where, const std::string& why) {
  return Status::error(ErrorCode::kUsage, where + ": " + why);
}

Result<std::string> string_at(const Json& row, const char* key, const std::string& where) {
  const Json& v = row.at(key);
  if (!v.is_string() || v.get<std::string>().empty()) return bad(where + "." + key, "expected a non-empty string");
  return v.get<std::string>();
}

// A byte count: a non-negative integer, or a size as the command line takes it ("1M").
Result<std::uint64_t> size_at(const Json& row, const std::string& where) {
  const Json& v = row.at("size_bytes");
  if (v.is_number_unsigned()) return v.get<std::uint64_t>();
  if (v.is_string()) {
    auto size = parse_size(v.get<std::string>());
    if (!size.ok()) return bad(where + ".size_bytes", size.status().message());
    return *size;
  }
  return bad(where + ".size_bytes", "expected a byte count (an integer >= 0, or a size such as \"1M\")");
}

Result<ExpectPlacement> placement_at(const Json& row, const std::string& where) {
  for (ExpectPlacement p : {ExpectPlacement::kBoth, ExpectPlacement::kOutOfPlace, ExpectPlacement::kInPlace}) {
    if (row.at("placement") == to_string(p)) return p;
  }
  return bad(where + ".placement", "expected \"both\", \"out_of_place\" or \"in_place\"");
}

Status read_bound(const Json& row, const std::string& where, Expectation& e) {
  int bounds = 0;
  for (ExpectBound b : {ExpectBound::kMinBusbw, ExpectBound::kMinAlgbw, ExpectBound::kMaxTime}) {
    const auto it = row.find(to_string(b));
    if (it == row.end()) continue;
    ++bounds;
    if (!it->is_number() || !std::isfinite(it->get<double>()) || it->get<double>() <= 0) {
      return bad(where + "." + to_string(b), "expected a number above 0");
    }
    e.bound = b;
    e.limit = it->get<double>();
  }
  if (const auto it = row.find("min_busbw_percent_of_bound"); it != row.end()) {
    ++bounds;
    if (!it->is_number() || !std::isfinite(it->get<double>()) || it->get<double>() <= 0 || it->get<double>() > 100) {
      return bad(where + ".min_busbw_percent_of_bound", "expected a percentage above 0 and at most 100");
    }
    e.bound = ExpectBound::kMinBusbw;
    e.percent_of_bound = it->get<double>();
  }
  if (bounds != 1) {
    return bad(where, "needs exactly one bound of min_busbw_gbps, min_algbw_gbps, max_time_us, "
                      "min_busbw_percent_of_bound (give one row per bound)");
  }
  return ok_status();
}

Result<Expectation> row_from(const Json& row, const std::string& where) {
  if (!row.is_object()) return bad(where, "expected an object");
  for (const auto& [key, value] : row.items()) {
    if (key != "collective" && key != "size_bytes" && key != "dtype" && key != "op" && key != "placement" &&
        key != "min_busbw_gbps" && key != "min_algbw_gbps" && key != "max_time_us" &&
        key != "min_busbw_percent_of_bound") {
      return bad(where, "unknown key '" + key + "'");
    }
  }
  for (const char* key : {"collective", "size_bytes"}) {
    if (!row.contains(key)) return bad(where, std::string("missing \"") + key + "\"");
  }
  Expectation e;
  COLLBENCH_ASSIGN_OR_RETURN(e.collective, string_at(row, "collective", where));
  COLLBENCH_ASSIGN_OR_RETURN(e.size_bytes, size_at(row, where));
  if (row.contains("dtype")) {
    COLLBENCH_ASSIGN_OR_RETURN(e.dtype, string_at(row, "dtype", where));
  }
  if (row.contains("op")) {
    COLLBENCH_ASSIGN_OR_RETURN(e.op, string_at(row, "op", where));
  }
  if (row.contains("placement")) {
    COLLBENCH_ASSIGN_OR_RETURN(e.placement, placement_at(row, where));
  }
  COLLBENCH_RETURN_IF_ERROR(read_bound(row, where, e));
  return e;
}

}  // namespace

Result<std::vector<Expectation>> parse_expectations(std::string_view text) {
  COLLBENCH_ASSIGN_OR_RETURN(const Json j, parse_json_text(text));
  if (!j.is_object()) return bad("the document", "expected an object");
  for (const auto& [key, value] : j.items()) {
    if (key != "schema" && key != "version" && key != "rows") return bad("the document", "unknown key '" + key + "'");
  }
  if (!j.contains("schema") || j.at("schema") != kExpectSchemaName) {
    return bad("schema", std::string("expected \"") + kExpectSchemaName + "\"");
  }
  if (!j.contains("version") || j.at("version") != kExpectSchemaVersion) {
    return bad("version", "expected " + std::to_string(kExpectSchemaVersion));
  }
  if (!j.contains("rows") || !j.at("rows").is_array() || j.at("rows").empty()) {
    return bad("rows", "expected a non-empty array");
  }
  std::vector<Expectation> out;
  for (std::size_t i = 0; i < j.at("rows").size(); ++i) {
    COLLBENCH_ASSIGN_OR_RETURN(Expectation e, row_from(j.at("rows")[i], "rows[" + std::to_string(i) + "]"));
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace collbench::report
