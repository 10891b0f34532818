// `collbench report RUN.json... -o report.html`: a self-contained HTML page; --svg one chart,
// --csv the rows, --format gbench Google Benchmark's JSON. Without an output, the summary
// figures (and, for several runs, the node ranking) are printed as text.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "common/status.hpp"

namespace CLI {
class App;
}

namespace collbench::cli {

struct RawReportFlags {
  std::vector<std::string> files;
  std::string output;
  std::string format = "html";
  std::string svg;
  std::string chart = "busbw";
  std::string csv;
  std::string title = "collbench report";
  std::string flag_below = "10%";
};

void add_report_flags(CLI::App& app, RawReportFlags& raw);

Status report_command(const RawReportFlags& raw, const std::string& generator, std::ostream& out);

}  // namespace collbench::cli
