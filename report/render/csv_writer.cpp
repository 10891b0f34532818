#include "report/render/csv_writer.hpp"

#include "report/format/number_format.hpp"

namespace collbench::report {
namespace {

constexpr std::string_view kLineEnd = "\r\n";

std::string csv_line(const std::vector<std::string>& fields) {
  std::string line;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) line += ',';
    line += csv_field(fields[i]);
  }
  return line + std::string(kLineEnd);
}

std::vector<std::string> key_fields(const ReportRun& run, const SizeRecord& row) {
  return {run.label,
          row.collective,
          row.dtype,
          row.op,
          format_int(row.root),
          format_uint(row.size_bytes),
          format_uint(row.count)};
}

std::vector<std::string> measurement_fields(const Measurement& m) {
  const TimeStats& s = m.per_iteration;
  return {to_string(m.placement),
          format_uint(m.iterations),
          format_shortest(m.time_us),
          format_shortest(m.algbw_gbps),
          format_shortest(m.busbw_gbps),
          format_shortest(s.median_us),
          format_shortest(s.min_us),
          format_shortest(s.max_us),
          format_shortest(s.p95_us),
          format_shortest(s.p99_us),
          format_shortest(s.stdev_us),
          format_shortest(s.cv),
          m.checked ? "true" : "false",
          format_uint(m.wrong),
          format_int(m.slowest_rank),
          m.slowest_host,
          ""};
}

}  // namespace

const std::vector<std::string>& csv_columns() {
  static const std::vector<std::string> kColumns = {
      "run",        "collective", "dtype",      "op",         "root",      "size_bytes",   "count",        "placement",
      "iterations", "time_us",    "algbw_gbps", "busbw_gbps", "median_us", "min_us",       "max_us",       "p95_us",
      "p99_us",     "stdev_us",   "cv",         "checked",    "wrong",     "slowest_rank", "slowest_host", "skipped"};
  return kColumns;
}

std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string runs_csv(const std::vector<ReportRun>& runs) {
  std::string out = csv_line(csv_columns());
  for (const auto& run : runs) {
    for (const auto& row : run.document.rows) {
      std::vector<std::string> key = key_fields(run, row);
      if (row.skipped) {
        std::vector<std::string> fields = key;
        fields.resize(csv_columns().size() - 1);
        fields.push_back(*row.skipped);
        out += csv_line(fields);
        continue;
      }
      for (const auto& m : row.placements) {
        std::vector<std::string> fields = key;
        for (auto& f : measurement_fields(m)) fields.push_back(std::move(f));
        out += csv_line(fields);
      }
    }
  }
  return out;
}

}  // namespace collbench::report
