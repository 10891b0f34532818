// The exit-code contract, shared by every subcommand and documented in --help and the README.
#pragma once

#include <span>
#include <string_view>

#include "common/status.hpp"

namespace collbench {

enum class ExitCode : int {
  kOk = 0,
  kInternal = 1,
  kUsage = 2,
  kComm = 3,
  kTimeout = 4,
  kUnsupported = 5,
  kInterrupted = 6,
  kWrongData = 7,
  kLaunch = 8,
  kIo = 9,
  kRegression = 10,
  kMismatch = 11,
  kOutlier = 12,
  kBelowExpectation = 13,
};

struct ExitCodeDoc {
  ExitCode code;
  std::string_view meaning;
};

ExitCode exit_code_for(const Status& status);
std::span<const ExitCodeDoc> exit_code_docs();
// The table above as text, one "  N  meaning" line per code (for --help footers).
std::string exit_code_help();

}  // namespace collbench
