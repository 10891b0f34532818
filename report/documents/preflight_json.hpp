// The preflight report as a "collbench.preflight" JSON document (report/documents/schema/preflight.schema.json).
#pragma once

#include <string>

#include "report/preflight_record.hpp"

namespace collbench::report {

std::string preflight_json_text(const PreflightReport& report);

}  // namespace collbench::report
