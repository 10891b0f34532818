// The health report for people: one verdict line per host (and one for the job when a finding
// concerns the whole job), each finding on a line of its own, then what was not checked.
#pragma once

#include <ostream>

#include "report/health_record.hpp"

namespace collbench::report {

void write_health_text(std::ostream& out, const HealthReport& report);

}  // namespace collbench::report
