#include "bench/bootstrap/tcp/env_config.hpp"

#include <unistd.h>

#include <array>
#include <cmath>
#include <cstdlib>

#include "bench/bootstrap/tcp/messages.hpp"
#include "common/units.hpp"

namespace collbench::bootstrap {
namespace {

Status usage(std::string message) { return Status::error(ErrorCode::kUsage, std::move(message)); }

std::string shown(std::string_view name, std::string_view value) {
  return std::string(name) + "='" + std::string(value) + "'";
}

// An integer variable in [min, max], or nullopt when it is not set.
Result<std::optional<int>> int_var(const EnvLookup& env, std::string_view name, int min, int max) {
  const auto value = env(name);
  if (!value) return std::optional<int>();
  auto parsed = parse_uint(*value, static_cast<std::uint64_t>(max));
  if (!parsed.ok()) {
    const bool too_large = !value->empty() && value->find_first_not_of("0123456789") == std::string::npos;
    return usage(shown(name, *value) + (too_large ? " is too large (at most " + std::to_string(max) + ")"
                                                  : " is not a non-negative integer"));
  }
  if (*parsed < static_cast<std::uint64_t>(min)) {
    return usage(shown(name, *value) + " must be at least " + std::to_string(min));
  }
  return std::optional<int>(static_cast<int>(*parsed));
}

struct Names {
  const char* rank;
  const char* size;
  const char* local_rank;
  const char* local_size;  // nullptr: the launcher has none
  const char* launcher;
};
constexpr Names kTorch{"RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE", "torchrun"};
constexpr Names kSlurm{"SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID", nullptr, "slurm"};

Result<Names> pick_launcher(const EnvLookup& env) {
  for (const Names& names : {kTorch, kSlurm}) {
    const bool has_rank = env(names.rank).has_value();
    const bool has_size = env(names.size).has_value();
    if (has_rank && has_size) return names;
    if (has_rank || has_size) {
      return usage(std::string(has_rank ? names.rank : names.size) + " is set but " +
                   (has_rank ? names.size : names.rank) + " is not: the launcher must set both");
    }
  }
  return usage("no RANK and WORLD_SIZE (torchrun) nor SLURM_PROCID and SLURM_NTASKS (srun) in the environment: "
               "the env bootstrap needs them");
}

Status read_ranks(const EnvLookup& env, const Names& names, EnvConfig& cfg) {
  COLLBENCH_ASSIGN_OR_RETURN(auto size, int_var(env, names.size, 1, kMaxWorldSize));
  COLLBENCH_ASSIGN_OR_RETURN(auto rank, int_var(env, names.rank, 0, kMaxWorldSize));
  if (*rank >= *size) {
    return usage(shown(names.rank, *env(names.rank)) + " is out of range for " + names.size + "=" +
                 std::to_string(*size) + " (ranks are 0.." + std::to_string(*size - 1) + ")");
  }
  cfg.rank = *rank;
  cfg.world_size = *size;
  COLLBENCH_ASSIGN_OR_RETURN(cfg.local_rank, int_var(env, names.local_rank, 0, kMaxWorldSize));
  if (names.local_size != nullptr) {
    COLLBENCH_ASSIGN_OR_RETURN(cfg.local_world_size, int_var(env, names.local_size, 1, kMaxWorldSize));
  }
  if (cfg.local_world_size && *cfg.local_world_size > cfg.world_size) {
    return usage(shown(names.local_size, *env(names.local_size)) + " is larger than " + names.size + "=" +
                 std::to_string(cfg.world_size));
  }
  if (cfg.local_rank && *cfg.local_rank >= cfg.local_world_size.value_or(cfg.world_size)) {
    return usage(shown(names.local_rank, *env(names.local_rank)) + " is out of range for " +
                 (cfg.local_world_size ? std::string(names.local_size) : std::string(names.size)) + "=" +
                 std::to_string(cfg.local_world_size.value_or(cfg.world_size)));
  }
  return ok_status();
}

Status read_master(const EnvLookup& env, EnvConfig& cfg) {
  const auto addr = env("MASTER_ADDR");
  const auto port = env("MASTER_PORT");
  if (cfg.world_size == 1 && !addr && !port) return ok_status();  // nobody to meet
  const char* example = cfg.launcher == "slurm"
                            ? " (srun does not set it: e.g. export MASTER_ADDR=$(scontrol show hostnames | head -n1) "
                              "MASTER_PORT=29500)"
                            : " (e.g. MASTER_ADDR=node001 MASTER_PORT=29500)";
  if (!addr)
    return usage("MASTER_ADDR is not set: every rank needs rank 0's host name or address" + std::string(example));
  if (!port) return usage("MASTER_PORT is not set: every rank needs rank 0's port" + std::string(example));
  if (addr->empty() || addr->size() > tcp::kMaxHostLength) {
    return usage(shown("MASTER_ADDR", *addr) + " is not a host name or address");
  }
  auto parsed = parse_uint(*port, 65535);
  if (!parsed.ok() || *parsed == 0) return usage(shown("MASTER_PORT", *port) + " is not a port number (1-65535)");
  cfg.master_addr = *addr;
  cfg.master_port = static_cast<std::uint16_t>(*parsed);
  return ok_status();
}

void derive_token(const EnvLookup& env, EnvConfig& cfg) {
  if (const auto token = env("COLLBENCH_TOKEN"); token && !token->empty()) {
    cfg.token = token_fingerprint(*token);
    cfg.token_source = "COLLBENCH_TOKEN";
    return;
  }
  std::string text = "collbench|" + cfg.master_addr + "|" + std::to_string(cfg.master_port) + "|" +
                     std::to_string(cfg.world_size);
  cfg.token_source = "MASTER_ADDR, MASTER_PORT, WORLD_SIZE";
  for (const char* name : {"TORCHELASTIC_RUN_ID", "SLURM_JOB_ID"}) {
    if (const auto value = env(name)) {
      text += std::string("|") + name + "=" + *value;
      cfg.token_source += std::string(", ") + name;
    }
  }
  cfg.token = token_fingerprint(text);
}

}  // namespace

std::string token_fingerprint(std::string_view text) {
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (const char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ull;
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, hash >>= 4) out[static_cast<std::size_t>(i)] = kHex[hash & 0xfu];
  return out;
}

Result<EnvConfig> env_config_from(const EnvLookup& env, double timeout_s, std::uint32_t stagger_ms) {
  if (!(timeout_s > 0) || !std::isfinite(timeout_s)) {
    return usage("the rendezvous timeout must be a positive number of seconds (got " + std::to_string(timeout_s) + ")");
  }
  if (static_cast<double>(stagger_ms) >= timeout_s * 1000) {
    return usage("--stagger-ms " + std::to_string(stagger_ms) + " must be shorter than the timeout (" +
                 std::to_string(timeout_s) + " s)");
  }
  EnvConfig cfg;
  cfg.timeout_s = timeout_s;
  cfg.stagger_ms = stagger_ms;
  COLLBENCH_ASSIGN_OR_RETURN(const Names names, pick_launcher(env));
  cfg.launcher = names.launcher;
  COLLBENCH_RETURN_IF_ERROR(read_ranks(env, names, cfg));
  COLLBENCH_RETURN_IF_ERROR(read_master(env, cfg));
  derive_token(env, cfg);
  return cfg;
}

Result<EnvConfig> env_config_from_environment(double timeout_s, std::uint32_t stagger_ms) {
  const EnvLookup lookup = [](std::string_view name) -> std::optional<std::string> {
    const char* value = std::getenv(std::string(name).c_str());
    if (value == nullptr) return std::nullopt;
    return std::string(value);
  };
  COLLBENCH_ASSIGN_OR_RETURN(EnvConfig cfg, env_config_from(lookup, timeout_s, stagger_ms));
  cfg.host = this_host_name();
  return cfg;
}

std::string this_host_name() {
  std::array<char, tcp::kMaxHostLength + 1> name{};
  if (gethostname(name.data(), name.size() - 1) != 0 || name[0] == '\0') return "unknown-host";
  return std::string(name.data());
}

}  // namespace collbench::bootstrap
