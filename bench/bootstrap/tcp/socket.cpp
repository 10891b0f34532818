#include "bench/bootstrap/tcp/socket.hpp"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>

#include "common/deadline.hpp"

namespace collbench::bootstrap::tcp {
namespace {

void set_no_delay(int fd) {
  const int one = 1;
  (void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

std::string address_text(const sockaddr* addr, socklen_t length) {
  std::array<char, NI_MAXHOST> host{};
  std::array<char, NI_MAXSERV> port{};
  if (getnameinfo(addr, length, host.data(), host.size(), port.data(), port.size(), NI_NUMERICHOST | NI_NUMERICSERV) !=
      0) {
    return "unknown address";
  }
  std::string text(host.data());
  // A v4-mapped IPv6 peer of the dual-stack listener reads better as plain IPv4.
  if (text.rfind("::ffff:", 0) == 0 && text.find('.') != std::string::npos) text = text.substr(7);
  if (text.find(':') != std::string::npos) text = "[" + text + "]";
  return text + ":" + port.data();
}

Result<Fd> listen_family(int family, std::uint16_t port) {
  Fd fd(socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  if (!fd.valid()) return Status::error(ErrorCode::kLaunch, "socket: " + errno_text(errno));
  const int one = 1;
  const int zero = 0;
  (void)setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_storage storage{};
  socklen_t length = 0;
  if (family == AF_INET6) {
    (void)setsockopt(fd.get(), IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof zero);
    auto* a = reinterpret_cast<sockaddr_in6*>(&storage);
    a->sin6_family = AF_INET6;
    a->sin6_addr = in6addr_any;
    a->sin6_port = htons(port);
    length = sizeof(sockaddr_in6);
  } else {
    auto* a = reinterpret_cast<sockaddr_in*>(&storage);
    a->sin_family = AF_INET;
    a->sin_addr.s_addr = htonl(INADDR_ANY);
    a->sin_port = htons(port);
    length = sizeof(sockaddr_in);
  }
  if (bind(fd.get(), reinterpret_cast<const sockaddr*>(&storage), length) != 0) {
    const int err = errno;
    std::string message = "rank 0 cannot listen on MASTER_PORT " + std::to_string(port) + ": " + errno_text(err);
    if (err == EADDRINUSE) message += " (another job or program holds the port: pick another MASTER_PORT)";
    if (err == EACCES) message += " (ports below 1024 need privileges: pick another MASTER_PORT)";
    return Status::error(ErrorCode::kLaunch, message);
  }
  if (listen(fd.get(), SOMAXCONN) != 0) {
    return Status::error(ErrorCode::kLaunch,
                         "listen on MASTER_PORT " + std::to_string(port) + ": " + errno_text(errno));
  }
  return fd;
}

struct FreeAddrInfo {
  void operator()(addrinfo* list) const { freeaddrinfo(list); }
};

struct Lookup {
  int rc = 0;
  int error = 0;
  bool timed_out = false;
  std::unique_ptr<addrinfo, FreeAddrInfo> list;
};

// getaddrinfo() cannot be interrupted and waits for a silent name server far longer than a
// short timeout, so it runs on a helper thread that is left behind at the deadline (its
// result is freed with the state the two threads share).
Lookup lookup(const std::string& host, const std::string& service, Deadline deadline) {
  struct Shared {
    std::mutex mutex;
    std::condition_variable done_cv;
    bool done = false;
    Lookup result;
  };
  auto shared = std::make_shared<Shared>();
  const auto work = [shared, host, service] {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* list = nullptr;
    const int rc = getaddrinfo(host.c_str(), service.c_str(), &hints, &list);
    const int error = errno;
    const std::lock_guard lock(shared->mutex);
    shared->result = Lookup{rc, error, false, std::unique_ptr<addrinfo, FreeAddrInfo>(rc == 0 ? list : nullptr)};
    shared->done = true;
    shared->done_cv.notify_all();
  };
  try {
    std::thread(work).detach();
  } catch (const std::system_error&) {
    work();  // no thread to be had: resolve in place
  }
  std::unique_lock lock(shared->mutex);
  if (!shared->done_cv.wait_until(lock, deadline.when(), [&] { return shared->done; })) {
    Lookup late;
    late.timed_out = true;
    return late;
  }
  return std::move(shared->result);
}

ConnectOutcome classify(int error) {
  switch (error) {
    case ECONNREFUSED: return ConnectOutcome::kRefused;
    case ETIMEDOUT: return ConnectOutcome::kNoAnswer;
    case EHOSTUNREACH:
    case ENETUNREACH:
    case EHOSTDOWN:
    case ENETDOWN: return ConnectOutcome::kUnreachable;
    default: return ConnectOutcome::kFailed;
  }
}

}  // namespace

Fd& Fd::operator=(Fd&& other) noexcept {
  if (this != &other) {
    reset();
    fd_ = other.release();
  }
  return *this;
}

void Fd::reset() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

Deadline Deadline::in(double seconds) { return Deadline(deadline_after(Clock::now(), seconds)); }

double Deadline::remaining_s() const {
  return std::max(0.0, std::chrono::duration<double>(when_ - Clock::now()).count());
}

int Deadline::poll_ms(int cap) const {
  const double ms = std::ceil(remaining_s() * 1000.0);
  return static_cast<int>(std::min(ms, static_cast<double>(cap)));
}

std::string errno_text(int error) { return std::generic_category().message(error); }

std::string format_seconds(double seconds) {
  std::array<char, 32> buffer{};
  const double rounded = std::round(seconds * 100.0) / 100.0;
  const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), rounded);
  return std::string(buffer.data(), result.ptr);
}

Result<Fd> listen_on_port(std::uint16_t port) {
  // Without IPv6 in this kernel, IPv4 alone.
  const Fd probe(socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0));
  return listen_family(probe.valid() ? AF_INET6 : AF_INET, port);
}

Result<std::vector<Address>> resolve(const std::string& host, std::uint16_t port, Deadline deadline) {
  const std::string service = std::to_string(port);
  Lookup found;
  while ((found = lookup(host, service, deadline)).rc == EAI_AGAIN && !deadline.passed()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(std::min(200, deadline.poll_ms())));
  }
  if (found.timed_out) {
    return Status::error(ErrorCode::kTimeout, "MASTER_ADDR '" + host + "' did not resolve within the timeout: " +
                                                  "the name server does not answer");
  }
  if (found.rc != 0) {
    const std::string why = found.rc == EAI_SYSTEM ? errno_text(found.error) : gai_strerror(found.rc);
    return Status::error(ErrorCode::kLaunch, "MASTER_ADDR '" + host + "' does not resolve: " + why);
  }
  std::vector<Address> out;
  for (const addrinfo* ai = found.list.get(); ai != nullptr; ai = ai->ai_next) {
    if (ai->ai_addrlen > sizeof(sockaddr_storage)) continue;
    Address address;
    std::copy_n(reinterpret_cast<const std::byte*>(ai->ai_addr), ai->ai_addrlen,
                reinterpret_cast<std::byte*>(&address.storage));
    address.length = ai->ai_addrlen;
    address.text = address_text(ai->ai_addr, ai->ai_addrlen);
    out.push_back(std::move(address));
  }
  if (out.empty()) return Status::error(ErrorCode::kLaunch, "MASTER_ADDR '" + host + "' has no TCP address");
  return out;
}

ConnectAttempt connect_once(const Address& address, Deadline deadline) {
  ConnectAttempt attempt;
  Fd fd(socket(address.storage.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  if (!fd.valid()) {
    attempt.error = errno;
    return attempt;
  }
  int rc = connect(fd.get(), reinterpret_cast<const sockaddr*>(&address.storage), address.length);
  if (rc != 0 && errno != EINPROGRESS && errno != EINTR) {
    attempt.error = errno;
    attempt.outcome = classify(errno);
    return attempt;
  }
  if (rc != 0) {
    pollfd p{fd.get(), POLLOUT, 0};
    while ((rc = poll(&p, 1, deadline.poll_ms())) < 0 && errno == EINTR) {
    }
    if (rc == 0) {
      attempt.error = ETIMEDOUT;
      attempt.outcome = ConnectOutcome::kNoAnswer;
      return attempt;
    }
    int error = 0;
    socklen_t length = sizeof error;
    // poll() failed, or it reports the connection's own error through SO_ERROR.
    if (rc < 0 || getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &error, &length) != 0) error = errno;
    if (error != 0) {
      attempt.error = error;
      attempt.outcome = classify(error);
      return attempt;
    }
  }
  set_no_delay(fd.get());
  attempt.fd = std::move(fd);
  attempt.outcome = ConnectOutcome::kConnected;
  return attempt;
}

std::string peer_text(int fd) {
  sockaddr_storage storage{};
  socklen_t length = sizeof storage;
  if (getpeername(fd, reinterpret_cast<sockaddr*>(&storage), &length) != 0) return "unknown address";
  return address_text(reinterpret_cast<const sockaddr*>(&storage), length);
}

Status ensure_descriptors(std::uint64_t needed, std::string_view why) {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return ok_status();
  if (limit.rlim_cur == RLIM_INFINITY || limit.rlim_cur >= needed) return ok_status();
  if (limit.rlim_max != RLIM_INFINITY && limit.rlim_max < needed) {
    return Status::error(ErrorCode::kLaunch, std::string(why) + " needs " + std::to_string(needed) +
                                                 " open files but the limit (ulimit -n) is " +
                                                 std::to_string(limit.rlim_max) + ": raise it, e.g. ulimit -n " +
                                                 std::to_string(std::max<std::uint64_t>(needed, 65536)));
  }
  limit.rlim_cur = needed;
  if (setrlimit(RLIMIT_NOFILE, &limit) != 0) {
    return Status::error(ErrorCode::kLaunch, "cannot raise the open-file limit to " + std::to_string(needed) + " for " +
                                                 std::string(why) + ": " + errno_text(errno));
  }
  return ok_status();
}

}  // namespace collbench::bootstrap::tcp
