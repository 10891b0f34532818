// Validation of JSON text against a JSON Schema (draft 2020-12), for the subset that
// report/documents/schema/run.schema.json uses:
//   type (a name or an array of names), const, enum, minimum, required, properties,
//   additionalProperties (false or a schema), items (one schema), $ref ("#/..." pointers into
//   the same schema), if/then/else; annotations ($schema, $id, $comment, title, description,
//   default, examples, $defs) are accepted and ignored.
// A schema that uses any other keyword is rejected rather than half-checked. A $ref that leads
// back to itself without descending into the document is not detected (the run schema has none).
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "common/status.hpp"

namespace collbench::report {

// The documents collbench writes, each with its schema embedded at build time.
struct DocumentKind {
  std::string_view name;         // the "schema" property, e.g. "collbench.run"
  int version;                   // the "schema_version" this build reads and writes
  std::string_view schema_text;  // report/documents/schema/<kind>.schema.json
  std::string_view title;        // "collbench run"
};
std::span<const DocumentKind> document_kinds();

// OK, or a one-line error naming the JSON pointer of the first violation, e.g.
// "/results/3/busbw_gbps: expected number or string, got boolean". ErrorCode::kUsage for a bad
// document, kInternal for a bad schema.
Status validate_json(std::string_view schema_text, std::string_view document_text);

// validate_json against the run schema embedded at build time, after two friendlier checks:
// "schema" must be "collbench.run" and "schema_version" one this build reads.
Status validate_run_json(std::string_view text);

// Any collbench document, its kind chosen by its "schema" property; returns the kind's title.
Result<std::string> validate_document_json(std::string_view text);

// The text of report/documents/schema/run.schema.json, as it was when the library was built.
std::string_view run_schema_text();

}  // namespace collbench::report
