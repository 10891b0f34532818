#include "tests/integration/rank_processes.hpp"

#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>  // NOLINT(modernize-deprecated-headers): kill() is POSIX, which <csignal> does not promise
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <exception>
#include <filesystem>

#include "common/exit_code.hpp"

namespace collbench::testing {
namespace {

using Clock = std::chrono::steady_clock;

struct Child {
  pid_t pid = -1;
  int report_fd = -1;
  bool running = true;
};

[[noreturn]] void run_child(int index, const RankBody& body, int report_fd) {
  std::string report;
  int code = 1;
  try {
    code = body(index, report);
  } catch (const std::exception& e) {
    report = std::string("exception: ") + e.what();
  }
  for (std::size_t done = 0; done < report.size();) {
    const ssize_t n = write(report_fd, report.data() + done, report.size() - done);
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  _exit(code);  // no atexit handlers or destructors of the parent's test state
}

void drain(int fd, std::string& into) {
  std::array<char, 4096> buffer{};
  ssize_t n = 0;
  while ((n = read(fd, buffer.data(), buffer.size())) > 0) into.append(buffer.data(), static_cast<std::size_t>(n));
}

}  // namespace

std::vector<RankOutcome> run_in_processes(int count, const RankBody& body, double limit_s) {
  const auto start = Clock::now();
  std::vector<Child> children(static_cast<std::size_t>(count));
  std::vector<RankOutcome> outcomes(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    int fds[2] = {-1, -1};
    if (pipe2(fds, O_CLOEXEC) != 0) std::terminate();
    const pid_t pid = fork();
    if (pid == 0) {
      close(fds[0]);
      run_child(i, body, fds[1]);
    }
    close(fds[1]);
    (void)fcntl(fds[0], F_SETFL, O_NONBLOCK);
    children[static_cast<std::size_t>(i)] = Child{pid, fds[0], pid > 0};
  }
  const auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  for (std::size_t running = children.size(); running > 0;) {
    const bool late = elapsed() > limit_s;
    running = 0;
    for (std::size_t i = 0; i < children.size(); ++i) {
      Child& child = children[i];
      drain(child.report_fd, outcomes[i].report);
      if (!child.running) continue;
      if (late) {
        kill(child.pid, SIGKILL);
        outcomes[i].timed_out = true;
      }
      int status = 0;
      const pid_t done = waitpid(child.pid, &status, late ? 0 : WNOHANG);
      if (done == child.pid) {
        child.running = false;
        outcomes[i].seconds = elapsed();
        outcomes[i].exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        drain(child.report_fd, outcomes[i].report);
      } else {
        ++running;
      }
    }
    if (running > 0) poll(nullptr, 0, 10);
  }
  for (const Child& child : children) close(child.report_fd);
  return outcomes;
}

int report_status(const Status& status, std::string& report) {
  report = std::string(error_code_name(status.code())) + ": " + status.message();
  return static_cast<int>(exit_code_for(status));
}

int free_tcp_port() {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof addr;
  int port = 0;
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &length) == 0) {
    port = ntohs(addr.sin_port);
  }
  close(fd);
  return port;
}

int open_fd_count() {
  int n = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) ++n;
  return n - 1;  // the iterator's own descriptor
}

std::string describe(const RankOutcome& outcome) {
  std::string text = outcome.timed_out ? "killed at the time limit" : "exit " + std::to_string(outcome.exit_code);
  return text + " after " + std::to_string(outcome.seconds) + " s: " + outcome.report;
}

}  // namespace collbench::testing
