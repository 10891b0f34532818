// A Comparison as text for people (aligned columns), Markdown (CI comments) or JSON (scripts).
#pragma once

#include <string>

#include "report/analysis/compare.hpp"
#include "report/format/text_format.hpp"

namespace collbench::report {

std::string format_comparison(const Comparison& comparison, TextFormat format);

// The noise rule in one sentence, with the threshold filled in (also printed by compare).
std::string noise_rule_text(double threshold);

// "5%", "2.5%".
std::string percent_text(double fraction);

}  // namespace collbench::report
