// `collbench history --html`: one self-contained page (no script, no external resource) with a
// small line chart per series, grouped by collective: busbw per run in time order, each
// segment's median, change points (red dashed line, labelled with the change) and context
// changes (grey dotted line with a diamond, labelled with what changed).
#pragma once

#include <string>

#include "report/analysis/history.hpp"
#include "report/render/history_text.hpp"

namespace collbench::report {

// The page is well-formed XML after its "<!DOCTYPE html>" line.
std::string history_html(const History& history, const HistoryInputCounts& counts, const std::string& generator);

}  // namespace collbench::report
