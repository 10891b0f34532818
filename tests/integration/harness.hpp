// Runs the real collbench binary (alone or under mpirun) for integration tests: captures
// exit code, stdout and stderr, and kills the process group after a time limit so that no
// test can hang the suite.
#pragma once

#include <string>
#include <vector>

namespace collbench::testing {

struct Outcome {
  int exit_code = -1;  // -1 when killed by a signal or the time limit
  bool timed_out = false;
  double seconds = 0;
  std::string out;
  std::string err;
};

struct ProcessOptions {
  double time_limit_s = 120;
  std::vector<std::string> env;  // "NAME=value" entries added to the environment
  double signal_after_s = 0;     // > 0: send `signal` to the process (not its group) then
  int signal = 0;
  // Non-empty: and not before the process's stdout holds this text (a table row, say), so
  // that a slow start on a loaded machine cannot make the signal come too early.
  std::string signal_once_out_contains;
};

// argv[0] is looked up in PATH.
Outcome run_process(const std::vector<std::string>& argv, const ProcessOptions& options);
Outcome run_process(const std::vector<std::string>& argv, double time_limit_s = 120,
                    const std::vector<std::string>& env = {});

// collbench itself (COLLBENCH_BINARY), with arguments.
std::vector<std::string> collbench(const std::vector<std::string>& args);

// mpirun -np N [root and oversubscribe flags as needed] collbench args...
std::vector<std::string> mpirun_collbench(int ranks, const std::vector<std::string>& args,
                                          const std::vector<std::string>& mpirun_args = {});

// A fresh empty directory under the build tree for one test's files.
std::string scratch_dir(const std::string& name);

std::string read_file(const std::string& path);
bool file_exists(const std::string& path);

}  // namespace collbench::testing
