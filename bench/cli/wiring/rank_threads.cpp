#include "bench/cli/wiring/rank_threads.hpp"

#include <atomic>
#include <thread>
#include <vector>

#include "topo/host_info.hpp"

namespace collbench::cli {
namespace {

// The result this process reports for its ranks: the failure that came first (it woke the
// others), unless that one stays quiet and another rank has something to print.
CommandResult pick_result(const std::vector<CommandResult>& results, int first_failure) {
  if (first_failure < 0) return results.front();
  const CommandResult& root = results[static_cast<std::size_t>(first_failure)];
  if (root.printable) return root;
  for (const auto& r : results) {
    if (!r.status.ok() && r.printable) return r;
  }
  return root;
}

CommandResult run_threads(ThreadedSessions& group,
                          const std::function<CommandResult(Result<std::unique_ptr<Session>>)>& body) {
  std::vector<CommandResult> results(static_cast<std::size_t>(group.threads()));
  std::atomic<int> first_failure{-1};
  const auto run_one = [&](int t) {
    CommandResult& r = results[static_cast<std::size_t>(t)];
    r = body(group.open_member(t));
    if (r.status.ok()) return;
    int none = -1;
    first_failure.compare_exchange_strong(none, t);
    // The other threads' ranks may wait in the library for this one: stop every communicator
    // of the process, then wake them from any bootstrap exchange.
    group.stop_communicators();
    group.abandon(r.status);
  };
  {
    std::vector<std::jthread> others;
    for (int t = 1; t < group.threads(); ++t) others.emplace_back(run_one, t);
    run_one(0);
  }
  return pick_result(results, first_failure.load());
}

}  // namespace

CommandResult run_ranks(const SessionChoices& choices, int gpus_per_process,
                        const std::function<CommandResult(Result<std::unique_ptr<Session>>)>& body) {
  if (gpus_per_process == 1) return body(Session::open(choices));
  auto group = ThreadedSessions::open(choices, gpus_per_process);
  if (!group.ok()) return CommandResult::from_launcher(topo::host_name()).with(group.status(), true);
  return run_threads(**group, body);
}

}  // namespace collbench::cli
