// What the launcher (torchrun, srun, scripts/launch-local.sh) tells a rank through the
// environment, checked and turned into the settings of the TCP rendezvous.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "common/status.hpp"

namespace collbench::bootstrap {

inline constexpr int kMaxWorldSize = 1 << 20;

struct EnvConfig {
  int rank = 0;
  int world_size = 1;
  std::optional<int> local_rank;        // LOCAL_RANK or SLURM_LOCALID; else computed from host names
  std::optional<int> local_world_size;  // LOCAL_WORLD_SIZE; else computed from host names
  std::string master_addr;              // rank 0's host name or address (MASTER_ADDR)
  std::uint16_t master_port = 0;        // MASTER_PORT
  // Fingerprint (16 hex digits) of COLLBENCH_TOKEN or of the job's variables; rank 0 turns away
  // a rank whose fingerprint differs, so stray or stale processes cannot join.
  std::string token;
  std::string token_source;  // "COLLBENCH_TOKEN" or the variables it was derived from
  std::string launcher;      // "torchrun" (RANK, WORLD_SIZE) or "slurm" (SLURM_PROCID, ...)
  // This host's name: groups ranks into hosts and names them in messages; empty means gethostname().
  std::string host;
  double timeout_s = 30;         // bound of the rendezvous and of every later operation
  std::uint32_t stagger_ms = 0;  // connects are spread over this long (rank r waits r/n of it)
};

// Returns the value of an environment variable, or nullopt when it is not set.
using EnvLookup = std::function<std::optional<std::string>(std::string_view name)>;

// Reads RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE, MASTER_ADDR, MASTER_PORT, or SLURM_PROCID,
// SLURM_NTASKS, SLURM_LOCALID (MASTER_ADDR and MASTER_PORT are still needed), and the token
// variables. Any missing or invalid variable is a one-line kUsage error that names it and its value.
Result<EnvConfig> env_config_from(const EnvLookup& env, double timeout_s, std::uint32_t stagger_ms);

// env_config_from() on this process's environment, with `host` set to gethostname().
Result<EnvConfig> env_config_from_environment(double timeout_s, std::uint32_t stagger_ms);

// 16 hex digits (64-bit FNV-1a) of `text`: the token on the wire, never the secret itself.
std::string token_fingerprint(std::string_view text);

// gethostname(), or "unknown-host".
std::string this_host_name();

}  // namespace collbench::bootstrap
