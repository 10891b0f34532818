#include "bench/cli/wiring/adapter_registry.hpp"

#include <algorithm>

#include "collbench_adapters.hpp"
#include "collbench_features.hpp"
#include "common/strings.hpp"

// The built adapters' entries, by the naming rule of cmake/CollbenchAdapters.cmake.
namespace collbench::backend {
#define COLLBENCH_DECLARE(name) const BackendEntry& name##_backend_entry();
COLLBENCH_BUILT_BACKENDS(COLLBENCH_DECLARE)
#undef COLLBENCH_DECLARE
}  // namespace collbench::backend

namespace collbench::bootstrap {
#define COLLBENCH_DECLARE(name) const BootstrapEntry& name##_bootstrap_entry();
COLLBENCH_BUILT_BOOTSTRAPS(COLLBENCH_DECLARE)
#undef COLLBENCH_DECLARE
}  // namespace collbench::bootstrap

namespace collbench::cli {
namespace {

struct Absent {
  std::string_view name;
  std::string_view hint;
};

// Extra commas (X expands to "{...},") are fine in a braced list; an empty list stays empty.
#define COLLBENCH_ENTRY(name) &backend::name##_backend_entry(),
std::vector<const backend::BackendEntry*> backend_table() { return {COLLBENCH_BUILT_BACKENDS(COLLBENCH_ENTRY)}; }
#undef COLLBENCH_ENTRY
#define COLLBENCH_ENTRY(name) &bootstrap::name##_bootstrap_entry(),
std::vector<const bootstrap::BootstrapEntry*> bootstrap_table() {
  return {COLLBENCH_BUILT_BOOTSTRAPS(COLLBENCH_ENTRY)};
}
#undef COLLBENCH_ENTRY
#define COLLBENCH_ABSENT(name, hint) Absent{#name, hint},
std::vector<Absent> absent_backends() { return {COLLBENCH_ABSENT_BACKENDS(COLLBENCH_ABSENT)}; }
std::vector<Absent> absent_bootstraps() { return {COLLBENCH_ABSENT_BOOTSTRAPS(COLLBENCH_ABSENT)}; }
#undef COLLBENCH_ABSENT

template <typename Entry>
Result<const Entry*> find_in(std::string_view flag, std::string_view name, const std::vector<const Entry*>& built,
                             const std::vector<Absent>& absent, const std::vector<std::string>& known) {
  for (const Entry* e : built) {
    if (e->name == name) return e;
  }
  for (const Absent& a : absent) {
    if (a.name == name)
      return Status::error(ErrorCode::kUnsupported,
                           std::string(flag) + " " + std::string(name) + ": " + std::string(a.hint));
  }
  return Status::error(ErrorCode::kUsage, std::string(flag) + ": unknown value '" + std::string(name) +
                                              "' (expected auto, " + join(known, ", ") + ")");
}

template <typename Entry>
std::vector<std::string> names_of(const std::vector<const Entry*>& built, const std::vector<Absent>& absent) {
  std::vector<std::string> out;
  out.reserve(built.size() + absent.size());
  for (const Entry* e : built) out.emplace_back(e->name);
  for (const Absent& a : absent) out.emplace_back(a.name);
  return out;
}

}  // namespace

std::vector<const backend::BackendEntry*> built_backends() {
  auto entries = backend_table();
  std::stable_sort(entries.begin(), entries.end(),
                   [](const auto* a, const auto* b) { return a->auto_order < b->auto_order; });
  return entries;
}

Result<const backend::BackendEntry*> find_backend(std::string_view name) {
  return find_in("--backend", name, built_backends(), absent_backends(), known_backends());
}

Result<const bootstrap::BootstrapEntry*> find_bootstrap(std::string_view name) {
  return find_in("--bootstrap", name, bootstrap_table(), absent_bootstraps(), known_bootstraps());
}

std::vector<std::string> known_backends() { return names_of(built_backends(), absent_backends()); }
std::vector<std::string> known_bootstraps() { return names_of(bootstrap_table(), absent_bootstraps()); }

std::string backend_flag_help() {
  std::string text = "Collective backend: auto (the first of these that every rank can use)";
  for (const auto* e : built_backends()) text += "; " + std::string(e->name) + ": " + std::string(e->help);
  for (const Absent& a : absent_backends()) text += "; " + std::string(a.name) + ": not in this build";
  return text;
}

std::string bootstrap_flag_help() {
  std::string text = "How ranks find each other: auto";
  for (const auto* e : bootstrap_table()) text += "; " + std::string(e->name) + ": " + std::string(e->help);
  for (const Absent& a : absent_bootstraps()) text += "; " + std::string(a.name) + ": not in this build";
  return text;
}

std::string compiled_features() {
  std::vector<std::string> boots;
  for (const auto* e : bootstrap_table()) boots.emplace_back(e->name);
  boots.emplace_back("threads (-g)");
  std::vector<std::string> backs;
  for (const auto* e : built_backends())
    backs.push_back(std::string(e->name) + " (" + std::string(e->features.memory) + ")");
  return "bootstraps: " + join(boots, ", ") + "; backends: " + join(backs, ", ") +
         "; topology: " + (COLLBENCH_HAVE_HWLOC ? "hwloc" : "none");
}

std::string version_text(const std::string& first_line) {
  std::string text = first_line;
  for (const auto* e : built_backends()) {
    if (e->loaded_library) text += "\n" + std::string(e->name) + ": " + e->loaded_library();
  }
  return text;
}

}  // namespace collbench::cli
