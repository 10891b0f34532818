#include "bench/cli/commands/history_command.hpp"

#include <CLI/CLI.hpp>

#include <ostream>
#include <utility>

#include "bench/cli/wiring/run_files.hpp"
#include "report/analysis/history.hpp"
#include "report/documents/atomic_file.hpp"
#include "report/documents/input_files.hpp"
#include "report/documents/run_digest.hpp"
#include "report/render/history_html.hpp"
#include "report/render/history_json.hpp"
#include "report/render/history_text.hpp"

namespace collbench::cli {
namespace {

struct Outputs {
  const char* flag;
  const std::string& path;
};

// Outputs may not overwrite an input or each other.
Status check_outputs(const RawHistoryFlags& raw, const std::vector<std::string>& files) {
  const Outputs outputs[] = {{"--json", raw.json}, {"--csv", raw.csv}, {"--html", raw.html}};
  for (std::size_t i = 0; i < std::size(outputs); ++i) {
    if (outputs[i].path.empty()) continue;
    COLLBENCH_RETURN_IF_ERROR(check_not_an_input(outputs[i].flag, outputs[i].path, files));
    for (std::size_t k = 0; k < i; ++k) {
      if (outputs[k].path == outputs[i].path) {
        return Status::error(ErrorCode::kUsage, std::string(outputs[k].flag) + " and " + outputs[i].flag +
                                                    " name the same file " + outputs[i].path);
      }
    }
  }
  return ok_status();
}

struct Loaded {
  std::vector<report::RunDigest> runs;
  report::HistoryInputCounts counts;
};

// Every file read; the first bad one (in input order) is the error.
Result<Loaded> load(const std::vector<std::string>& files) {
  Loaded loaded;
  loaded.counts.files = files.size();
  for (auto& read : report::read_run_digests(files)) {
    if (!read.ok()) return read.status();
    if (read->run) {
      loaded.runs.push_back(std::move(*read->run));
    } else {
      ++loaded.counts.skipped;
    }
  }
  if (loaded.runs.empty()) {
    return Status::error(ErrorCode::kUsage, "none of the " + std::to_string(files.size()) +
                                                " files is a collbench run document (written by collbench run -J)");
  }
  return loaded;
}

Status write_outputs(const RawHistoryFlags& raw, const report::History& h, const report::HistoryInputCounts& counts,
                     const report::HistoryOptions& options, const std::string& generator) {
  if (!raw.json.empty()) {
    COLLBENCH_RETURN_IF_ERROR(report::write_file_atomically(raw.json, report::history_json(h, counts, options)));
  }
  if (!raw.csv.empty()) COLLBENCH_RETURN_IF_ERROR(report::write_file_atomically(raw.csv, report::history_csv(h)));
  if (!raw.html.empty()) {
    COLLBENCH_RETURN_IF_ERROR(report::write_file_atomically(raw.html, report::history_html(h, counts, generator)));
  }
  return ok_status();
}

}  // namespace

void add_history_flags(CLI::App& app, RawHistoryFlags& raw) {
  app.add_option("path", raw.paths,
                 "Run files written by collbench run -J, folders (every *.json below them) or quoted glob "
                 "patterns; other JSON documents are skipped and counted")
      ->required();
  app.add_option("--json", raw.json, "Write the history as JSON (schema collbench.history) to this file");
  app.add_option("--csv", raw.csv, "Write one CSV row per point of every series to this file");
  app.add_option("--html,-o", raw.html, "Write a self-contained HTML page with one chart per series to this file");
}

Status history_command(const RawHistoryFlags& raw, const std::string& generator, std::ostream& out) {
  COLLBENCH_ASSIGN_OR_RETURN(const std::vector<std::string> files, report::expand_inputs(raw.paths));
  COLLBENCH_RETURN_IF_ERROR(check_outputs(raw, files));
  COLLBENCH_ASSIGN_OR_RETURN(Loaded loaded, load(files));
  const report::HistoryOptions options;
  const report::History h = report::build_history(std::move(loaded.runs), options);
  out << report::format_history_text(h, loaded.counts, options) << std::flush;
  if (!out) return Status::error(ErrorCode::kIo, "could not write to standard output");
  COLLBENCH_RETURN_IF_ERROR(write_outputs(raw, h, loaded.counts, options, generator));
  if (h.regressed_count() == 0) return ok_status();
  return Status::error(ErrorCode::kRegression, report::regression_summary(h));
}

}  // namespace collbench::cli
