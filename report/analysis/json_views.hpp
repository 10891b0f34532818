// JSON for the values that several report outputs share (compare, ranking). Internal to
// report/, like json_internal.hpp.
#pragma once

#include "report/documents/json_internal.hpp"
#include "report/analysis/series.hpp"
#include "report/analysis/summary_figures.hpp"

namespace collbench::report {

// {"collective", "dtype", "op", "root"}
Json group_json(const GroupKey& key);
// group_json plus "placement".
Json series_key_json(const SeriesKey& key);
Json figures_json(const SeriesFigures& figures);

}  // namespace collbench::report
