#include "report/render/gbench_json.hpp"

#include <cmath>
#include <map>
#include <utility>

#include "common/strings.hpp"
#include "report/documents/json_internal.hpp"

namespace collbench::report {
namespace {

constexpr double kBytesPerGigabyte = 1e9;

// Google Benchmark writes local time with an offset; collbench keeps UTC with a 'Z'.
std::string gbench_date(const std::string& iso_utc) {
  if (!iso_utc.empty() && iso_utc.back() == 'Z') return iso_utc.substr(0, iso_utc.size() - 1) + "+00:00";
  return iso_utc;
}

double finite_or_zero(double v) { return std::isfinite(v) ? v : 0; }

Json context_json(const RunContext& c) {
  return {{"date", gbench_date(c.start_time)},
          {"host_name", join(c.hosts, ",")},
          {"executable", "collbench"},
          // What Google Benchmark reports about the CPU; collbench does not measure it.
          {"num_cpus", 0},
          {"mhz_per_cpu", 0},
          {"cpu_scaling_enabled", false},
          {"caches", Json::array()},
          {"load_avg", Json::array()},
          {"library_build_type", "release"},
          {"collbench_version", c.tool_version},
          {"collbench_git_commit", c.git_commit},
          {"collbench_bootstrap", c.bootstrap},
          {"collbench_backend", c.backend},
          {"collbench_backend_library", c.backend_library},
          {"collbench_memory", c.memory},
          {"collbench_nranks", c.nranks}};
}

// Indices Google Benchmark gives: a family per (collective, dtype, op, root, placement), an
// instance per size within it, a repetition per occurrence of the same name.
class Numbering {
 public:
  struct Ids {
    std::size_t family;
    std::size_t instance;
    std::size_t repetition;
  };
  Ids next(const std::string& family, const std::string& name) {
    const auto f = families_.try_emplace(family, Family{families_.size(), {}}).first;
    const auto i = f->second.instances.try_emplace(name, f->second.instances.size()).first;
    return {f->second.index, i->second, repetitions_[name]++};
  }
  std::size_t repetitions(const std::string& name) const { return repetitions_.at(name); }

 private:
  struct Family {
    std::size_t index;
    std::map<std::string, std::size_t> instances;
  };
  std::map<std::string, Family> families_;
  std::map<std::string, std::size_t> repetitions_;
};

std::string family_of(const SizeRecord& row, Placement placement) {
  const std::string name = gbench_name(row, placement);
  return name.substr(0, name.rfind('/'));
}

Json entry(const std::string& name, const Numbering::Ids& ids) {
  return {{"name", name},
          {"family_index", ids.family},
          {"per_family_instance_index", ids.instance},
          {"run_name", name},
          {"run_type", "iteration"},
          {"repetitions", 0},  // filled in once every entry is known
          {"repetition_index", ids.repetition},
          {"threads", 1}};
}

void add_times(Json& j, std::uint64_t iterations, double time_us) {
  j["iterations"] = iterations;
  j["real_time"] = time_us;
  j["cpu_time"] = time_us;
  j["time_unit"] = "us";
}

// Counters in the order Google Benchmark prints them (its counter map is sorted by name), and
// as doubles, as it writes every counter.
void add_counters(Json& j, const SizeRecord& row, const Measurement& m, int nranks) {
  j["algbw_gbps"] = finite_or_zero(m.algbw_gbps);
  j["busbw_gbps"] = finite_or_zero(m.busbw_gbps);
  j["bytes_per_second"] = finite_or_zero(m.algbw_gbps) * kBytesPerGigabyte;
  j["cv"] = finite_or_zero(m.per_iteration.cv);
  j["median_us"] = finite_or_zero(m.per_iteration.median_us);
  j["nranks"] = static_cast<double>(nranks);
  j["p95_us"] = finite_or_zero(m.per_iteration.p95_us);
  j["size_bytes"] = static_cast<double>(row.size_bytes);
  j["wrong"] = static_cast<double>(m.wrong);
}

Json measured_entry(const SizeRecord& row, const Measurement& m, int nranks, Numbering& numbering) {
  const std::string name = gbench_name(row, m.placement);
  Json j = entry(name, numbering.next(family_of(row, m.placement), name));
  const bool finite = std::isfinite(m.time_us);
  if (m.wrong > 0 || !finite) {
    j["error_occurred"] = true;
    j["error_message"] = m.wrong > 0 ? std::to_string(m.wrong) + " wrong elements" : "time is not a number";
  }
  add_times(j, m.iterations, finite_or_zero(m.time_us));
  add_counters(j, row, m, nranks);
  return j;
}

Json skipped_entry(const SizeRecord& row, Placement placement, Numbering& numbering) {
  const std::string name = gbench_name(row, placement);
  Json j = entry(name, numbering.next(family_of(row, placement), name));
  j["error_occurred"] = true;
  j["error_message"] = "skipped: " + *row.skipped;
  add_times(j, 0, 0);
  return j;
}

}  // namespace

std::string gbench_name(const SizeRecord& row, Placement placement) {
  std::string name = row.collective + "/" + row.dtype + "/" + row.op + "/";
  if (row.root >= 0) name += "root:" + std::to_string(row.root) + "/";
  return name + to_string(placement) + "/" + std::to_string(row.size_bytes);
}

std::string gbench_json_text(const RunDocument& document) {
  Numbering numbering;
  Json benchmarks = Json::array();
  for (const auto& row : document.rows) {
    if (row.skipped) {
      for (Placement p : {Placement::kOutOfPlace, Placement::kInPlace})
        benchmarks.push_back(skipped_entry(row, p, numbering));
      continue;
    }
    for (const auto& m : row.placements)
      benchmarks.push_back(measured_entry(row, m, document.context.nranks, numbering));
  }
  for (auto& b : benchmarks) b["repetitions"] = numbering.repetitions(b["name"].get<std::string>());
  const Json j = {{"context", context_json(document.context)}, {"benchmarks", benchmarks}};
  return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace collbench::report
