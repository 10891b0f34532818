// How the ranks of an environment-launched job meet: rank 0 listens on MASTER_PORT and
// admits each other rank after checking its hello (job token, world size, rank); every other
// rank connects to MASTER_ADDR:MASTER_PORT, retrying until the timeout. Both sides end with a
// star of connections over rank 0, or with a plain-words error.
#pragma once

#include <string>
#include <vector>

#include "bench/bootstrap/tcp/env_config.hpp"
#include "bench/bootstrap/tcp/messages.hpp"
#include "bench/bootstrap/tcp/star.hpp"

namespace collbench::bootstrap::tcp {

struct RootJoin {
  std::vector<Peer> peers;  // ranks 1..n-1, in order
  Welcome welcome;          // rank 0's own place on its host, computed from the host names
};

struct RankJoin {
  Link link;         // to rank 0
  std::string root;  // "node001 (10.0.0.1:29500)", for messages
  Welcome welcome;
};

// Rank 0. Errors: kLaunch when the port cannot be used or some rank was turned away (wrong
// token, world size or rank); kTimeout naming the ranks that did not join.
Result<RootJoin> serve_rendezvous(const EnvConfig& cfg, Deadline deadline);

// Any other rank. Errors: kLaunch for an unresolvable MASTER_ADDR, a refused or unreachable
// port, or a rejection by rank 0; kTimeout when nothing answers.
Result<RankJoin> join_rendezvous(const EnvConfig& cfg, Deadline deadline);

}  // namespace collbench::bootstrap::tcp
