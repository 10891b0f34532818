#include "report/documents/context_fields.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <utility>

#include "common/strings.hpp"
#include "report/format/number_format.hpp"
#include "report/format/size_label.hpp"

namespace collbench::report {
namespace {

using Fields = std::vector<std::pair<std::string, std::string>>;

// Environment variables that launchers set differently for every job (ids, addresses, session
// directories, the command line): they would make every pair of runs "differ".
// Matched case-insensitively anywhere in the name.
constexpr std::array kLauncherBookkeeping = {"jobid",        "job_id",      "step_id",
                                             "_uri",         "session_dir", "file_location",
                                             "argv",         "command",     "precondition_transports",
                                             "initial_wdir", "_pid",        "tmpdir"};

bool bookkeeping(const std::string& name) {
  const std::string lower = to_lower(name);
  return std::any_of(kLauncherBookkeeping.begin(), kLauncherBookkeeping.end(),
                     [&](const char* part) { return lower.find(part) != std::string::npos; });
}

std::string sizes_text(const RunConfig& c) {
  const std::string step = c.step_factor > 0 ? "x" + format_uint(c.step_factor) : "+" + short_size(c.step_bytes);
  return short_size(c.min_bytes) + " .. " + short_size(c.max_bytes) + " (" + step + ")";
}

std::string iterations_text(const RunConfig& c) {
  return format_uint(c.iterations) + " timed, " + format_uint(c.warmup_iterations) + " warm-up, " +
         format_uint(c.check_iterations) + " checked";
}

std::string hosts_text(const RunContext& c) {
  return format_uint(c.hosts.size()) + (c.hosts.size() == 1 ? " host: " : " hosts: ") + join(c.hosts, ", ");
}

Fields fields_of(const RunContext& c) {
  Fields f = {
      {"collbench", c.tool_version + " (" + c.git_commit + ")"},
      {"bootstrap", c.bootstrap},
      {"backend", c.backend + " (" + c.backend_library + ")"},
      {"memory", c.memory},
      {"ranks", format_int(c.nranks)},
      {"hosts", hosts_text(c)},
      {"devices", describe_devices(c)},
      {"collectives", join(c.config.collectives, ",")},
      {"dtypes", join(c.config.dtypes, ",")},
      {"ops", join(c.config.ops, ",")},
      {"sizes", sizes_text(c.config)},
      {"iterations", iterations_text(c.config)},
      {"average (-a)", format_int(c.config.average)},
      {"blocking (-z)", format_int(c.config.blocking)},
  };
  for (const auto& [name, value] : c.env) {
    if (!bookkeeping(name)) f.emplace_back("env " + name, value);
  }
  return f;
}

const std::string* find_field(const Fields& fields, const std::string& name) {
  for (const auto& [field, value] : fields) {
    if (field == name) return &value;
  }
  return nullptr;
}

}  // namespace

std::string describe_devices(const RunContext& context) {
  std::vector<std::pair<std::string, std::size_t>> counts;
  for (const auto& r : context.ranks) {
    const std::string name = r.device_name.empty() ? r.device : r.device_name;
    auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& e) { return e.first == name; });
    if (it == counts.end()) {
      counts.emplace_back(name, 1);
    } else {
      ++it->second;
    }
  }
  std::vector<std::string> parts;
  parts.reserve(counts.size());
  for (const auto& [name, n] : counts) parts.push_back(format_uint(n) + "x " + name);
  return parts.empty() ? "-" : join(parts, ", ");
}

ContextTable context_table(const std::vector<const RunContext*>& contexts) {
  std::vector<Fields> all;
  std::vector<std::string> order;
  for (const RunContext* c : contexts) {
    all.push_back(fields_of(*c));
    for (const auto& [field, value] : all.back()) {
      if (std::find(order.begin(), order.end(), field) == order.end()) order.push_back(field);
    }
  }
  ContextTable table;
  for (const auto& field : order) {
    ContextRow row{field, {}, false};
    for (const auto& fields : all) {
      const std::string* value = find_field(fields, field);
      row.values.push_back(value != nullptr ? *value : "-");
      row.differs = row.differs || row.values.back() != row.values.front();
    }
    table.push_back(std::move(row));
  }
  return table;
}

}  // namespace collbench::report
