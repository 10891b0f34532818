// Thin POSIX socket helpers for the rendezvous: owned descriptors, deadlines, a listening
// socket, name resolution and one bounded connect attempt. Errors are values; nothing blocks
// past its deadline.
#pragma once

#include <sys/socket.h>

#include <chrono>
#include <climits>
#include <cstdint>
#include <string>
#include <vector>

#include "common/status.hpp"

namespace collbench::bootstrap::tcp {

using Clock = std::chrono::steady_clock;

// An owned file descriptor, closed on destruction.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(Fd&& other) noexcept : fd_(other.release()) {}
  Fd& operator=(Fd&& other) noexcept;
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }

  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  int release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }
  void reset();

 private:
  int fd_ = -1;
};

class Deadline {
 public:
  static Deadline in(double seconds);
  static Deadline at(Clock::time_point when) { return Deadline(when); }

  Clock::time_point when() const { return when_; }
  bool passed() const { return Clock::now() >= when_; }
  double remaining_s() const;
  // Milliseconds left, rounded up, at most `cap`: a poll() timeout.
  int poll_ms(int cap = INT_MAX) const;
  Deadline earlier(Deadline other) const { return other.when_ < when_ ? other : *this; }
  Deadline later(Deadline other) const { return other.when_ > when_ ? other : *this; }

 private:
  explicit Deadline(Clock::time_point when) : when_(when) {}
  Clock::time_point when_;
};

struct Address {
  sockaddr_storage storage{};
  socklen_t length = 0;
  std::string text;  // "10.0.0.1:29500", "[::1]:29500"
};

enum class ConnectOutcome { kConnected, kRefused, kNoAnswer, kUnreachable, kFailed };

struct ConnectAttempt {
  ConnectOutcome outcome = ConnectOutcome::kFailed;
  Fd fd;          // connected, non-blocking; valid only for kConnected
  int error = 0;  // errno of the failure
};

// strerror() without its thread-safety problem.
std::string errno_text(int error);
// "30", "2.5", "0.25": seconds in messages.
std::string format_seconds(double seconds);

// A non-blocking socket listening on every interface (IPv6 dual-stack, else IPv4) with
// SO_REUSEADDR and a backlog of SOMAXCONN.
Result<Fd> listen_on_port(std::uint16_t port);

// getaddrinfo(host, port) for TCP. A temporary failure (EAI_AGAIN) is retried until the deadline.
Result<std::vector<Address>> resolve(const std::string& host, std::uint16_t port, Deadline deadline);

// One non-blocking connect that gives up at `deadline`.
ConnectAttempt connect_once(const Address& address, Deadline deadline);

// The numeric address of a connected socket's peer, or "unknown address".
std::string peer_text(int fd);

// Raises the soft RLIMIT_NOFILE to at least `needed` descriptors; kLaunch when the hard
// limit does not allow it.
Status ensure_descriptors(std::uint64_t needed, std::string_view why);

}  // namespace collbench::bootstrap::tcp
