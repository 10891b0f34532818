// Results as CSV (RFC 4180): a header line, then one line per size and placement of each
// run (a skipped size is one line with an empty placement and the reason), CRLF line ends,
// fields quoted when they hold a comma, a double quote, CR or LF.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "report/documents/report_input.hpp"

namespace collbench::report {

// The header's column names, in order.
const std::vector<std::string>& csv_columns();

std::string runs_csv(const std::vector<ReportRun>& runs);

// One field, quoted (with inner quotes doubled) only when it needs to be.
std::string csv_field(std::string_view text);

}  // namespace collbench::report
