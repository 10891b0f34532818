// The MPI bootstrap's control reduction under mpirun (ctest runs this with -np 2 and -np 3):
// sum, prod, min and max, as the env and threads bootstraps compute them. Every rank checks
// its own results; the exit status is non-zero when any rank saw a wrong one.
#include <array>
#include <cstdio>
#include <span>
#include <string>

#include "bench/bootstrap/mpi/mpi_bootstrap.hpp"
#include "bench/mpi/mpi_runtime.hpp"
#include "tests/unit/bootstrap/control_reductions.hpp"

namespace {

using collbench::ReduceOp;

int fail(const std::string& why) {
  std::fprintf(stderr, "mpi_bootstrap_test: %s\n", why.c_str());
  return 1;
}

int run() {
  auto runtime = collbench::mpi::Runtime::create();
  if (!runtime.ok()) return fail("MPI: " + runtime.status().message());
  auto boot = collbench::bootstrap::make_mpi_bootstrap(*runtime);
  if (!boot.ok()) return fail("MPI bootstrap: " + boot.status().message());
  collbench::bootstrap::Bootstrap& b = **boot;
  if (b.size() < 2) return fail("run under mpirun with at least 2 ranks");
  std::string wrong = collbench::testing::check_control_reductions(b);
  // premulsum has no meaning for control values: refused, never summed.
  double v = 1.0;
  if (b.allreduce(std::span(&v, 1), ReduceOp::kPreMulSum).ok()) wrong += "premulsum was not refused\n";
  std::array<double, 1> failed = {wrong.empty() ? 0.0 : 1.0};
  if (!b.allreduce(failed, ReduceOp::kMax).ok()) wrong += "the final max failed\n";
  if (!wrong.empty()) std::fprintf(stderr, "%s", wrong.c_str());
  if (b.rank() == 0) std::printf("%d ranks: sum, prod, min, max %s\n", b.size(), failed[0] == 0 ? "right" : "WRONG");
  return failed[0] == 0 && wrong.empty() ? 0 : 1;
}

}  // namespace

int main() { return run(); }
