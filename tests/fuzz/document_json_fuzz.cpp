// `collbench validate FILE`: any JSON against the schema its "schema" property names.
#include "report/documents/json_schema.hpp"
#include "tests/fuzz/fuzz_entries.hpp"

namespace collbench::fuzz {

void document_json(Bytes input) {
  const std::string_view text = as_text(input);
  auto kind = report::validate_document_json(text);
  const Status run = report::validate_run_json(text);
  // A valid run document is a valid collbench document of the run kind.
  if (run.ok()) COLLBENCH_FUZZ_REQUIRE(kind.ok() && *kind == "collbench run");
  // Errors about the document are usage errors; kInternal would blame the embedded schemas.
  if (!kind.ok()) COLLBENCH_FUZZ_REQUIRE(kind.status().code() == ErrorCode::kUsage);
}

}  // namespace collbench::fuzz

COLLBENCH_FUZZ_TARGET(document_json)
