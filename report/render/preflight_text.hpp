// The preflight report for people: one line per rank, the problems, the verdict.
#pragma once

#include <ostream>

#include "report/preflight_record.hpp"

namespace collbench::report {

void write_preflight_text(std::ostream& out, const PreflightReport& report);

}  // namespace collbench::report
