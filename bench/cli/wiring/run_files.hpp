// Run files as the report commands (compare, report) read them: whole, validated, with errors
// that name the file, and with short labels for tables and legends.
#pragma once

#include <string>
#include <vector>

#include "common/status.hpp"
#include "report/documents/report_input.hpp"

namespace collbench::cli {

// Each file read and parsed. A missing, truncated or foreign file, another schema version, or a
// run without a measured result is a usage error "FILE: what is wrong". Labels are the file
// names without ".json", made unique; the topology the files carry becomes matrix views.
Result<std::vector<report::ReportRun>> load_runs(const std::vector<std::string>& files);

// "5%" or "0.05" -> 0.05; in [0, 1). `flag` names the option in errors.
Result<double> parse_fraction(const std::string& flag, const std::string& text);

// A usage error when `output` is one of `inputs` (a report must never overwrite a run file).
Status check_not_an_input(const std::string& flag, const std::string& output, const std::vector<std::string>& inputs);

}  // namespace collbench::cli
