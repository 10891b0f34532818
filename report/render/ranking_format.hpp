// A node ranking (analysis/node_ranking.hpp) as text, Markdown or JSON.
#pragma once

#include <string>

#include "report/analysis/node_ranking.hpp"
#include "report/format/text_format.hpp"

namespace collbench::report {

std::string format_ranking(const Ranking& ranking, TextFormat format);

}  // namespace collbench::report
