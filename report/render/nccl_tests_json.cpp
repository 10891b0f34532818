#include "report/render/nccl_tests_json.hpp"

#include <cmath>
#include <cstdio>
#include <span>

#include "report/analysis/process_iterations.hpp"
#include "report/render/rank_line.hpp"

namespace collbench::report {
namespace {

// upstream's sanitizeJson: escapes '"', '\\', '/', tab and newline, stops at any other byte
// outside printable ASCII, and keeps at most 2047 bytes.
std::string sanitized(const std::string& in) {
  constexpr std::size_t kLimit = 2048;
  std::string out;
  for (const char ch : in) {
    const auto c = static_cast<unsigned char>(ch);
    const bool escaped = c == '"' || c == '\\' || c == '/' || c == '\t' || c == '\n';
    if (out.size() + 1 >= kLimit || (escaped && out.size() + 2 > kLimit)) break;
    if (escaped) {
      out += '\\';
      out += c == '\n' ? 'n' : c == '\t' ? 't' : ch;
      continue;
    }
    if (c >= 0x7F || c <= 0x1F) break;
    out += ch;
  }
  return out;
}

// The writer's states, as upstream's: a value after a value in a list or object takes a comma.
class Writer {
 public:
  std::string text;

  void key(const std::string& name) {
    comma();
    text += "\"" + sanitized(name) + "\":";
    after_key_ = true;
  }
  void start_object() {
    value("{");
    first_ = true;
  }
  void finish_object() {
    text += "}";
    first_ = false;
  }
  void start_list() {
    value("[");
    first_ = true;
  }
  void finish_list() {
    text += "]";
    first_ = false;
  }
  void null() { value("null"); }
  void str(const std::string& s) { value("\"" + sanitized(s) + "\""); }
  void boolean(bool b) { str(b ? "true" : "false"); }
  void integer(long long v) { value(std::to_string(v)); }
  void size(std::uint64_t v) { value(std::to_string(v)); }
  void real(double v) {
    if (std::isnan(v)) return value("\"nan\"");
    if (std::isinf(v)) return value(v > 0 ? "\"inf\"" : "\"-inf\"");
    char buffer[512];
    std::snprintf(buffer, sizeof buffer, "%f", v);
    value(buffer);
  }

 private:
  void comma() {
    if (!first_) text += ",";
    first_ = false;
  }
  void value(const std::string& v) {
    if (after_key_) {
      after_key_ = false;
    } else {
      comma();
    }
    text += v;
    first_ = false;
  }
  bool first_ = true;
  bool after_key_ = false;
};

// "2026-12-05T06:45:07.123Z" -> "2026-12-05 06:45:07"; anything else as it is.
std::string upstream_time(const std::string& iso) {
  if (iso.size() < 19 || iso[10] != 'T') return iso;
  std::string out = iso.substr(0, 19);
  out[10] = ' ';
  return out;
}

void write_devices(Writer& w, const RunContext& context) {
  w.key("devices");
  w.start_list();
  // One entry per process, its first rank: upstream parses each process's first device line.
  for (const std::size_t r : first_rank_of_each_process(context.ranks)) {
    const RankInfo& rank = context.ranks[r];
    w.start_object();
    w.key("rank");
    w.integer(rank.rank);
    w.key("group");
    w.integer(0);
    w.key("pid");
    w.integer(rank.pid);
    w.key("hostname");
    w.str(rank.host);
    w.key("device");
    w.integer(device_index(rank.device));
    w.key("device_hex");
    w.str(bus_field(rank));
    w.key("device_info");
    w.str(rank.device_name);
    w.finish_object();
  }
  w.finish_list();
}

void write_config(Writer& w, const RunContext& context) {
  const RunConfig& c = context.config;
  w.key("config");
  w.start_object();
  w.key("nthreads");
  w.integer(1);
  w.key("ngpus");
  w.integer(c.gpus_per_process);
  w.key("minimum_bytes");
  w.size(c.min_bytes);
  w.key("maximum_bytes");
  w.size(c.max_bytes);
  if (c.step_factor > 1) {
    w.key("step_factor");
    w.size(c.step_factor);
  } else {
    w.key("step_bytes");
    w.size(c.step_bytes);
  }
  w.key("warmup_iters");
  w.size(c.warmup_iterations);
  w.key("iterations");
  w.size(c.iterations);
  w.key("aggregated_iterations");
  w.size(c.aggregation);
  w.key("validation");
  w.size(c.check_iterations);
  w.key("graph");
  w.size(c.graph_launches);
  w.key("blocking_collectives");
  w.boolean(c.blocking != 0);
  w.key("per_iter_timing");
  w.boolean(c.per_iteration_timing);
  w.key("per_iter_skip");
  w.size(c.per_iter_skip);
  w.key("parallel_init");
  w.boolean(false);
  write_devices(w, context);
  w.finish_object();
}

void write_placement(Writer& w, const Measurement* m, Placement placement) {
  w.key(to_string(placement));
  if (m == nullptr) return w.null();
  w.start_object();
  w.key("time");
  w.real(m->time_us);
  w.key("alg_bw");
  w.real(m->algbw_gbps);
  w.key("bus_bw");
  w.real(m->busbw_gbps);
  w.key("nwrong");
  if (m->checked) {
    w.real(static_cast<double>(m->wrong));
  } else {
    w.null();
  }
  w.finish_object();
}

void write_stats(Writer& w, const NcclTestsIterStats& s) {
  const std::pair<const char*, double> figures[] = {{"min_us", s.min_us},     {"max_us", s.max_us},
                                                    {"avg_us", s.avg_us},     {"p50_us", s.p50_us},
                                                    {"p95_us", s.p95_us},     {"p99_us", s.p99_us},
                                                    {"stdev_us", s.stdev_us}, {"cv_pct", s.cv_pct}};
  for (const auto& [name, value] : figures) {
    w.key(name);
    w.real(value);
  }
}

void write_real_list(Writer& w, const std::vector<double>& values) {
  w.start_list();
  for (const double v : values) w.real(v);
  w.finish_list();
}

// "out_of_place_per_iter": from every rank's samples when the row has them (upstream's
// process rows and statistics), else from the statistics a run document keeps.
void write_per_iteration(Writer& w, const Measurement& m, const RunContext& context) {
  w.key(std::string(to_string(m.placement)) + "_per_iter");
  w.start_object();
  w.key("skipped_iterations");
  w.size(context.config.per_iter_skip);
  if (!m.rank_iteration_us.empty()) {
    const ProcessIterations p = process_iterations(context.ranks, m.rank_iteration_us);
    const std::size_t skip = std::min<std::size_t>(context.config.per_iter_skip, p.max_us.size());
    write_stats(w, nccl_tests_iter_stats(std::span(p.max_us).subspan(skip)));
    w.key("times_us");
    write_real_list(w, p.max_us);
    if (p.process_max_us.size() > 1) {
      w.key("per_process_max_times_us");
      w.start_list();
      for (const auto& row : p.process_max_us) write_real_list(w, row);
      w.finish_list();
    }
  } else {
    const TimeStats& s = m.per_iteration;
    write_stats(w, {s.min_us, s.max_us, s.mean_us, s.median_us, s.p95_us, s.p99_us, s.stdev_us, 100 * s.cv});
    w.key("times_us");
    write_real_list(w, {});
  }
  w.finish_object();
}

const Measurement* find(const SizeRecord& row, Placement placement) {
  for (const auto& m : row.placements) {
    if (m.placement == placement) return &m;
  }
  return nullptr;
}

void write_row(Writer& w, const SizeRecord& row, const RunContext& context) {
  w.start_object();
  w.key("size");
  w.size(row.size_bytes);
  w.key("count");
  w.size(row.count);
  w.key("type");
  w.str(row.dtype);
  w.key("redop");
  w.str(row.op);
  w.key("root");
  char root[32];
  std::snprintf(root, sizeof root, "%6i", row.root);
  w.str(root);
  std::uint64_t iterations = context.config.iterations;
  for (const Placement placement : {Placement::kOutOfPlace, Placement::kInPlace}) {
    const Measurement* m = find(row, placement);
    write_placement(w, m, placement);
    if (m != nullptr && context.config.per_iteration_timing && m->per_iteration.samples > 0) {
      write_per_iteration(w, *m, context);
    }
    if (m != nullptr) iterations = m->iterations;
  }
  w.key("actual_iterations");
  w.size(iterations);
  w.key("experiment_name");
  w.str("");
  w.finish_object();
}

}  // namespace

int nccl_version_code(const std::string& backend_library) {
  int major = 0;
  int minor = 0;
  int patch = 0;
  if (std::sscanf(backend_library.c_str(), "NCCL %d.%d.%d", &major, &minor, &patch) != 3) return 0;
  return major * 10000 + minor * 100 + patch;
}

std::string nccl_tests_json_text(const RunDocument& document) {
  const RunContext& context = document.context;
  Writer w;
  w.start_object();
  w.key("version");
  w.integer(kNcclTestsJsonVersion);
  w.key("start_time");
  w.str(upstream_time(context.start_time));
  w.key("args");
  w.start_list();
  for (const auto& arg : context.argv) w.str(arg);
  w.finish_list();
  w.key("env");
  w.start_list();
  for (const auto& [name, value] : context.env) w.str(name + "=" + value);
  w.finish_list();
  w.key("nccl_version");
  w.integer(nccl_version_code(context.backend_library));
  write_config(w, context);
  w.key("results");
  w.start_list();
  for (const auto& row : document.rows) {
    if (!row.skipped) write_row(w, row, context);
  }
  w.finish_list();
  // The figures as upstream's footer computes them, over the rows written.
  const RunSummary figures = summarize(document.rows);
  w.key("out_of_bounds");
  w.start_object();
  w.key("count");
  w.size(figures.out_of_bounds);
  w.key("okay");
  w.boolean(figures.out_of_bounds == 0);
  w.finish_object();
  w.key("average_bus_bandwidth");
  w.start_object();
  w.key("bandwidth");
  w.real(figures.avg_busbw_gbps);
  w.key("okay");
  if (context.config.min_busbw_gbps > 0) {
    w.boolean(figures.avg_busbw_gbps >= context.config.min_busbw_gbps * 0.9);
  } else {
    w.str("unchecked");
  }
  w.finish_object();
  w.key("errors");
  w.start_list();
  w.str(document.summary.error.value_or(""));
  w.finish_list();
  w.key("end_time");
  w.str(upstream_time(document.summary.end_time));
  w.finish_object();
  return w.text;
}

}  // namespace collbench::report
