#include "bench/bootstrap/tcp/rendezvous.hpp"

#include <algorithm>
#include <thread>

namespace collbench::bootstrap::tcp {
namespace {

// One connect attempt gives up after this long, so that with several addresses a silent one
// does not use up the whole timeout; the kernel retransmits a lost SYN within it.
constexpr double kAttemptSeconds = 3.0;
constexpr std::uint32_t kMaxSmallPayload = 64 * 1024;

struct LastFailure {
  ConnectOutcome outcome = ConnectOutcome::kFailed;
  int error = 0;
  bool closed_unanswered = false;  // connected, then closed before any answer
  std::string where;
};

std::string describe_root(const EnvConfig& cfg, const Address& address) {
  return address.text.rfind(cfg.master_addr, 0) == 0 || address.text.rfind("[" + cfg.master_addr, 0) == 0
             ? address.text
             : cfg.master_addr + " (" + address.text + ")";
}

void sleep_until_or(Deadline deadline, std::chrono::milliseconds pause) {
  std::this_thread::sleep_for(std::min(pause, std::chrono::milliseconds(deadline.poll_ms())));
}

// Retries back off to one per second, spread by rank so that thousands do not come in step.
std::chrono::milliseconds backoff(int attempt, int rank) {
  const int base = std::min(1000, 50 << std::min(attempt, 5));
  return std::chrono::milliseconds(base + (rank % 16) * 10);
}

Status connect_failure(const EnvConfig& cfg, const LastFailure& last) {
  const std::string seconds = format_seconds(cfg.timeout_s);
  if (last.closed_unanswered) {
    return Status::error(ErrorCode::kLaunch, last.where +
                                                 " accepted the connection and closed it without "
                                                 "answering for " +
                                                 seconds +
                                                 " s: is MASTER_PORT used by another program than collbench rank 0?");
  }
  switch (last.outcome) {
    case ConnectOutcome::kRefused:
      return Status::error(ErrorCode::kLaunch, "connection to " + last.where + " refused (for " + seconds +
                                                   " s): is rank 0 running, and is MASTER_PORT right?");
    case ConnectOutcome::kNoAnswer:
      return Status::error(ErrorCode::kTimeout, "no answer from " + last.where + " within " + seconds +
                                                    " s: a firewall may be dropping MASTER_PORT, or MASTER_ADDR is "
                                                    "not rank 0's host");
    case ConnectOutcome::kUnreachable:
      return Status::error(ErrorCode::kLaunch, last.where + " is unreachable (" + errno_text(last.error) +
                                                   "): check MASTER_ADDR and the network between the hosts");
    case ConnectOutcome::kConnected:  // not recorded: a connected attempt is kFailed or closed_unanswered
    case ConnectOutcome::kFailed: break;
  }
  return Status::error(ErrorCode::kLaunch, "cannot connect to " + last.where + ": " + errno_text(last.error));
}

// Rank 0 neither welcomed nor turned this rank away in time; `acked`: it had admitted it.
Status no_verdict(const std::string& root, const std::string& seconds, bool acked) {
  if (acked) {
    return Status::error(ErrorCode::kTimeout, "rank 0 at " + root +
                                                  " admitted this rank, but the job did not start within " + seconds +
                                                  " s and rank 0 sent no verdict: is rank 0 stuck?");
  }
  return Status::error(ErrorCode::kTimeout,
                       "no answer from " + root + " within " + seconds +
                           " s after connecting: is the program on MASTER_PORT really collbench rank 0?");
}

// Sends the hello and waits for rank 0's answer. nullopt: the connection closed before any
// answer, so the caller tries again.
Result<std::optional<RankJoin>> say_hello(const EnvConfig& cfg, Fd fd, const std::string& root, Deadline deadline) {
  Link link(std::move(fd));
  link.queue_frame(FrameType::kHello,
                   encode_hello(Hello{cfg.token, static_cast<std::uint32_t>(cfg.world_size),
                                      static_cast<std::uint32_t>(cfg.rank), cfg.local_rank.value_or(-1), cfg.host}));
  const std::string seconds = format_seconds(cfg.timeout_s);
  bool acked = false;
  Deadline wait = deadline;
  while (true) {
    OwnedFrame frame;
    COLLBENCH_ASSIGN_OR_RETURN(const Awaited got, await_frame(link, wait, kMaxSmallPayload, frame));
    if (got == Awaited::kClosed && !acked) return std::optional<RankJoin>();
    if (got == Awaited::kClosed) {
      return Status::error(ErrorCode::kLaunch,
                           "rank 0 at " + root + " closed the connection before the job started: it exited or crashed");
    }
    if (got == Awaited::kTimeout) return no_verdict(root, seconds, acked);
    switch (frame.type) {
      case FrameType::kAck: {
        COLLBENCH_ASSIGN_OR_RETURN(const Ack ack, decode_ack(frame.payload));
        acked = true;
        // Rank 0 names the missing ranks when it gives up: wait long enough to hear it.
        wait = deadline.later(Deadline::in(ack.remaining_ms / 1000.0 + kVerdictSeconds));
        continue;
      }
      case FrameType::kWelcome: {
        COLLBENCH_ASSIGN_OR_RETURN(const Welcome welcome, decode_welcome(frame.payload));
        return std::optional<RankJoin>(RankJoin{std::move(link), root, welcome});
      }
      case FrameType::kError: {
        COLLBENCH_ASSIGN_OR_RETURN(const ErrorReply error, decode_error(frame.payload));
        return Status::error(error.code, (acked ? "rank 0 at " + root + " gave up: "
                                                : "rank 0 at " + root + " turned this rank away: ") +
                                             error.message);
      }
      case FrameType::kAbort:
        return Status::error(ErrorCode::kLaunch, "rank 0 at " + root + " aborted the job before it started");
      case FrameType::kHello:
      case FrameType::kData: break;  // not rank 0's to send before its welcome
    }
    return Status::error(ErrorCode::kComm, "protocol error: rank 0 at " + root + " sent an unexpected " +
                                               std::string(frame_type_name(frame.type)) + " frame");
  }
}

}  // namespace

Result<RankJoin> join_rendezvous(const EnvConfig& cfg, Deadline deadline) {
  COLLBENCH_ASSIGN_OR_RETURN(const auto addresses, resolve(cfg.master_addr, cfg.master_port, deadline));
  if (cfg.stagger_ms > 0) {
    const auto delay = static_cast<std::uint64_t>(cfg.stagger_ms) * static_cast<std::uint64_t>(cfg.rank) /
                       static_cast<std::uint64_t>(cfg.world_size);
    sleep_until_or(deadline, std::chrono::milliseconds(delay));
  }
  LastFailure last;
  for (int attempt = 0;; ++attempt) {
    for (const Address& address : addresses) {
      last = LastFailure{ConnectOutcome::kFailed, 0, false, describe_root(cfg, address)};
      ConnectAttempt c = connect_once(address, deadline.earlier(Deadline::in(kAttemptSeconds)));
      if (c.outcome == ConnectOutcome::kConnected) {
        COLLBENCH_ASSIGN_OR_RETURN(auto joined, say_hello(cfg, std::move(c.fd), last.where, deadline));
        if (joined) return std::move(*joined);
        last.closed_unanswered = true;
      } else {
        last.outcome = c.outcome;
        last.error = c.error;
      }
      if (deadline.passed()) return connect_failure(cfg, last);
    }
    sleep_until_or(deadline, backoff(attempt, cfg.rank));
    if (deadline.passed()) return connect_failure(cfg, last);
  }
}

}  // namespace collbench::bootstrap::tcp
