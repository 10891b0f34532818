#include "bench/cli/wiring/nccl_tests_env.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace collbench::cli {
namespace {

std::optional<std::string> env(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? std::nullopt : std::optional<std::string>(value);
}

// nccl-tests reads these with strtod and needs the whole string to parse.
Result<double> whole_double(const char* name, const std::string& text) {
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || errno == ERANGE || !std::isfinite(v)) {
    return Status::error(ErrorCode::kUsage, std::string(name) + ": '" + text + "' is not a number");
  }
  return v;
}

}  // namespace

NcclTestsEnv read_nccl_tests_env() {
  NcclTestsEnv e;
  e.alltoallv_spread = env("NCCL_TESTS_ALLTOALLV_SPREAD");
  e.alltoallv_matrix_file = env("NCCL_TESTS_ALLTOALLV_MATRIX_FILE");
  e.min_bw = env("NCCL_TESTS_MIN_BW");
  e.device = env("NCCL_TESTS_DEVICE");
  e.split = env("NCCL_TESTS_SPLIT");
  e.split_mask = env("NCCL_TESTS_SPLIT_MASK");
  return e;
}

Status apply_nccl_tests_env(const NcclTestsEnv& e, engine::RunOptions& options, backend::DeviceOptions& device) {
  if (e.alltoallv_spread) {
    COLLBENCH_ASSIGN_OR_RETURN(const double spread, whole_double("NCCL_TESTS_ALLTOALLV_SPREAD", *e.alltoallv_spread));
    options.counts.alltoallv_spread = std::clamp(spread, 0.0, 1.0);  // as nccl-tests clamps it
  }
  if (e.min_bw) {
    COLLBENCH_ASSIGN_OR_RETURN(const double bw, whole_double("NCCL_TESTS_MIN_BW", *e.min_bw));
    if (bw < 0) return Status::error(ErrorCode::kUsage, "NCCL_TESTS_MIN_BW: must not be negative");
    options.min_busbw_gbps = bw;
  }
  if (e.device) {
    COLLBENCH_ASSIGN_OR_RETURN(const double first, whole_double("NCCL_TESTS_DEVICE", *e.device));
    if (first < 0 || first > 1024 || first != std::floor(first)) {
      return Status::error(ErrorCode::kUsage, "NCCL_TESTS_DEVICE: '" + *e.device + "' is not a GPU index");
    }
    device.first_device = static_cast<int>(first);
  }
  if (e.split || e.split_mask) {
    return Status::error(ErrorCode::kUnsupported,
                         std::string(e.split_mask ? "NCCL_TESTS_SPLIT_MASK" : "NCCL_TESTS_SPLIT") +
                             ": concurrent communicators split by rank are not supported; run one job per group");
  }
  if (e.alltoallv_matrix_file) {
    return Status::error(ErrorCode::kUnsupported,
                         "NCCL_TESTS_ALLTOALLV_MATRIX_FILE: alltoallv's traffic-matrix mode is not supported; "
                         "NCCL_TESTS_ALLTOALLV_SPREAD sets the per-peer sizes");
  }
  return ok_status();
}

}  // namespace collbench::cli
