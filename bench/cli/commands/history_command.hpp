// `collbench history PATH...`: many runs of one or more systems as series over time, change
// points (E-Divisive means), context changes, and a CI verdict on the newest run (exit 10 when a
// series' newest run fell below its baseline beyond noise). docs/history.md.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "common/status.hpp"

namespace CLI {
class App;
}

namespace collbench::cli {

struct RawHistoryFlags {
  std::vector<std::string> paths;  // files, folders, glob patterns
  std::string json;                // empty: none
  std::string csv;
  std::string html;
};

void add_history_flags(CLI::App& app, RawHistoryFlags& raw);

// Prints the text table to `out` and writes the requested files (atomically). kRegression when
// a series regressed; kUsage for bad inputs (nothing is written then); kIo when a file cannot
// be written.
Status history_command(const RawHistoryFlags& raw, const std::string& generator, std::ostream& out);

}  // namespace collbench::cli
