// collbench run --fault SPEC (test-only fault injection, but typed by hand like any flag).
#include "bench/cli/wiring/run_flags.hpp"
#include "tests/fuzz/fuzz_entries.hpp"

namespace collbench::fuzz {
namespace {

// A rank the plan names is one a job can have: never a negative number from a wrapped value.
bool addressable(const std::optional<int>& rank) { return !rank || (*rank >= 0 && *rank <= (1 << 24)); }

}  // namespace

void fault(Bytes input) {
  auto plan = cli::parse_fault(as_text(input));
  if (!plan.ok()) return;
  COLLBENCH_FUZZ_REQUIRE(addressable(plan->corrupt_rank));
  COLLBENCH_FUZZ_REQUIRE(addressable(plan->kill_rank));
  COLLBENCH_FUZZ_REQUIRE(addressable(plan->slow_rank));
  // The delay becomes a signed std::chrono::microseconds.
  COLLBENCH_FUZZ_REQUIRE(plan->slow_us <= 3600ull * 1000 * 1000);
  // A host count (locate's split-hosts) is never negative or a wrapped small number.
  COLLBENCH_FUZZ_REQUIRE(plan->split_hosts >= 0 && plan->split_hosts <= (1 << 24));
}

}  // namespace collbench::fuzz

COLLBENCH_FUZZ_TARGET(fault)
