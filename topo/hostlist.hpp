// Slurm's hostlist expressions, as topology.conf, SLURM_JOB_NODELIST and `scontrol show
// hostnames` write them: "node[01-16,20],login1", "rack[1-2]-gpu[1-4]" (one name per
// combination, the leftmost bracket slowest). Zero padding is kept: the width of a range is
// the width of its first bound ("[08-10]" gives 08 09 10).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.hpp"

namespace collbench::topo {

// The most names one expression may expand to: bounds the memory a malformed input can claim.
inline constexpr std::size_t kMaxHostlistNames = std::size_t{1} << 20;

// Items are separated by commas outside brackets and by white space; empty text gives no
// names. Unbalanced or empty brackets, a descending range or a non-digit bound is an error
// (kUsage) that quotes the expression.
Result<std::vector<std::string>> expand_hostlist(std::string_view text, std::size_t max_names = kMaxHostlistNames);

}  // namespace collbench::topo
