// The members of a ThreadGroup, each on a thread of its own, as the CLI runs -g ranks.
#pragma once

#include <thread>
#include <vector>

#include "bench/bootstrap/threads/threads_bootstrap.hpp"

namespace collbench::testing {

// Runs body(member) for every member of `group`, member 0 on the calling thread (as the CLI
// does: it may be the only thread allowed to call the parent bootstrap).
template <typename Body>
void run_members(bootstrap::ThreadGroup& group, Body body) {
  std::vector<std::jthread> others;
  for (int t = 1; t < group.threads(); ++t) {
    others.emplace_back([&group, &body, t] {
      auto member = group.member(t);
      body(*member);
    });
  }
  auto leader = group.member(0);
  body(*leader);
}

}  // namespace collbench::testing
