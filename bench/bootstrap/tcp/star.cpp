#include "bench/bootstrap/tcp/star.hpp"

#include <poll.h>

#include <cerrno>
#include <numeric>

#include "bench/bootstrap/tcp/messages.hpp"
#include "common/exit_code.hpp"

namespace collbench::bootstrap::tcp {
namespace {

constexpr std::size_t kRanksNamed = 8;

std::string peer_name(const Peer& peer) {
  return "rank " + std::to_string(peer.rank) + (peer.host.empty() ? "" : " (" + peer.host + ")");
}

Status abort_status(const Peer& peer, const OwnedFrame& frame, const std::string& what) {
  auto notice = decode_abort(frame.payload);
  const int code = notice.ok() ? notice->exit_code : 1;
  return Status::error(code_for_exit(code),
                       peer_name(peer) + " aborted the job (exit code " + std::to_string(code) + ") during " + what);
}

// A rank that left cannot finish the exchange: the same outcome as one that never answers.
Status closed_status(const Peer& peer, const std::string& what) {
  return Status::error(ErrorCode::kTimeout,
                       peer_name(peer) + " closed its connection during " + what + ": it exited or crashed");
}

Status peer_error(const Peer& peer, const std::string& what, const Status& status) {
  return Status::error(status.code(), peer_name(peer) + " during " + what + ": " + status.message());
}

Status missing_status(std::span<Peer> peers, std::span<const std::size_t> open, const Exchange& exchange,
                      std::string_view verb) {
  std::vector<int> ranks;
  for (const std::size_t i : open) ranks.push_back(peers[i].rank);
  const auto host_of = [&](int rank) { return peers[static_cast<std::size_t>(rank - 1)].host; };
  return Status::error(ErrorCode::kTimeout, describe_ranks(ranks, host_of) + " did not " + std::string(verb) + " " +
                                                exchange.what + " within " + format_seconds(exchange.timeout_s) +
                                                " s (" + std::to_string(ranks.size()) + " of " +
                                                std::to_string(peers.size() + 1) + " missing)");
}

// poll() that treats EINTR as "nothing happened".
Status poll_some(std::vector<pollfd>& fds, int timeout_ms) {
  if (poll(fds.data(), fds.size(), timeout_ms) < 0 && errno != EINTR) {
    return Status::error(ErrorCode::kComm, "poll: " + errno_text(errno));
  }
  return ok_status();
}

std::vector<int> ranks_of(std::span<Peer> peers, std::span<const std::size_t> open) {
  std::vector<int> ranks;
  ranks.reserve(open.size());
  for (const std::size_t i : open) ranks.push_back(peers[i].rank);
  return ranks;
}

}  // namespace

ErrorCode code_for_exit(int exit_code) {
  for (auto c = static_cast<int>(ErrorCode::kInternal); c <= static_cast<int>(ErrorCode::kRegression); ++c) {
    const auto code = static_cast<ErrorCode>(c);
    if (static_cast<int>(exit_code_for(Status::error(code, ""))) == exit_code) return code;
  }
  return ErrorCode::kComm;
}

std::string describe_ranks(std::span<const int> ranks, const std::function<std::string(int)>& host_of) {
  std::string out = ranks.size() == 1 ? "rank " : "ranks ";
  for (std::size_t i = 0; i < ranks.size() && i < kRanksNamed; ++i) {
    if (i > 0) out += ", ";
    out += std::to_string(ranks[i]);
    if (host_of) {
      const std::string host = host_of(ranks[i]);
      if (!host.empty()) out += " (" + host + ")";
    }
  }
  if (ranks.size() > kRanksNamed) out += " and " + std::to_string(ranks.size() - kRanksNamed) + " more";
  return out;
}

Result<std::vector<OwnedFrame>> gather(std::span<Peer> peers, const Exchange& exchange, WaitSet& waiting,
                                       const FrameCheck& check) {
  std::vector<OwnedFrame> frames(peers.size());
  std::vector<std::size_t> open(peers.size());
  std::iota(open.begin(), open.end(), std::size_t{0});
  waiting.wait_for(ranks_of(peers, open));
  std::vector<pollfd> fds;
  while (!open.empty()) {
    if (exchange.deadline.passed()) return missing_status(peers, open, exchange, "reach");
    fds.clear();
    for (const std::size_t i : open) fds.push_back(pollfd{peers[i].link.fd(), POLLIN, 0});
    COLLBENCH_RETURN_IF_ERROR(poll_some(fds, exchange.deadline.poll_ms()));
    std::size_t kept = 0;
    for (std::size_t k = 0; k < open.size(); ++k) {
      Peer& peer = peers[open[k]];
      if (fds[k].revents == 0) {
        open[kept++] = open[k];
        continue;
      }
      auto event = peer.link.receive(kMaxPayload);
      if (!event.ok()) return peer_error(peer, exchange.what, event.status());
      const bool broken = (fds[k].revents & (POLLERR | POLLNVAL)) != 0;
      if (*event == Link::Event::kClosed || (*event == Link::Event::kNothing && broken)) {
        return closed_status(peer, exchange.what);
      }
      if (*event == Link::Event::kNothing) {
        open[kept++] = open[k];
        continue;
      }
      OwnedFrame& frame = frames[open[k]] = peer.link.take_frame();
      if (frame.type == FrameType::kAbort) return abort_status(peer, frame, exchange.what);
      COLLBENCH_RETURN_IF_ERROR(check(peer, frame));
      waiting.arrived(peer.rank);
    }
    open.resize(kept);
  }
  waiting.clear();
  return frames;
}

Status flush_all(std::span<Peer> peers, const Exchange& exchange, WaitSet& waiting) {
  std::vector<std::size_t> open;
  for (std::size_t i = 0; i < peers.size(); ++i) {
    if (peers[i].link.has_output()) open.push_back(i);
  }
  waiting.wait_for(ranks_of(peers, open));
  std::vector<pollfd> fds;
  while (!open.empty()) {
    std::size_t kept = 0;
    for (const std::size_t i : open) {
      auto event = peers[i].link.flush();
      if (!event.ok()) return peer_error(peers[i], exchange.what, event.status());
      if (*event == Link::Event::kClosed) return closed_status(peers[i], exchange.what);
      if (peers[i].link.has_output()) {
        open[kept++] = i;
      } else {
        waiting.arrived(peers[i].rank);
      }
    }
    open.resize(kept);
    if (open.empty()) break;
    if (exchange.deadline.passed()) return missing_status(peers, open, exchange, "take the result of");
    fds.clear();
    for (const std::size_t i : open) fds.push_back(pollfd{peers[i].link.fd(), POLLOUT, 0});
    COLLBENCH_RETURN_IF_ERROR(poll_some(fds, exchange.deadline.poll_ms()));
  }
  waiting.clear();
  return ok_status();
}

void send_verdict(std::span<Peer> peers, const Status& status) {
  const auto frame = std::make_shared<const std::vector<std::byte>>(
      encode_frame(FrameType::kError, encode_error(ErrorReply{status.code(), status.message()})));
  std::vector<Peer*> open;
  for (Peer& peer : peers) {
    peer.link.queue(frame);
    open.push_back(&peer);
  }
  // Peers that are gone or slow are skipped: the others still get the verdict.
  const Deadline deadline = Deadline::in(kVerdictSeconds);
  std::vector<pollfd> fds;
  while (!open.empty() && !deadline.passed()) {
    std::erase_if(open, [](Peer* peer) {
      auto event = peer->link.flush();
      return !event.ok() || *event == Link::Event::kClosed || !peer->link.has_output();
    });
    fds.clear();
    for (const Peer* peer : open) fds.push_back(pollfd{peer->link.fd(), POLLOUT, 0});
    if (!open.empty() && !poll_some(fds, deadline.poll_ms()).ok()) return;
  }
}

Result<Awaited> await_frame(Link& link, Deadline deadline, std::uint32_t max_payload, OwnedFrame& frame) {
  while (true) {
    if (link.has_output()) {
      COLLBENCH_ASSIGN_OR_RETURN(const auto sent, link.flush());
      if (sent == Link::Event::kClosed) return Awaited::kClosed;
    }
    COLLBENCH_ASSIGN_OR_RETURN(const auto event, link.receive(max_payload));
    if (event == Link::Event::kClosed) return Awaited::kClosed;
    if (event == Link::Event::kFrame) {
      frame = link.take_frame();
      return Awaited::kFrame;
    }
    if (deadline.passed()) return Awaited::kTimeout;
    std::vector<pollfd> fds{pollfd{link.fd(), static_cast<short>(POLLIN | (link.has_output() ? POLLOUT : 0)), 0}};
    COLLBENCH_RETURN_IF_ERROR(poll_some(fds, deadline.poll_ms()));
  }
}

}  // namespace collbench::bootstrap::tcp
