// The health report as a "collbench.health" JSON document (report/documents/schema/health.schema.json).
#pragma once

#include <string>

#include "report/health_record.hpp"

namespace collbench::report {

std::string health_json_text(const HealthReport& report);

}  // namespace collbench::report
