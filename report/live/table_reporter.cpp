#include "report/live/table_reporter.hpp"

#include <algorithm>
#include <string_view>

#include "common/strings.hpp"
#include "common/text_table.hpp"
#include "report/format/number_format.hpp"
#include "report/render/rank_line.hpp"
#include "report/format/size_label.hpp"

namespace collbench::report {
namespace {

// Widths of nccl-tests' columns (src/common.cu): five leading columns, then four per placement.
constexpr int kSizeWidth = 12;  // the header's "# " plus 10
constexpr int kCountWidth = 12;
constexpr int kTypeWidth = 8;
constexpr int kOpWidth = 6;
constexpr int kRootWidth = 6;
constexpr int kTimeWidth = 7;
constexpr int kBwWidth = 6;
constexpr int kWrongWidth = 6;
constexpr int kIterWidth = 7;          // -I 1: i_min, i_max, i_p99, i_cv%
constexpr int kStampHeaderWidth = 19;  // -S 1: " %19s" in the header...
constexpr int kStampWidth = 21;        // ...and "%21s" in the rows (src/util.cu)

// Both header groups in one piece: nccl-tests centres the titles unevenly and parsers match
// the exact text.
constexpr std::string_view kGroupTitles = "           out-of-place                       in-place          ";
constexpr std::string_view kPerIterationTitles =
    "              out-of-place (+ per-iteration)                                in-place (+ per-iteration)";
constexpr std::string_view kStampLabel = "timestamp";
constexpr std::string_view kStampFormat = "%Y-%m-%d %H:%M:%S";

std::string after_size(std::string_view count, std::string_view type, std::string_view op, std::string_view root) {
  return "  " + pad(count, kCountWidth, Align::kRight) + "  " + pad(type, kTypeWidth, Align::kRight) + "  " +
         pad(op, kOpWidth, Align::kRight) + "  " + pad(root, kRootWidth, Align::kRight);
}

std::string leading_columns(std::string_view size, std::string_view count, std::string_view type, std::string_view op,
                            std::string_view root) {
  return pad(size, kSizeWidth, Align::kRight) + after_size(count, type, op, root);
}

// Header lines start with "# ", which takes two columns of the size field.
std::string header_leading(std::string_view size, std::string_view count, std::string_view type, std::string_view op,
                           std::string_view root) {
  return "# " + pad(size, kSizeWidth - 2, Align::kRight) + after_size(count, type, op, root);
}

std::string group_columns(std::string_view time, std::string_view algbw, std::string_view busbw,
                          std::string_view wrong) {
  return "  " + pad(time, kTimeWidth, Align::kRight) + "  " + pad(algbw, kBwWidth, Align::kRight) + "  " +
         pad(busbw, kBwWidth, Align::kRight) + "  " + pad(wrong, kWrongWidth, Align::kRight);
}

std::string iteration_columns(std::string_view min, std::string_view max, std::string_view p99, std::string_view cv) {
  return "  " + pad(min, kIterWidth, Align::kRight) + "  " + pad(max, kIterWidth, Align::kRight) + "  " +
         pad(p99, kIterWidth, Align::kRight) + "  " + pad(cv, kIterWidth, Align::kRight);
}

std::string measurement_columns(const Measurement* m, const TableLayout& layout) {
  if (m == nullptr) {
    return group_columns("N/A", "N/A", "N/A", "N/A") +
           (layout.per_iteration ? iteration_columns("N/A", "N/A", "N/A", "N/A") : "");
  }
  std::string out = group_columns(fit_number(m->time_us, kTimeWidth), fit_number(m->algbw_gbps, kBwWidth),
                                  fit_number(m->busbw_gbps, kBwWidth), m->checked ? format_uint(m->wrong) : "N/A");
  if (layout.per_iteration) {
    const TimeStats& s = m->per_iteration;
    out += iteration_columns(fit_number(s.min_us, kIterWidth), fit_number(s.max_us, kIterWidth),
                             fit_number(s.p99_us, kIterWidth), fit_number(100 * s.cv, kIterWidth));
  }
  return out;
}

// The header's last field: " " then the label right-aligned in 19 columns, or nothing.
std::string stamp_header(const TableLayout& layout, std::string_view text) {
  return " " + (layout.timestamps ? pad(text, kStampHeaderWidth, Align::kRight) : std::string());
}

const Measurement* find_placement(const SizeRecord& record, Placement placement) {
  for (const auto& m : record.placements) {
    if (m.placement == placement) return &m;
  }
  return nullptr;
}

// Keeps a line a line: reasons and errors come from libraries and may hold newlines.
std::string one_line(std::string_view text) {
  std::string out(text);
  std::replace_if(
      out.begin(), out.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
  return out;
}

std::string placement_words(std::string_view placement) {
  std::string out(placement);
  std::replace(out.begin(), out.end(), '_', '-');
  return out;
}

std::string parameter_line(const RunConfig& c) {
  const std::string step = c.step_factor > 0 ? format_uint(c.step_factor) + "(factor)"
                                             : format_uint(c.step_bytes) + "(bytes)";
  return "# nThread 1 nGpus " + format_int(c.gpus_per_process) + " minBytes " + format_uint(c.min_bytes) +
         " maxBytes " + format_uint(c.max_bytes) + " step: " + step +
         " warmup iters: " + format_uint(c.warmup_iterations) +
         " iters: " + (c.iterations == 0 ? std::string("auto") : format_uint(c.iterations)) +
         " agg iters: " + format_uint(c.aggregation) + " validation: " + format_uint(c.check_iterations) +
         " graph: " + format_uint(c.graph_launches);
}

// collbench's one line in nccl-tests' header: the peers differ in the buffer policy, and it
// moves the busbw of rows that fit a cache by several times (docs/performance.md).
std::string buffers_line(const BufferConfig& b) {
  switch (b.policy) {
    case BufferPolicy::kRotated: {
      const std::string exact = format_uint(b.bytes_per_buffer) + " B";
      const std::string human = size_text(b.bytes_per_buffer);
      return "#  Buffers: rotated over " + human + (human == exact ? "" : " (" + exact + ")") +
             " per buffer (new addresses each operation, caches colder: as nccl-tests and IMB -off_cache)";
    }
    case BufferPolicy::kFixed:
      return "#  Buffers: fixed (the same addresses each operation, caches warm: as OSU and IMB's default)";
  }
  return "";
}

std::string mismatch_line(const SizeRecord& record, const Measurement& m, const Mismatch& x) {
  return "#   " + record.collective + " " + record.dtype + " " + record.op + " " + format_uint(record.size_bytes) +
         " B " + placement_words(to_string(m.placement)) + ", rank " + format_int(x.rank) + " (" + x.host +
         "), index " + format_uint(x.index) + ": expected " + format_shortest(x.expected) + ", got " +
         format_shortest(x.got);
}

}  // namespace

TableLayout TableLayout::of(const RunConfig& config) {
  return {.per_iteration = config.per_iteration_timing, .timestamps = config.report_timestamps};
}

std::vector<std::string> table_column_header(const TableLayout& layout) {
  const std::string names = group_columns("time", "algbw", "busbw", "#wrong") +
                            (layout.per_iteration ? iteration_columns("i_min", "i_max", "i_p99", "i_cv%") : "");
  const std::string units = group_columns("(us)", "(GB/s)", "(GB/s)", "") +
                            (layout.per_iteration ? iteration_columns("(us)", "(us)", "(us)", "(%)") : "");
  return {
      header_leading("", "", "", "", "") + std::string(layout.per_iteration ? kPerIterationTitles : kGroupTitles),
      header_leading("size", "count", "type", "redop", "root") + names + names + stamp_header(layout, kStampLabel),
      header_leading("(B)", "(elements)", "", "", "") + units + units + stamp_header(layout, kStampFormat),
  };
}

std::string format_table_row(const SizeRecord& record, const TableLayout& layout) {
  std::string line = leading_columns(format_uint(record.size_bytes), format_uint(record.count), record.dtype, record.op,
                                     format_int(record.root));
  // A comment line, so that parsers of nccl-tests' table never meet a non-numeric row.
  if (record.skipped) return "#" + line.substr(1) + "  skipped: " + one_line(*record.skipped);
  line += measurement_columns(find_placement(record, Placement::kOutOfPlace), layout);
  line += measurement_columns(find_placement(record, Placement::kInPlace), layout);
  if (layout.timestamps) line += pad(record.finished_local, kStampWidth, Align::kRight);
  return line;
}

Status TableReporter::flush_checked(const char* what) {
  out_.flush();
  if (!out_) return Status::error(ErrorCode::kIo, std::string("could not write the result table (") + what + ")");
  return ok_status();
}

namespace {

// "10.21 GB/s at most (host memory copy bandwidth on vm); the peak is 30% of it"
std::string expected_line(const ExpectedBusbw& e, const RunSummary& summary) {
  if (e.gbps <= 0) return "unknown (" + e.bottleneck + ")";
  std::string line = format_fixed(e.gbps, 2) + " GB/s at most (" + e.bottleneck + ")";
  if (!summary.peak_placement.empty()) {
    const double percent = 100 * summary.peak_busbw_gbps / e.gbps;
    line += "; the peak is " + format_fixed(percent, 0) + "% of it";
    // busbw assumes a ring through the links; a cache, NVLS, SHARP or a tree moves less.
    if (percent > 100) line += " (above: the data fit a cache, or the library moved less than a ring)";
  }
  return line;
}

}  // namespace

std::string section_name(const std::string& collective, bool drop_in) {
  return drop_in ? collective + "_perf" : collective;
}

Status TableReporter::begin(const RunContext& context) {
  context_ = context;
  sections_ = context.config.collectives.size() > 1;
  layout_ = TableLayout::of(context.config);
  expected_ = context.expected_busbw;
  start_section(context.config.collectives.empty() ? std::string() : context.config.collectives.front());
  return flush_checked("header");
}

void TableReporter::start_section(const std::string& collective) {
  section_collective_ = collective;
  section_ = section_name(collective, context_.drop_in);
  section_rows_.clear();
  mismatch_lines_.clear();
  const std::string program = context_.drop_in ? " as " + section_ : std::string(" run");
  out_ << "# collbench " << context_.tool_version << " (" << context_.git_commit << ")" << program
       << " bootstrap=" << context_.bootstrap << " backend=" << context_.backend << " (" << context_.backend_library
       << ")\n"
       << "# Collective test starting: " << section_ << "\n"
       << parameter_line(context_.config) << "\n";
  if (context_.config.buffers) out_ << buffers_line(*context_.config.buffers) << "\n";
  out_ << "#\n# Using devices\n";
  for (const auto& rank : context_.ranks) out_ << format_rank_line(rank) << "\n";
  out_ << "#\n";
  for (const auto& line : table_column_header(layout_)) out_ << line << "\n";
}

void TableReporter::remember_mismatches(const SizeRecord& record) {
  for (const auto& m : record.placements) {
    for (const auto& x : m.mismatches) {
      if (mismatch_lines_.size() >= kMaxListedMismatches) return;
      mismatch_lines_.push_back(mismatch_line(record, m, x));
    }
  }
}

Status TableReporter::row(const SizeRecord& record) {
  if (sections_ && record.collective != section_collective_) {
    section_figures(summarize(section_rows_));
    conclude_section();
    start_section(record.collective);
  }
  if (sections_) {
    // Only the figures of the footer are needed: the samples and mismatches stay behind.
    SizeRecord kept = record;
    for (auto& m : kept.placements) {
      m.mismatches.clear();
      m.rank_iteration_us.clear();
    }
    section_rows_.push_back(std::move(kept));
  }
  out_ << format_table_row(record, layout_) << "\n";
  remember_mismatches(record);
  return flush_checked("row");
}

void TableReporter::section_figures(const RunSummary& figures) {
  out_ << "# Out of bounds values : " << format_uint(figures.out_of_bounds)
       << (figures.out_of_bounds == 0 ? " OK" : " FAILED") << "\n"
       << "# Avg bus bandwidth    : " << format_general(figures.avg_busbw_gbps) << " \n#\n";
  out_ << "# Peak bus bandwidth   : ";
  if (figures.peak_placement.empty()) {
    out_ << "N/A\n";
  } else {
    out_ << format_fixed(figures.peak_busbw_gbps, 2) << " GB/s at " << format_uint(figures.peak_size_bytes) << " B ("
         << placement_words(figures.peak_placement) << ")\n";
  }
  if (expected_) out_ << "# Expected busbw       : " << expected_line(*expected_, figures) << "\n";
  out_ << "# Wrong elements       : " << format_uint(figures.total_wrong) << "\n";
}

// Where an earlier section ends: the lines a finished nccl-tests binary prints last.
void TableReporter::conclude_section() {
  if (!mismatch_lines_.empty()) {
    out_ << "# First mismatches     :\n";
    for (const auto& line : mismatch_lines_) out_ << line << "\n";
  }
  out_ << "# Collective test concluded: " << section_ << "\n#\n\n";
}

Status TableReporter::end(const RunSummary& summary) {
  // One section: the run's own figures. Several: the last section's, then the run's verdicts.
  section_figures(sections_ ? summarize(section_rows_) : summary);
  out_ << "# Run status           : " << to_string(summary.status) << "\n";
  if (!mismatch_lines_.empty()) {
    out_ << "# First mismatches     :\n";
    for (const auto& line : mismatch_lines_) out_ << line << "\n";
  }
  if (summary.max_rss_bytes > 0)
    out_ << "# Peak memory per rank : " << format_uint(summary.max_rss_bytes >> 20) << " MiB\n";
  for (const auto& a : summary.anomalies) {
    const std::string where = a.placement == "both" ? "both placements" : placement_words(a.placement);
    out_ << (a.explained ? "# Note: " : "# Anomaly: ") << a.collective << " " << a.dtype << " " << where << ": "
         << one_line(a.message) << "\n";
  }
  for (const auto& e : summary.expectations) {
    out_ << "# Expect: " << (e.passed ? "PASS " : "FAIL ") << one_line(e.message) << "\n";
  }
  out_ << "# Collective test concluded: " << section_ << "\n#\n";
  // nccl-tests ends with the library's last error, or an empty line when there is none.
  out_ << (summary.error ? "# error: " + one_line(*summary.error) : std::string()) << "\n";
  return flush_checked("footer");
}

}  // namespace collbench::report
