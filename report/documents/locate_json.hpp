// The locate report as a "collbench.locate" JSON document (report/documents/schema/locate.schema.json).
#pragma once

#include <string>

#include "report/locate_record.hpp"

namespace collbench::report {

std::string locate_json_text(const LocateReport& report);

}  // namespace collbench::report
