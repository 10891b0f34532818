#include "report/documents/run_fields.hpp"

#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace collbench::report {
namespace {

template <typename T, typename J>
T field(const J& parent, const char* key) {
  return parent.at(key).template get<T>();
}

// The digest meets files of any kind: an unknown policy leaves the buffers unknown there, while
// in a validated document it is a broken invariant (the schema's enum and buffer_policy_from
// disagree).
template <typename J>
std::optional<BufferConfig> buffers_from(const J& j, RunReading reading) {
  const auto name = field<std::string>(j, "policy");
  const auto policy = buffer_policy_from(name);
  if (!policy) {
    if (reading == RunReading::kDigest) return std::nullopt;
    throw std::invalid_argument("\"policy\": \"" + name + "\" is neither \"rotated\" nor \"fixed\"");
  }
  return BufferConfig{*policy, field<std::uint64_t>(j, "bytes_per_buffer")};
}

template <typename J>
PrecisionConfig precision_from(const J& j, RunReading reading) {
  return {real_from(j.at("min_time_s"), reading), real_from(j.at("max_time_s"), reading),
          real_from(j.at("target_spread"), reading), field<std::uint64_t>(j, "min_iterations"),
          field<std::uint64_t>(j, "max_iterations")};
}

// The reads keep the full reader's order, so that of two bad ints the same one is named.
template <typename J>
RunConfig config_from(const J& j, RunReading reading) {
  const bool all = reading == RunReading::kValidated;
  RunConfig c;
  c.collectives = field<std::vector<std::string>>(j, "collectives");
  c.dtypes = field<std::vector<std::string>>(j, "dtypes");
  c.ops = field<std::vector<std::string>>(j, "ops");
  if (all) c.root = int_at(j, "root");
  c.min_bytes = field<std::uint64_t>(j, "min_bytes");
  c.max_bytes = field<std::uint64_t>(j, "max_bytes");
  c.step_factor = field<std::uint64_t>(j, "step_factor");
  c.step_bytes = field<std::uint64_t>(j, "step_bytes");
  c.iterations = field<std::uint64_t>(j, "iterations");
  c.warmup_iterations = field<std::uint64_t>(j, "warmup_iterations");
  c.check_iterations = field<std::uint64_t>(j, "check_iterations");
  c.average = int_at(j, "average");
  c.blocking = int_at(j, "blocking");
  c.run_cycles = j.value("run_cycles", std::uint64_t{1});  // the schema requires it; the digest does not
  if (all) {
    c.timeout_s = real_from(j.at("timeout_s"), reading);
    c.seed = field<std::uint64_t>(j, "seed");
  }
  c.malloc_keep = j.value("malloc_keep", false);
  // Launch modes, absent in documents written before the NCCL backend.
  c.gpus_per_process = j.contains("gpus_per_process") ? int_at(j, "gpus_per_process") : 1;
  c.aggregation = j.value("aggregation", std::uint64_t{1});
  c.graph_launches = j.value("graph_launches", std::uint64_t{0});
  c.buffer_registration = j.contains("buffer_registration") ? int_at(j, "buffer_registration") : 0;
  if (all) {
    c.per_iteration_timing = j.value("per_iteration_timing", false);
    c.report_timestamps = j.value("report_timestamps", false);
  }
  if (const auto p = j.find("precision"); p != j.end()) c.precision = precision_from(*p, reading);
  if (const auto b = j.find("buffers"); b != j.end()) c.buffers = buffers_from(*b, reading);
  return c;
}

// "pid" and "pci_bus_id" are required by the schema and dropped by the digest's SAX filter:
// read where present, they are read exactly when the full reader reads them.
template <typename J>
RankInfo rank_from(const J& j, RunReading reading) {
  const bool all = reading == RunReading::kValidated;
  RankInfo r;
  r.rank = int_at(j, "rank");
  r.host = field<std::string>(j, "host");
  r.pid = j.value("pid", 0L);
  if (all) r.local_rank = int_at(j, "local_rank");
  r.device = field<std::string>(j, "device");
  r.device_name = j.value("device_name", std::string());  // the schema requires it; the digest does not
  r.pci_bus_id = j.value("pci_bus_id", std::string());
  if (all) r.device_memory_bytes = j.value("device_memory_bytes", std::uint64_t{0});  // absent before the NCCL backend
  return r;
}

// Files written before the backends declared it: MPI was the one backend that allocates per
// call then, as the anomaly analysis of those runs assumed by its name.
template <typename J>
bool allocates_per_call(const J& backend, const std::string& name) {
  return backend.contains("allocates_per_call") ? field<bool>(backend, "allocates_per_call") : name == "mpi";
}

}  // namespace

template <typename J>
int int_at(const J& parent, const char* key) {
  const J& j = parent.at(key);
  const auto d = j.template get<double>();
  if (d < std::numeric_limits<int>::min() || d > std::numeric_limits<int>::max()) {
    throw std::out_of_range(std::string("\"") + key + "\": " + j.dump() + " is out of range");
  }
  return static_cast<int>(j.template get<std::int64_t>());
}

template <typename J>
double real_from(const J& j, RunReading reading) {
  if (j.is_number()) return j.template get<double>();
  // The history wants figures: a string (or any other value of an unvalidated file) is none.
  if (reading == RunReading::kDigest) return std::numeric_limits<double>::quiet_NaN();
  const auto& text = j.template get_ref<const std::string&>();
  if (text == "nan") return std::numeric_limits<double>::quiet_NaN();
  return text == "-inf" ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
}

// "argv", "topology" and "expected_busbw" are dropped by the digest's SAX filter ("argv" is
// required by the schema): read where present, they are read exactly when the full reader reads
// them. "env" is required by the schema, optional to the digest.
template <typename J>
RunContext context_from(const J& j, const J& config, RunReading reading) {
  RunContext c;
  c.tool_version = field<std::string>(j.at("tool"), "version");
  c.git_commit = field<std::string>(j.at("tool"), "git_commit");
  c.start_time = field<std::string>(j, "start_time");
  if (const auto argv = j.find("argv"); argv != j.end()) c.argv = argv->template get<std::vector<std::string>>();
  if (const auto env = j.find("env"); env != j.end()) {
    for (const auto& [name, value] : env->items()) c.env.emplace_back(name, value.template get<std::string>());
  }
  c.bootstrap = field<std::string>(j, "bootstrap");
  const J& backend = j.at("backend");
  c.backend = field<std::string>(backend, "name");
  c.backend_library = field<std::string>(backend, "library");
  c.memory = field<std::string>(backend, "memory");
  if (reading == RunReading::kValidated) c.allocates_per_call = allocates_per_call(backend, c.backend);
  c.nranks = int_at(j, "nranks");
  c.hosts = field<std::vector<std::string>>(j, "hosts");
  for (const auto& r : j.at("ranks")) c.ranks.push_back(rank_from(r, reading));
  if (const auto t = j.find("topology"); t != j.end()) {
    for (const auto& [host, doc] : t->items()) c.topologies.emplace_back(host, doc.dump());
  }
  if (const auto e = j.find("expected_busbw"); e != j.end()) {
    const J& gbps = e->at("gbps");
    c.expected_busbw = ExpectedBusbw{gbps.is_null() ? 0 : real_from(gbps, reading),
                                     field<std::string>(*e, "bottleneck")};
  }
  c.config = config_from(config, reading);
  return c;
}

template int int_at(const nlohmann::ordered_json&, const char*);
template double real_from(const nlohmann::ordered_json&, RunReading);
template RunContext context_from(const nlohmann::ordered_json&, const nlohmann::ordered_json&, RunReading);
template int int_at(const nlohmann::json&, const char*);
template double real_from(const nlohmann::json&, RunReading);
template RunContext context_from(const nlohmann::json&, const nlohmann::json&, RunReading);

}  // namespace collbench::report
