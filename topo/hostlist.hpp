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

// What expansions may still produce: bounds the memory a malformed input can claim, both by
// count ("n[0-99999999]") and by bytes (a long prefix times a range). Callers that expand
// several expressions (a topology file) pass one budget to them all.
inline constexpr std::size_t kMaxHostlistNames = std::size_t{1} << 20;
inline constexpr std::size_t kMaxHostlistBytes = std::size_t{64} << 20;
struct HostlistBudget {
  std::size_t names = kMaxHostlistNames;
  std::size_t bytes = kMaxHostlistBytes;  // the names' characters together
};

// Items are separated by commas outside brackets and by white space; empty text gives no
// names. Unbalanced or empty brackets, a descending range or a non-digit bound is an error
// (kUsage) that quotes the expression, as is an expansion past `left`; what is expanded is
// taken from `left`.
Result<std::vector<std::string>> expand_hostlist_within(std::string_view text, HostlistBudget& left);
Result<std::vector<std::string>> expand_hostlist(std::string_view text, HostlistBudget limits = {});

}  // namespace collbench::topo
