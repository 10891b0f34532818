// The charts of a report: for each (collective, dtype, op, root) that the runs measured, busbw
// and time over size, one colour per run and a line style per placement.
#pragma once

#include <vector>

#include "report/documents/report_input.hpp"
#include "report/analysis/series.hpp"
#include "report/render/svg_chart.hpp"

namespace collbench::report {

enum class ChartMetric { kBusbw, kTime };

// busbw on a linear axis (the plateau and a few percent of difference stay visible); time on
// a log10 axis (it spans microseconds to seconds).
struct GroupCharts {
  GroupKey group;
  ChartSpec busbw;
  ChartSpec time;
};

// In order of first appearance over the runs. Series labels are "<run label> out-of-place" (the
// run label alone when runs have one placement).
std::vector<GroupCharts> run_charts(const std::vector<ReportRun>& runs);

}  // namespace collbench::report
