#include "report/documents/json_schema.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <exception>
#include <optional>
#include <string>

#include "collbench_health_schema.hpp"     // generated from report/documents/schema/health.schema.json
#include "collbench_locate_schema.hpp"     // generated from report/documents/schema/locate.schema.json
#include "collbench_preflight_schema.hpp"  // generated from report/documents/schema/preflight.schema.json
#include "collbench_run_schema.hpp"        // generated from report/documents/schema/run.schema.json
#include "report/documents/json_internal.hpp"
#include "report/locate_record.hpp"
#include "report/health_record.hpp"
#include "report/preflight_record.hpp"
#include "report/record.hpp"

namespace collbench::report {
namespace {

struct Violation {
  std::string pointer;
  std::string message;
};
using Outcome = std::optional<Violation>;

constexpr std::array<std::string_view, 12> kKeywords = {
    "type",  "const", "enum", "minimum", "required", "properties", "additionalProperties",
    "items", "$ref",  "if",   "then",    "else"};
// Keywords without a check of their own ($defs holds schemas, which check_schema walks).
constexpr std::array<std::string_view, 8> kIgnored = {"$schema",     "$id",     "$comment", "title",
                                                      "description", "default", "examples", "$defs"};
constexpr std::array<std::string_view, 7> kTypeNames = {"null",   "boolean", "integer", "number",
                                                        "string", "array",   "object"};

template <std::size_t N>
bool contains(const std::array<std::string_view, N>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::string child(const std::string& pointer, std::string_view key) {
  std::string out = pointer + "/";
  for (char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

std::string child(const std::string& pointer, std::size_t index) { return pointer + "/" + std::to_string(index); }

std::string type_of(const Json& v) {
  if (v.is_number_integer()) return "integer";
  if (v.is_number()) return "number";
  return v.type_name();  // "null", "boolean", "string", "array", "object"
}

bool has_type(const Json& v, std::string_view name) {
  if (name == "number") return v.is_number();
  if (name == "integer") {
    if (v.is_number_integer()) return true;
    if (!v.is_number_float()) return false;
    const double d = v.get<double>();
    return std::isfinite(d) && std::floor(d) == d;
  }
  return type_of(v) == name;
}

// A value as it appears in a message, cut so that the message stays one readable line.
std::string brief(const Json& v) {
  std::string text = v.dump(-1, ' ', false, Json::error_handler_t::replace);
  constexpr std::size_t kMax = 60;
  if (text.size() > kMax) {
    text.resize(kMax);
    text += "...";
  }
  return text;
}

std::string join_values(const Json& values, std::string_view sep) {
  std::string out;
  for (const auto& v : values) {
    if (!out.empty()) out += sep;
    out += v.is_string() ? brief(v) : v.dump();
  }
  return out;
}

class SchemaValidator {
 public:
  explicit SchemaValidator(const Json& root) : root_(root) {}

  // Every keyword known, every type name valid, every $ref resolvable.
  Status check_schema(const Json& schema, const std::string& where) const;
  Outcome validate(const Json& schema, const Json& value, const std::string& pointer) const;

 private:
  const Json* resolve(const Json& ref) const;
  Status check_subschemas(const Json& schema, const std::string& where) const;
  Outcome check_type(const Json& schema, const Json& value, const std::string& pointer) const;
  Outcome check_values(const Json& schema, const Json& value, const std::string& pointer) const;
  Outcome check_object(const Json& schema, const Json& value, const std::string& pointer) const;
  Outcome check_items(const Json& schema, const Json& value, const std::string& pointer) const;
  Outcome check_conditional(const Json& schema, const Json& value, const std::string& pointer) const;

  const Json& root_;
};

const Json* SchemaValidator::resolve(const Json& ref) const {
  if (!ref.is_string()) return nullptr;
  const auto& text = ref.get_ref<const std::string&>();
  if (text.empty() || text.front() != '#') return nullptr;
  try {
    const Json::json_pointer pointer(text.substr(1));
    return root_.contains(pointer) ? &root_.at(pointer) : nullptr;
  } catch (const std::exception&) {
    return nullptr;
  }
}

Status SchemaValidator::check_schema(const Json& schema, const std::string& where) const {
  const auto bad = [&](const std::string& what) {
    return Status::error(ErrorCode::kInternal, "invalid schema at " + (where.empty() ? "(root)" : where) + ": " + what);
  };
  if (schema.is_boolean()) return ok_status();
  if (!schema.is_object()) return bad("a schema is an object or a boolean");
  for (const auto& [key, value] : schema.items()) {
    if (!contains(kKeywords, key) && !contains(kIgnored, key)) return bad("unsupported keyword \"" + key + "\"");
  }
  if (schema.contains("type")) {
    const Json& type = schema["type"];
    const Json names = type.is_array() ? type : Json::array({type});
    for (const auto& name : names) {
      if (!name.is_string() || !contains(kTypeNames, name.get<std::string>())) {
        return bad("unknown type " + brief(name));
      }
    }
  }
  if (schema.contains("$ref") && resolve(schema["$ref"]) == nullptr) {
    return bad("unresolvable $ref " + brief(schema["$ref"]));
  }
  if (schema.contains("required")) {
    const Json& required = schema["required"];
    const auto is_name = [](const Json& n) { return n.is_string(); };
    if (!required.is_array() || !std::all_of(required.begin(), required.end(), is_name)) {
      return bad("\"required\" is not an array of names");
    }
  }
  if (schema.contains("enum") && !schema["enum"].is_array()) return bad("\"enum\" is not an array");
  if (schema.contains("minimum") && !schema["minimum"].is_number()) return bad("\"minimum\" is not a number");
  return check_subschemas(schema, where);
}

Status SchemaValidator::check_subschemas(const Json& schema, const std::string& where) const {
  for (const char* map : {"properties", "$defs"}) {
    if (!schema.contains(map)) continue;
    if (!schema[map].is_object()) {
      return Status::error(ErrorCode::kInternal, "invalid schema at " + child(where, map) + ": not an object");
    }
    for (const auto& [key, sub] : schema[map].items()) {
      COLLBENCH_RETURN_IF_ERROR(check_schema(sub, child(child(where, map), key)));
    }
  }
  for (const char* single : {"items", "additionalProperties", "if", "then", "else"}) {
    if (schema.contains(single)) COLLBENCH_RETURN_IF_ERROR(check_schema(schema[single], child(where, single)));
  }
  return ok_status();
}

Outcome SchemaValidator::validate(const Json& schema, const Json& value, const std::string& pointer) const {
  if (schema.is_boolean()) {
    if (schema.get<bool>()) return std::nullopt;
    return Violation{pointer, "no value is allowed here"};
  }
  if (auto v = check_type(schema, value, pointer)) return v;
  if (auto v = check_values(schema, value, pointer)) return v;
  if (schema.contains("$ref")) {
    if (auto v = validate(*resolve(schema["$ref"]), value, pointer)) return v;
  }
  if (auto v = check_object(schema, value, pointer)) return v;
  if (auto v = check_items(schema, value, pointer)) return v;
  return check_conditional(schema, value, pointer);
}

Outcome SchemaValidator::check_type(const Json& schema, const Json& value, const std::string& pointer) const {
  if (!schema.contains("type")) return std::nullopt;
  const Json& type = schema["type"];
  const Json names = type.is_array() ? type : Json::array({type});
  std::string expected;
  for (const auto& name : names) {
    if (has_type(value, name.get<std::string>())) return std::nullopt;
    expected += (expected.empty() ? "" : " or ") + name.get<std::string>();
  }
  return Violation{pointer, "expected " + expected + ", got " + type_of(value)};
}

Outcome SchemaValidator::check_values(const Json& schema, const Json& value, const std::string& pointer) const {
  if (schema.contains("const") && value != schema["const"]) {
    return Violation{pointer, "expected " + brief(schema["const"]) + ", got " + brief(value)};
  }
  if (schema.contains("enum")) {
    const Json& allowed = schema["enum"];
    if (std::find(allowed.begin(), allowed.end(), value) == allowed.end()) {
      return Violation{pointer, brief(value) + " is not one of " + join_values(allowed, ", ")};
    }
  }
  if (schema.contains("minimum") && value.is_number() && value.get<double>() < schema["minimum"].get<double>()) {
    return Violation{pointer, brief(value) + " is less than the minimum " + schema["minimum"].dump()};
  }
  return std::nullopt;
}

Outcome SchemaValidator::check_object(const Json& schema, const Json& value, const std::string& pointer) const {
  if (!value.is_object()) return std::nullopt;
  if (schema.contains("required")) {
    for (const auto& name : schema["required"]) {
      if (!value.contains(name.get<std::string>())) {
        return Violation{pointer, "missing required property " + brief(name)};
      }
    }
  }
  const bool has_properties = schema.contains("properties");
  for (const auto& [key, member] : value.items()) {
    const std::string where = child(pointer, key);
    if (has_properties && schema["properties"].contains(key)) {
      if (auto v = validate(schema["properties"][key], member, where)) return v;
    } else if (schema.contains("additionalProperties")) {
      const Json& extra = schema["additionalProperties"];
      if (extra.is_boolean() && !extra.get<bool>()) return Violation{where, "unexpected property"};
      if (auto v = validate(extra, member, where)) return v;
    }
  }
  return std::nullopt;
}

Outcome SchemaValidator::check_items(const Json& schema, const Json& value, const std::string& pointer) const {
  if (!value.is_array() || !schema.contains("items")) return std::nullopt;
  for (std::size_t i = 0; i < value.size(); ++i) {
    if (auto v = validate(schema["items"], value[i], child(pointer, i))) return v;
  }
  return std::nullopt;
}

Outcome SchemaValidator::check_conditional(const Json& schema, const Json& value, const std::string& pointer) const {
  if (!schema.contains("if")) return std::nullopt;
  const bool matched = !validate(schema["if"], value, pointer).has_value();
  const char* branch = matched ? "then" : "else";
  if (!schema.contains(branch)) return std::nullopt;
  return validate(schema[branch], value, pointer);
}

Status usage_error(const Violation& v) {
  return Status::error(ErrorCode::kUsage, (v.pointer.empty() ? "(root)" : v.pointer) + ": " + v.message);
}

Status validate_value(const Json& schema, const Json& document) {
  const SchemaValidator validator(schema);
  COLLBENCH_RETURN_IF_ERROR(validator.check_schema(schema, ""));
  try {
    if (auto v = validator.validate(schema, document, "")) return usage_error(*v);
  } catch (const std::exception& e) {  // a schema shape that check_schema does not foresee
    return Status::error(ErrorCode::kInternal, std::string("schema validation failed: ") + e.what());
  }
  return ok_status();
}

// Before the full check: is this a collbench document at all, and of a version this build
// reads? `expected` is null when any known kind is acceptable.
Result<const DocumentKind*> check_identity(const Json& document, const DocumentKind* expected) {
  const std::string what = expected != nullptr ? "a " + std::string(expected->title) + " document"
                                               : "a collbench document";
  if (!document.is_object()) return usage_error({"", "expected an object (" + what + "), got " + type_of(document)});
  const auto schema = document.find("schema");
  if (schema == document.end()) return usage_error({"", "not " + what + " (no \"schema\" property)"});
  const DocumentKind* kind = nullptr;
  for (const auto& k : document_kinds()) {
    if (*schema == k.name) kind = &k;
  }
  if (kind == nullptr || (expected != nullptr && kind != expected)) {
    const std::string wanted = expected != nullptr ? "\"" + std::string(expected->name) + "\"" : "a known schema";
    return usage_error({"/schema", "not " + what + " (expected " + wanted + ", got " + brief(*schema) + ")"});
  }
  const auto version = document.find("schema_version");
  if (version == document.end()) return usage_error({"", "missing required property \"schema_version\""});
  if (!version->is_number_integer()) {
    return usage_error({"/schema_version", "expected integer, got " + type_of(*version)});
  }
  if (*version != kind->version) {
    return usage_error({"/schema_version", "unsupported schema version " + version->dump() +
                                               " (this build reads version " + std::to_string(kind->version) + ")"});
  }
  return kind;
}

Status validate_kind(const Json& document, const DocumentKind* expected) {
  COLLBENCH_ASSIGN_OR_RETURN(const DocumentKind* kind, check_identity(document, expected));
  COLLBENCH_ASSIGN_OR_RETURN(const Json schema, parse_json_text(kind->schema_text));
  return validate_value(schema, document);
}

// nlohmann's what() starts with "[json.exception.parse_error.101] ", which means nothing to a user.
std::string without_exception_id(const std::exception& e) {
  std::string what = e.what();
  const auto bracket = what.find("] ");
  if (bracket != std::string::npos) what.erase(0, bracket + 2);
  return what;
}

}  // namespace

Result<Json> parse_json_text(std::string_view text) {
  try {
    return Json::parse(text.begin(), text.end());
  } catch (const Json::parse_error& e) {
    return Status::error(ErrorCode::kUsage, "not JSON: " + without_exception_id(e));
  } catch (const Json::out_of_range& e) {
    // Valid JSON that no double holds ("1e400") is out_of_range for nlohmann, not a parse error.
    return Status::error(ErrorCode::kUsage, "unreadable JSON: " + without_exception_id(e));
  }
}

std::span<const DocumentKind> document_kinds() {
  static constexpr DocumentKind kKinds[] = {
      {kRunSchemaName, kRunSchemaVersion, kRunSchemaJson, "collbench run"},
      {kPreflightSchemaName, kPreflightSchemaVersion, kPreflightSchemaJson, "collbench preflight"},
      {kLocateSchemaName, kLocateSchemaVersion, kLocateSchemaJson, "collbench locate"},
      {kHealthSchemaName, kHealthSchemaVersion, kHealthSchemaJson, "collbench health"},
  };
  return kKinds;
}

Status validate_run_value(const Json& document) { return validate_kind(document, document_kinds().data()); }

std::string_view run_schema_text() { return kRunSchemaJson; }

Status validate_json(std::string_view schema_text, std::string_view document_text) {
  auto schema = parse_json_text(schema_text);
  if (!schema.ok()) return Status::error(ErrorCode::kInternal, "the schema is " + schema.status().message());
  COLLBENCH_ASSIGN_OR_RETURN(const Json document, parse_json_text(document_text));
  return validate_value(*schema, document);
}

Status validate_run_json(std::string_view text) {
  COLLBENCH_ASSIGN_OR_RETURN(const Json document, parse_json_text(text));
  return validate_run_value(document);
}

Result<std::string> validate_document_json(std::string_view text) {
  COLLBENCH_ASSIGN_OR_RETURN(const Json document, parse_json_text(text));
  COLLBENCH_ASSIGN_OR_RETURN(const DocumentKind* kind, check_identity(document, nullptr));
  COLLBENCH_RETURN_IF_ERROR(validate_kind(document, kind));
  return std::string(kind->title);
}

}  // namespace collbench::report
