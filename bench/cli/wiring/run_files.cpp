#include "bench/cli/wiring/run_files.hpp"

#include <algorithm>
#include <filesystem>

#include "bench/cli/wiring/topology_view.hpp"
#include "common/file_io.hpp"
#include "common/units.hpp"

namespace collbench::cli {
namespace {

Status has_measurements(const report::RunDocument& document) {
  if (document.rows.empty()) return Status::error(ErrorCode::kUsage, "the run has no results (an empty run)");
  for (const auto& row : document.rows) {
    if (!row.placements.empty()) return ok_status();
  }
  return Status::error(ErrorCode::kUsage, "the run has no measured result (every size was skipped)");
}

Result<report::RunDocument> load_run(const std::string& file) {
  COLLBENCH_ASSIGN_OR_RETURN(const std::string text, read_text_file(file));
  auto document = report::parse_run_json(text);
  if (!document.ok()) return Status::error(document.status().code(), file + ": " + document.status().message());
  const Status usable = has_measurements(*document);
  if (!usable.ok()) return Status::error(usable.code(), file + ": " + usable.message());
  return std::move(document).value();
}

std::string stem_label(const std::string& file) {
  const std::filesystem::path p(file);
  return p.extension() == ".json" ? p.stem().string() : p.filename().string();
}

// File names first; the paths as given where names collide; then a number.
void make_unique(std::vector<report::ReportRun>& runs, const std::vector<std::string>& files) {
  const auto count = [&](const std::string& label) {
    std::size_t n = 0;
    for (const auto& r : runs) n += r.label == label ? 1U : 0U;
    return n;
  };
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (count(runs[i].label) > 1) runs[i].label = files[i];
  }
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (count(runs[i].label) > 1) runs[i].label += " #" + std::to_string(i + 1);
  }
}

}  // namespace

Result<std::vector<report::ReportRun>> load_runs(const std::vector<std::string>& files) {
  std::vector<report::ReportRun> runs;
  for (const auto& file : files) {
    COLLBENCH_ASSIGN_OR_RETURN(report::RunDocument document, load_run(file));
    std::vector<report::TopologyMatrix> topology = topology_views(document.context);
    runs.push_back({stem_label(file), std::move(document), std::move(topology)});
  }
  make_unique(runs, files);
  return runs;
}

Result<double> parse_fraction(const std::string& flag, const std::string& text) {
  const bool percent = !text.empty() && text.back() == '%';
  auto value = parse_double(percent ? text.substr(0, text.size() - 1) : text);
  if (!value.ok()) return Status::error(ErrorCode::kUsage, flag + ": '" + text + "' is not a number or a percentage");
  const double fraction = percent ? *value / 100 : *value;
  if (fraction < 0 || fraction >= 1) {
    return Status::error(ErrorCode::kUsage, flag + ": '" + text + "' must be a percentage below 100% (5%) or a " +
                                                "fraction below 1 (0.05)");
  }
  return fraction;
}

Status check_not_an_input(const std::string& flag, const std::string& output, const std::vector<std::string>& inputs) {
  std::error_code ec;
  const bool is_input = std::any_of(inputs.begin(), inputs.end(), [&](const std::string& input) {
    return output == input || std::filesystem::equivalent(output, input, ec);
  });
  if (is_input) return Status::error(ErrorCode::kUsage, flag + " " + output + " is one of the input files");
  return ok_status();
}

}  // namespace collbench::cli
