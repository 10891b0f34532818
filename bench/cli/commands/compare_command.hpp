// `collbench compare BASE.json NEW.json`: a verdict per point that CI can gate on (exit 10 when
// something regressed beyond noise), and `collbench compare --nodes A.json B.json ...`: nodes
// ranked by busbw, the ones well below the median flagged (exit 10 when any is).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "common/status.hpp"

namespace CLI {
class App;
}

namespace collbench::cli {

struct RawCompareFlags {
  std::vector<std::string> files;
  bool nodes = false;
  std::string min_size;
  std::string max_size;
  std::string threshold = "5%";
  std::string flag_below = "10%";
  std::string format = "text";
  std::string output;  // empty: stdout
};

void add_compare_flags(CLI::App& app, RawCompareFlags& raw);

// Prints (or writes to -o) the comparison; kRegression when something regressed or a node is
// flagged, kUsage for bad flags or input files.
Status compare_command(const RawCompareFlags& raw, std::ostream& out);

}  // namespace collbench::cli
