// What `collbench preflight` found: one line per rank, the problems of the launch, and a
// verdict. Plain data for the text and JSON reporters.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "report/job_header.hpp"
#include "report/record.hpp"

namespace collbench::report {

inline constexpr int kPreflightSchemaVersion = 1;
inline constexpr const char* kPreflightSchemaName = "collbench.preflight";

struct PreflightRank {
  int rank = 0;
  std::string host;
  long pid = 0;
  int local_rank = 0;
  int local_size = 1;
  std::string device;       // "cpu" or "cuda:N"
  std::string device_name;  // GPU name or CPU set
  std::string pci_bus_id;
  int launcher_world_size = -1;  // what this rank's launcher variables said (-1: none)
  int visible_devices = -1;      // GPUs this rank can see (-1: host memory)
  double bootstrap_ms = 0;       // time to find the other ranks
  double communicator_ms = 0;    // time to create the collective backend's communicator
  bool collective_ran = false;
  std::int64_t value = 0;  // what the all_reduce of rank numbers returned here
  bool value_ok = false;
  double collective_us = 0;
};

enum class Severity { kWarning, kError };
const char* to_string(Severity s);

struct PreflightProblem {
  Severity severity = Severity::kError;
  std::vector<int> ranks;
  std::vector<std::string> hosts;
  std::string message;  // what is wrong, naming ranks and hosts
  std::string fix;      // the usual fix
};

enum class PreflightVerdict { kOk, kWrongData, kLaunchProblem };
const char* to_string(PreflightVerdict v);  // "ok", "wrong_data", "launch_problem"

struct PreflightReport {
  JobHeader job;
  std::int64_t expected = 0;  // N(N-1)/2
  std::vector<PreflightRank> ranks;
  std::vector<PreflightProblem> problems;
  PreflightVerdict verdict = PreflightVerdict::kOk;
};

}  // namespace collbench::report
