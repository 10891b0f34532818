#include "bench/bootstrap/tcp/rendezvous.hpp"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>

#include <cerrno>
#include <optional>
#include <unordered_map>

namespace collbench::bootstrap::tcp {
namespace {

constexpr std::size_t kNotesShown = 4;
// Descriptors rank 0 needs beyond one per rank: stdio, the listener, log files, strays.
constexpr std::uint64_t kSpareDescriptors = 64;

struct Verdict {
  std::string to_rank;  // what the turned-away rank is told
  std::string note;     // what rank 0 reports if the job then fails
};

std::vector<Welcome> local_places(const std::vector<std::string>& hosts) {
  std::unordered_map<std::string, std::uint32_t> count;
  std::vector<Welcome> places(hosts.size());
  for (std::size_t r = 0; r < hosts.size(); ++r) places[r].local_rank = count[hosts[r]]++;
  for (std::size_t r = 0; r < hosts.size(); ++r) places[r].local_size = count[hosts[r]];
  return places;
}

class Server {
 public:
  Server(const EnvConfig& cfg, Fd listener, Deadline deadline)
      : cfg_(cfg), listener_(std::move(listener)), deadline_(deadline),
        joined_(static_cast<std::size_t>(cfg.world_size)), hosts_(static_cast<std::size_t>(cfg.world_size)) {
    hosts_[0] = cfg.host;
  }

  Result<RootJoin> run() {
    std::vector<pollfd> fds;
    std::vector<int> joined_order;
    while (joined_count_ < cfg_.world_size - 1) {
      if (deadline_.passed()) return give_up();
      fds.assign(1, pollfd{listener_.get(), POLLIN, 0});
      for (const Pending& p : pending_) fds.push_back(pollfd{p.link.fd(), POLLIN, 0});
      joined_order.clear();
      for (int r = 1; r < cfg_.world_size; ++r) {
        if (!joined_[static_cast<std::size_t>(r)].valid()) continue;
        joined_order.push_back(r);
        fds.push_back(pollfd{joined_[static_cast<std::size_t>(r)].fd(), POLLIN, 0});
      }
      if (poll(fds.data(), fds.size(), deadline_.poll_ms()) < 0 && errno != EINTR) {
        return Status::error(ErrorCode::kLaunch, "poll: " + errno_text(errno));
      }
      const std::size_t pending_count = pending_.size();
      if (fds[0].revents != 0) accept_new();
      for (std::size_t k = 0; k < pending_count; ++k) {
        if (fds[1 + k].revents != 0) on_pending(pending_[k], (fds[1 + k].revents & (POLLERR | POLLNVAL)) != 0);
      }
      for (std::size_t k = 0; k < joined_order.size(); ++k) {
        if (fds[1 + pending_count + k].revents != 0) on_joined_event(joined_order[k]);
      }
      std::erase_if(pending_, [](const Pending& p) { return p.done; });
    }
    return welcome_all();
  }

 private:
  struct Pending {
    Link link;
    std::string from;
    bool done = false;
  };

  void accept_new() {
    while (true) {
      const int fd = accept4(listener_.get(), nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (fd < 0) {
        if (errno == EINTR || errno == ECONNABORTED) continue;
        return;  // EAGAIN: all taken; EMFILE and the like: the next round retries
      }
      const int one = 1;
      (void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      pending_.push_back(Pending{Link(Fd(fd)), peer_text(fd)});
    }
  }

  void on_pending(Pending& p, bool broken) {
    auto event = p.link.receive(kMaxHelloPayload);
    if (!event.ok()) {
      note("a connection from " + p.from + " was turned away: " + event.status().message(),
           event.status().code() == ErrorCode::kLaunch);
      if (event.status().code() == ErrorCode::kLaunch) reply_error(p.link, event.status().message());
      p.done = true;
      return;
    }
    if (*event == Link::Event::kClosed || (*event == Link::Event::kNothing && broken)) p.done = true;
    if (*event != Link::Event::kFrame) return;
    p.done = true;
    const OwnedFrame frame = p.link.take_frame();
    auto hello = frame.type == FrameType::kHello ? decode_hello(frame.payload)
                                                 : Result<Hello>(Status::error(ErrorCode::kComm, "no hello"));
    if (!hello.ok()) {
      note("a connection from " + p.from + " was turned away: it sent a " + std::string(frame_type_name(frame.type)) +
           " frame that is not a valid hello");
      return;
    }
    if (auto verdict = check(*hello, p.from)) {
      note(verdict->note, true);
      reply_error(p.link, verdict->to_rank);
      return;
    }
    admit(*hello, std::move(p.link));
  }

  std::optional<Verdict> check(const Hello& hello, const std::string& from) const {
    const std::string who = "rank " + std::to_string(hello.rank) + " (" + hello.host + ", " + from + ")";
    const std::string size = std::to_string(cfg_.world_size);
    if (hello.world_size != static_cast<std::uint32_t>(cfg_.world_size)) {
      const std::string theirs = std::to_string(hello.world_size);
      return Verdict{"rank 0 has WORLD_SIZE=" + size + " but this rank has WORLD_SIZE=" + theirs +
                         ": start every rank with the same WORLD_SIZE",
                     who + " was turned away: it has WORLD_SIZE=" + theirs + ", rank 0 has WORLD_SIZE=" + size};
    }
    if (hello.token != cfg_.token) {
      return Verdict{"the job token differs (rank 0's is " + cfg_.token + ", from " + cfg_.token_source +
                         "; this rank's is " + hello.token +
                         "): set the same COLLBENCH_TOKEN and job variables on every rank; or this rank belongs "
                         "to another job that uses the same MASTER_ADDR:MASTER_PORT",
                     who + " was turned away: its job token differs (another job, or a different COLLBENCH_TOKEN)"};
    }
    if (hello.rank == 0 || hello.rank >= static_cast<std::uint32_t>(cfg_.world_size)) {
      return Verdict{"RANK=" + std::to_string(hello.rank) + " is " +
                         (hello.rank == 0 ? "rank 0's own: two processes were started with RANK=0"
                                          : "out of range for WORLD_SIZE=" + size),
                     who + " was turned away: RANK=" + std::to_string(hello.rank) + " is a duplicate or out of range"};
    }
    const auto r = static_cast<std::size_t>(hello.rank);
    if (joined_[r].valid()) {
      return Verdict{"rank " + std::to_string(r) + " already joined from host " + hosts_[r] +
                         ": two processes were started with RANK=" + std::to_string(r),
                     who + " was turned away: rank " + std::to_string(r) + " had already joined from " + hosts_[r]};
    }
    return std::nullopt;
  }

  void admit(const Hello& hello, Link link) {
    const auto r = static_cast<std::size_t>(hello.rank);
    const auto remaining_ms = static_cast<std::uint32_t>(deadline_.poll_ms(INT32_MAX));
    link.queue_frame(FrameType::kAck, encode_ack(Ack{remaining_ms}));
    auto sent = link.flush();
    if (!sent.ok() || *sent == Link::Event::kClosed) return;
    joined_[r] = std::move(link);
    hosts_[r] = hello.host;
    ++joined_count_;
  }

  // A joined rank is only expected to wait; anything it sends or a close means it left.
  void on_joined_event(int rank) {
    Link& link = joined_[static_cast<std::size_t>(rank)];
    auto event = link.receive(kMaxHelloPayload);
    if (event.ok() && *event == Link::Event::kNothing) return;
    const bool aborted = event.ok() && *event == Link::Event::kFrame && link.take_frame().type == FrameType::kAbort;
    note("rank " + std::to_string(rank) + " (" + hosts_[static_cast<std::size_t>(rank)] + ") joined, then " +
         (aborted ? "aborted" : "closed its connection"));
    link = Link();
    --joined_count_;
  }

  void reply_error(Link& link, const std::string& message) {
    link.queue_frame(FrameType::kError, encode_error(ErrorReply{ErrorCode::kLaunch, message}));
    (void)link.flush();  // small, on a fresh socket: best effort without waiting
  }

  // `turned_away`: a rank of this job was refused, which makes the failure a launch error.
  void note(std::string text, bool turned_away = false) {
    turned_away_ = turned_away_ || turned_away;
    if (notes_.size() < kNotesShown) notes_.push_back(std::move(text));
    ++notes_total_;
  }

  std::vector<Peer> joined_peers() {
    std::vector<Peer> peers;
    for (int r = 1; r < cfg_.world_size; ++r) {
      const auto i = static_cast<std::size_t>(r);
      if (joined_[i].valid()) peers.push_back(Peer{r, hosts_[i], std::move(joined_[i])});
    }
    return peers;
  }

  Status give_up() {
    std::vector<int> missing;
    for (int r = 1; r < cfg_.world_size; ++r) {
      if (!joined_[static_cast<std::size_t>(r)].valid()) missing.push_back(r);
    }
    std::string message = describe_ranks(missing) + " did not join within " + format_seconds(cfg_.timeout_s) + " s (" +
                          std::to_string(missing.size()) + " of " + std::to_string(cfg_.world_size) + " missing)";
    for (const std::string& n : notes_) message += "; " + n;
    if (notes_total_ > notes_.size()) message += "; and " + std::to_string(notes_total_ - notes_.size()) + " more";
    if (joined_count_ == 0 && notes_total_ == 0) {
      message += "; no rank connected to port " + std::to_string(cfg_.master_port) +
                 " at all: are the other ranks running, with MASTER_ADDR naming this host, and does a firewall "
                 "allow the port?";
    }
    Status status = Status::error(turned_away_ ? ErrorCode::kLaunch : ErrorCode::kTimeout, message);
    auto peers = joined_peers();
    send_verdict(peers, status);
    return status;
  }

  Result<RootJoin> welcome_all() {
    const auto places = local_places(hosts_);
    RootJoin join{joined_peers(), places[0]};
    for (Peer& peer : join.peers) {
      peer.link.queue_frame(FrameType::kWelcome, encode_welcome(places[static_cast<std::size_t>(peer.rank)]));
    }
    WaitSet waiting;
    COLLBENCH_RETURN_IF_ERROR(
        flush_all(join.peers, Exchange{"the rendezvous", Deadline::in(cfg_.timeout_s), cfg_.timeout_s}, waiting));
    return join;
  }

  const EnvConfig& cfg_;
  Fd listener_;
  Deadline deadline_;
  std::vector<Pending> pending_;
  std::vector<Link> joined_;  // by rank; invalid until the rank has joined
  std::vector<std::string> hosts_;
  int joined_count_ = 0;
  std::vector<std::string> notes_;
  std::size_t notes_total_ = 0;
  bool turned_away_ = false;
};

}  // namespace

Result<RootJoin> serve_rendezvous(const EnvConfig& cfg, Deadline deadline) {
  if (cfg.world_size == 1) return RootJoin{{}, Welcome{0, 1}};
  COLLBENCH_RETURN_IF_ERROR(ensure_descriptors(static_cast<std::uint64_t>(cfg.world_size) + kSpareDescriptors,
                                               "rank 0 of WORLD_SIZE=" + std::to_string(cfg.world_size)));
  COLLBENCH_ASSIGN_OR_RETURN(Fd listener, listen_on_port(cfg.master_port));
  return Server(cfg, std::move(listener), deadline).run();
}

}  // namespace collbench::bootstrap::tcp
