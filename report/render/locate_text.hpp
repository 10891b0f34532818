// The locate report for people: the ranks, each phase's figures, the comparisons with the
// rule's threshold, how the budget was spent, and the verdict in plain words.
#pragma once

#include <ostream>

#include "report/locate_record.hpp"

namespace collbench::report {

void write_locate_text(std::ostream& out, const LocateReport& report);

// "rank 2 on node7 (GPU2 0000:1b:00.0, NIC mlx5_1)": a finding's subject with what is known
// of its ranks.
std::string describe_finding(const LocateReport& report, const LocateFinding& finding);

}  // namespace collbench::report
