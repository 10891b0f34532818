// nccl-tests' environment variables that change what a run does (NCCL_TESTS_*), read once
// at the top level and resolved with the flags, so that every error names its variable.
#pragma once

#include <optional>
#include <string>

#include "bench/backend/backend_entry.hpp"
#include "bench/engine/run_options.hpp"
#include "common/status.hpp"

namespace collbench::cli {

// As set; nullopt when unset.
struct NcclTestsEnv {
  std::optional<std::string> alltoallv_spread;       // NCCL_TESTS_ALLTOALLV_SPREAD
  std::optional<std::string> alltoallv_matrix_file;  // NCCL_TESTS_ALLTOALLV_MATRIX_FILE
  std::optional<std::string> min_bw;                 // NCCL_TESTS_MIN_BW
  std::optional<std::string> device;                 // NCCL_TESTS_DEVICE
  std::optional<std::string> split;                  // NCCL_TESTS_SPLIT
  std::optional<std::string> split_mask;             // NCCL_TESTS_SPLIT_MASK
};

NcclTestsEnv read_nccl_tests_env();

// Into the run's options: kUsage for a value nccl-tests would refuse, kUnsupported (with the
// one-line reason) for a mode collbench does not offer.
Status apply_nccl_tests_env(const NcclTestsEnv& env, engine::RunOptions& options, backend::DeviceOptions& device);

}  // namespace collbench::cli
