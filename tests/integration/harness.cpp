#include "tests/integration/harness.hpp"

#include <fcntl.h>
#include <signal.h>  // NOLINT(modernize-deprecated-headers): kill() is POSIX, which <csignal> does not promise
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace collbench::testing {
namespace fs = std::filesystem;

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool file_exists(const std::string& path) { return fs::exists(path); }

std::string scratch_dir(const std::string& name) {
  const fs::path dir = fs::path(COLLBENCH_TEST_SCRATCH) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

Outcome run_process(const std::vector<std::string>& argv, double time_limit_s, const std::vector<std::string>& env) {
  ProcessOptions options;
  options.time_limit_s = time_limit_s;
  options.env = env;
  return run_process(argv, options);
}

Outcome run_process(const std::vector<std::string>& argv, const ProcessOptions& options) {
  const std::string dir = scratch_dir(".proc-" + std::to_string(getpid()));
  const std::string out_path = dir + "/out";
  const std::string err_path = dir + "/err";
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);  // its own group, so the time limit can kill mpirun and every rank
    const int out = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(out, STDOUT_FILENO);
    dup2(err, STDERR_FILENO);
    for (const auto& e : options.env) putenv(const_cast<char*>(e.c_str()));
    std::vector<char*> args;
    args.reserve(argv.size() + 1);
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  Outcome o;
  int status = 0;
  bool signalled = false;
  while (true) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (options.signal_after_s > 0 && !signalled && elapsed > options.signal_after_s &&
        (options.signal_once_out_contains.empty() ||
         read_file(out_path).find(options.signal_once_out_contains) != std::string::npos)) {
      signalled = true;
      kill(pid, options.signal);
    }
    if (elapsed > options.time_limit_s && !o.timed_out) {
      o.timed_out = true;
      kill(-pid, SIGKILL);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  o.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  o.out = read_file(out_path);
  o.err = read_file(err_path);
  fs::remove_all(dir);
  return o;
}

std::vector<std::string> collbench(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {COLLBENCH_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

std::vector<std::string> mpirun_collbench(int ranks, const std::vector<std::string>& args,
                                          const std::vector<std::string>& mpirun_args) {
  std::vector<std::string> argv = {COLLBENCH_MPIEXEC, "-np", std::to_string(ranks), "--oversubscribe"};
  if (geteuid() == 0) argv.emplace_back("--allow-run-as-root");
  argv.insert(argv.end(), mpirun_args.begin(), mpirun_args.end());
  argv.emplace_back(COLLBENCH_BINARY);
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

}  // namespace collbench::testing
