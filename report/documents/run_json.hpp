// The versioned JSON run document (schema "collbench.run", documented in docs/json-schema.md
// and described by report/documents/schema/run.schema.json). Results are flattened to one record per
// size and placement; parsing regroups them into SizeRecords.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/status.hpp"
#include "report/record.hpp"

namespace collbench::report {

struct RunDocument {
  RunContext context;
  std::vector<SizeRecord> rows;
  RunSummary summary;
};

// Pretty-printed with a 2-space indent and a final newline. Non-finite floating-point values
// are written as the strings "nan", "inf" and "-inf"; invalid UTF-8 in strings is replaced.
std::string to_json_text(const RunDocument& document);

// Validates against the run schema first, so errors name the JSON pointer of the problem.
// Consecutive result records with the same (collective, dtype, op, root, size, count) form one
// row; to_json_text(parse_run_json(text)) == text for any text that to_json_text wrote.
Result<RunDocument> parse_run_json(std::string_view text);

}  // namespace collbench::report
