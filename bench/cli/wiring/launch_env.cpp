#include "bench/cli/wiring/launch_env.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <string_view>
#include <unistd.h>  // environ (declared with _GNU_SOURCE, which g++ and clang++ define for C++)

#include "common/strings.hpp"
#include "common/units.hpp"

namespace collbench::cli {
namespace {

std::optional<int> env_int(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr) return std::nullopt;
  auto parsed = parse_uint(value, 1u << 30);
  if (!parsed.ok()) return std::nullopt;
  return static_cast<int>(*parsed);
}

std::optional<int> first_of(std::initializer_list<const char*> names) {
  for (const char* name : names) {
    if (auto v = env_int(name)) return v;
  }
  return std::nullopt;
}

constexpr std::array kPrefixes = {"NCCL_",         "OMPI_",
                                  "UCX_",          "CUDA_",
                                  "SLURM_",        "PMIX_RANK",
                                  "PMI_",          "HWLOC_",
                                  "COLLBENCH_",    "FI_",
                                  "MASTER_ADDR",   "MASTER_PORT",
                                  "WORLD_SIZE",    "RANK",
                                  "LOCAL_RANK",    "LOCAL_WORLD_SIZE",
                                  "TORCHELASTIC_", "OMP_NUM_THREADS"};
constexpr std::array kSecrets = {"TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", "_KEY"};

bool allowed(std::string_view name) {
  const bool listed = std::any_of(kPrefixes.begin(), kPrefixes.end(), [&](std::string_view p) {
    return starts_with(name, p) && (p.back() == '_' || name.size() == p.size());
  });
  if (!listed) return false;
  const std::string upper = [&] {
    std::string u(name);
    std::transform(u.begin(), u.end(), u.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return u;
  }();
  return std::none_of(kSecrets.begin(), kSecrets.end(),
                      [&](std::string_view s) { return upper.find(s) != std::string::npos; });
}

}  // namespace

int LaunchEnv::likely_rank() const { return mpi_rank.value_or(slurm_rank.value_or(torch_rank.value_or(0))); }
int LaunchEnv::likely_size() const { return mpi_size.value_or(slurm_size.value_or(torch_size.value_or(1))); }

LaunchEnv read_launch_env() {
  LaunchEnv env;
  env.mpi_rank = first_of({"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "MV2_COMM_WORLD_RANK"});
  env.mpi_size = first_of({"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "MV2_COMM_WORLD_SIZE"});
  env.slurm_rank = env_int("SLURM_PROCID");
  env.slurm_size = env_int("SLURM_NTASKS");
  env.torch_rank = env_int("RANK");
  env.torch_size = env_int("WORLD_SIZE");
  env.has_master_addr = std::getenv("MASTER_ADDR") != nullptr;
  return env;
}

std::vector<std::pair<std::string, std::string>> allow_listed_environment() {
  std::vector<std::pair<std::string, std::string>> out;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    std::string_view entry(*e);
    const auto eq = entry.find('=');
    if (eq == std::string_view::npos || !allowed(entry.substr(0, eq))) continue;
    out.emplace_back(std::string(entry.substr(0, eq)), std::string(entry.substr(eq + 1)));
  }
  std::sort(out.begin(), out.end());
  return out;
}

int launcher_world_size(const LaunchEnv& env, int joined) {
  int seen = -1;
  for (const auto& size : {env.mpi_size, env.torch_size, env.slurm_size}) {
    if (!size) continue;
    if (*size != joined) return *size;
    seen = *size;
  }
  return seen;
}

}  // namespace collbench::cli
