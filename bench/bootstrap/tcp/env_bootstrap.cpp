#include "bench/bootstrap/tcp/env_bootstrap.hpp"

#include <sys/socket.h>

#include <bit>
#include <cstdlib>
#include <cstring>
#include <functional>

#include "bench/bootstrap/bootstrap_entry.hpp"
#include "bench/bootstrap/tcp/messages.hpp"
#include "bench/bootstrap/tcp/rendezvous.hpp"

namespace collbench::bootstrap {
namespace {

using tcp::Deadline;
using tcp::Step;
using tcp::StepKind;

// Each rank's contribution to one step, in rank order (rank 0's own first).
using Parts = std::vector<std::span<const std::byte>>;
using Combine = std::function<Result<std::vector<std::byte>>(const Parts&)>;

// Room for the data frame's own header within kMaxPayload.
constexpr std::uint64_t kMaxData = tcp::kMaxPayload - 64;

std::uint64_t expected_data(const Step& step, int rank) {
  switch (step.kind) {
    case StepKind::kBarrier: return 0;
    case StepKind::kBroadcast: return static_cast<std::uint32_t>(rank) == step.root ? step.block : 0;
    case StepKind::kAllgather:
    case StepKind::kAllreduce: return step.block;
  }
  return step.block;  // a kind outside the enum (decode_data refuses those)
}

std::uint64_t expected_result(const Step& step, int world_size) {
  switch (step.kind) {
    case StepKind::kBarrier: return 0;
    case StepKind::kAllgather: return step.block * static_cast<std::uint64_t>(world_size);
    case StepKind::kBroadcast:
    case StepKind::kAllreduce: return step.block;
  }
  return step.block;  // a kind outside the enum (decode_data refuses those)
}

Status within_limit(std::uint64_t bytes, std::string_view what) {
  if (bytes <= kMaxData) return ok_status();
  return Status::error(ErrorCode::kInternal, "bootstrap " + std::string(what) + " of " + std::to_string(bytes) +
                                                 " bytes exceeds the env bootstrap's limit of " +
                                                 std::to_string(kMaxData) + " bytes");
}

std::vector<std::byte> to_bytes(std::span<const double> values) {
  std::vector<std::byte> out(values.size() * 8);
  for (std::size_t i = 0; i < values.size(); ++i) {
    const auto bits = std::bit_cast<std::uint64_t>(values[i]);
    for (std::size_t b = 0; b < 8; ++b) out[8 * i + b] = static_cast<std::byte>((bits >> (8 * b)) & 0xffu);
  }
  return out;
}

double double_at(std::span<const std::byte> bytes, std::size_t i) {
  std::uint64_t bits = 0;
  for (std::size_t b = 0; b < 8; ++b) bits |= static_cast<std::uint64_t>(bytes[8 * i + b]) << (8 * b);
  return std::bit_cast<double>(bits);
}

using Fold = double (*)(double, double);

// A Result of a bare function pointer trips -Wshadow in Result's constructor, hence the wrapper.
struct Reducer {
  Fold fold;
};

Result<Reducer> reducer(ReduceOp op) {
  switch (op) {
    case ReduceOp::kSum:
    case ReduceOp::kAvg: return Reducer{[](double a, double b) { return a + b; }};
    case ReduceOp::kProd: return Reducer{[](double a, double b) { return a * b; }};
    case ReduceOp::kMin: return Reducer{[](double a, double b) { return b < a ? b : a; }};
    case ReduceOp::kMax: return Reducer{[](double a, double b) { return b > a ? b : a; }};
    case ReduceOp::kPreMulSum: break;  // needs a scalar the control reduction does not carry
  }
  return Status::error(ErrorCode::kUnsupported, "the env bootstrap's allreduce does sum, prod, min, max and avg, not " +
                                                    std::string(to_string(op)));
}

// Rank order on rank 0 alone, so every rank gets the very same bits.
std::vector<std::byte> reduce(const Parts& parts, ReduceOp op, Fold fold) {
  const std::size_t count = parts[0].size() / 8;
  std::vector<double> acc(count);
  for (std::size_t i = 0; i < count; ++i) acc[i] = double_at(parts[0], i);
  for (std::size_t r = 1; r < parts.size(); ++r) {
    for (std::size_t i = 0; i < count; ++i) acc[i] = fold(acc[i], double_at(parts[r], i));
  }
  if (op == ReduceOp::kAvg) {
    for (double& v : acc) v /= static_cast<double>(parts.size());
  }
  return to_bytes(acc);
}

class EnvBootstrap final : public Bootstrap {
 public:
  struct Links {
    std::vector<tcp::Peer> peers;  // rank 0: every other rank
    tcp::Link root;                // other ranks: rank 0
    std::string root_name;
  };

  EnvBootstrap(EnvConfig cfg, tcp::Welcome place, Links links)
      : cfg_(std::move(cfg)), local_rank_(cfg_.local_rank.value_or(static_cast<int>(place.local_rank))),
        local_size_(cfg_.local_world_size.value_or(static_cast<int>(place.local_size))), links_(std::move(links)) {
    for (const tcp::Peer& peer : links_.peers) abort_fds_.push_back(peer.link.fd());
    if (links_.root.valid()) abort_fds_.push_back(links_.root.fd());
  }

  std::string_view name() const override { return "env"; }
  int rank() const override { return cfg_.rank; }
  int size() const override { return cfg_.world_size; }
  int local_rank() const override { return local_rank_; }
  int local_size() const override { return local_size_; }
  std::vector<int> missing_ranks() const override { return waiting_.pending(); }

  Status barrier() override {
    return run(Step{StepKind::kBarrier, 0, 0, 0, 0}, {}, [](const Parts&) { return std::vector<std::byte>(); })
        .status();
  }

  Status allgather(std::span<const std::byte> mine, std::span<std::byte> all) override {
    if (all.size() != mine.size() * static_cast<std::size_t>(size())) {
      return Status::error(ErrorCode::kInternal, "allgather: receive size mismatch");
    }
    COLLBENCH_RETURN_IF_ERROR(within_limit(all.size(), "allgather"));
    const auto concat = [](const Parts& parts) {
      std::vector<std::byte> out;
      for (const auto& part : parts) out.insert(out.end(), part.begin(), part.end());
      return Result<std::vector<std::byte>>(std::move(out));
    };
    COLLBENCH_ASSIGN_OR_RETURN(const auto result, run(Step{StepKind::kAllgather, 0, 0, 0, mine.size()}, mine, concat));
    if (!result.empty()) std::memcpy(all.data(), result.data(), result.size());
    return ok_status();
  }

  Status broadcast(std::span<std::byte> data, int root) override {
    if (root < 0 || root >= size()) {
      return Status::error(ErrorCode::kInternal, "broadcast: root " + std::to_string(root) + " is not a rank");
    }
    COLLBENCH_RETURN_IF_ERROR(within_limit(data.size(), "broadcast"));
    const auto from_root = [root](const Parts& parts) {
      const auto part = parts[static_cast<std::size_t>(root)];
      return Result<std::vector<std::byte>>(std::vector<std::byte>(part.begin(), part.end()));
    };
    const Step step{StepKind::kBroadcast, 0, 0, static_cast<std::uint32_t>(root), data.size()};
    COLLBENCH_ASSIGN_OR_RETURN(
        const auto result,
        run(step, rank() == root ? std::span<const std::byte>(data) : std::span<const std::byte>(), from_root));
    if (rank() != root && !result.empty()) std::memcpy(data.data(), result.data(), result.size());
    return ok_status();
  }

  Status allreduce(std::span<double> values, ReduceOp op) override {
    COLLBENCH_ASSIGN_OR_RETURN(const Reducer r, reducer(op));
    const Fold fold = r.fold;
    COLLBENCH_RETURN_IF_ERROR(within_limit(values.size() * 8, "allreduce"));
    const auto mine = to_bytes(values);
    const auto combine = [op, fold](const Parts& parts) {
      return Result<std::vector<std::byte>>(reduce(parts, op, fold));
    };
    const Step step{StepKind::kAllreduce, static_cast<std::uint8_t>(op), 0, 0, mine.size()};
    COLLBENCH_ASSIGN_OR_RETURN(const auto result, run(step, mine, combine));
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = double_at(result, i);
    return ok_status();
  }

  // Best effort: each peer is told, then every connection is shut so that the peers see the
  // end at once even if the ABORT frame was lost. Touches only descriptors, which stay valid
  // for the object's life, so a watchdog thread may call it while an operation is running.
  [[noreturn]] void abort(int exit_code) override {
    const auto frame = tcp::encode_frame(tcp::FrameType::kAbort, tcp::encode_abort(tcp::AbortNotice{exit_code}));
    for (const int fd : abort_fds_) {
      (void)send(fd, frame.data(), frame.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
      (void)shutdown(fd, SHUT_RDWR);
    }
    std::_Exit(exit_code);
  }

 private:
  // One bounded step on this rank; after a failure every later step fails at once, because
  // the ranks no longer agree on where they are.
  Result<std::vector<std::byte>> run(Step step, std::span<const std::byte> mine, const Combine& combine) {
    if (!failed_.ok()) {
      return Status::error(failed_.code(), "the env bootstrap failed earlier: " + failed_.message());
    }
    step.seq = seq_++;
    auto result = rank() == 0 ? run_root(step, mine, combine) : run_rank(step, mine);
    waiting_.clear();
    if (!result.ok()) {
      failed_ = result.status();
      if (rank() == 0) tcp::send_verdict(links_.peers, failed_);
    }
    return result;
  }

  Result<std::vector<std::byte>> run_root(const Step& step, std::span<const std::byte> mine, const Combine& combine) {
    const std::string what = tcp::describe(step);
    const auto check = [&](const tcp::Peer& peer, const tcp::OwnedFrame& frame) -> Status {
      const std::string who = "rank " + std::to_string(peer.rank) + " (" + peer.host + ")";
      if (frame.type != tcp::FrameType::kData) {
        return Status::error(ErrorCode::kComm, "protocol error: " + who + " sent a " +
                                                   std::string(tcp::frame_type_name(frame.type)) + " frame during " +
                                                   what);
      }
      COLLBENCH_ASSIGN_OR_RETURN(const tcp::DataView view, tcp::decode_data(frame.payload));
      if (!(view.step == step)) {
        return Status::error(ErrorCode::kInternal, who + " is in " + tcp::describe(view.step) + " while rank 0 is in " +
                                                       what + ": the ranks called different bootstrap operations");
      }
      if (view.data.size() != expected_data(step, peer.rank)) {
        return Status::error(ErrorCode::kComm, "protocol error: " + who + " sent " + std::to_string(view.data.size()) +
                                                   " bytes for " + what);
      }
      return ok_status();
    };
    const tcp::Exchange gathering{what, Deadline::in(cfg_.timeout_s), cfg_.timeout_s};
    COLLBENCH_ASSIGN_OR_RETURN(const auto frames, tcp::gather(links_.peers, gathering, waiting_, check));
    Parts parts{mine};
    for (const auto& frame : frames) parts.push_back(tcp::decode_data(frame.payload)->data);
    COLLBENCH_ASSIGN_OR_RETURN(auto result, combine(parts));
    const auto reply = std::make_shared<const std::vector<std::byte>>(
        tcp::encode_frame(tcp::FrameType::kData, tcp::encode_data(step, result)));
    for (tcp::Peer& peer : links_.peers) peer.link.queue(reply);
    const tcp::Exchange answering{what, Deadline::in(cfg_.timeout_s), cfg_.timeout_s};
    COLLBENCH_RETURN_IF_ERROR(tcp::flush_all(links_.peers, answering, waiting_));
    return result;
  }

  Result<std::vector<std::byte>> run_rank(const Step& step, std::span<const std::byte> mine) {
    const std::string what = tcp::describe(step);
    const std::string root = "rank 0 at " + links_.root_name;
    links_.root.queue_frame(tcp::FrameType::kData, tcp::encode_data(step, mine));
    waiting_.wait_for({0});
    // A little past the timeout, to hear rank 0's verdict naming the ranks it misses.
    const Deadline deadline = Deadline::in(cfg_.timeout_s + tcp::kVerdictSeconds);
    tcp::OwnedFrame frame;
    COLLBENCH_ASSIGN_OR_RETURN(const auto got, tcp::await_frame(links_.root, deadline, tcp::kMaxPayload, frame));
    if (got == tcp::Awaited::kClosed) {
      return Status::error(ErrorCode::kTimeout,
                           root + " closed the connection during " + what + ": it exited or crashed");
    }
    if (got == tcp::Awaited::kTimeout) {
      return Status::error(ErrorCode::kTimeout, root + " did not complete " + what + " within " +
                                                    tcp::format_seconds(cfg_.timeout_s) +
                                                    " s (rank 0 itself may be stuck, or waiting for other ranks)");
    }
    return read_reply(step, frame, root, what);
  }

  Result<std::vector<std::byte>> read_reply(const Step& step, const tcp::OwnedFrame& frame, const std::string& root,
                                            const std::string& what) const {
    if (frame.type == tcp::FrameType::kError) {
      COLLBENCH_ASSIGN_OR_RETURN(const tcp::ErrorReply error, tcp::decode_error(frame.payload));
      return Status::error(error.code, "rank 0 reports: " + error.message);
    }
    if (frame.type == tcp::FrameType::kAbort) {
      const auto notice = tcp::decode_abort(frame.payload);
      const int code = notice.ok() ? notice->exit_code : 1;
      return Status::error(tcp::code_for_exit(code),
                           root + " aborted the job (exit code " + std::to_string(code) + ") during " + what);
    }
    auto view = frame.type == tcp::FrameType::kData ? tcp::decode_data(frame.payload)
                                                    : Result<tcp::DataView>(Status::error(ErrorCode::kComm, ""));
    if (!view.ok() || !(view->step == step) || view->data.size() != expected_result(step, size())) {
      return Status::error(ErrorCode::kComm, "protocol error: " + root + " answered " + what + " with an unexpected " +
                                                 std::string(tcp::frame_type_name(frame.type)) + " frame");
    }
    return std::vector<std::byte>(view->data.begin(), view->data.end());
  }

  const EnvConfig cfg_;
  const int local_rank_;
  const int local_size_;
  Links links_;
  std::vector<int> abort_fds_;  // fixed after construction: abort() reads them from any thread
  tcp::WaitSet waiting_;
  std::uint32_t seq_ = 0;
  Status failed_;
};

Status check_config(const EnvConfig& cfg) {
  const auto bad = [](const std::string& what) { return Status::error(ErrorCode::kUsage, "env bootstrap: " + what); };
  if (cfg.world_size < 1 || cfg.world_size > kMaxWorldSize) return bad("world size " + std::to_string(cfg.world_size));
  if (cfg.rank < 0 || cfg.rank >= cfg.world_size) return bad("rank " + std::to_string(cfg.rank) + " out of range");
  if (!(cfg.timeout_s > 0)) return bad("the timeout must be positive");
  if (cfg.world_size > 1 && (cfg.master_port == 0 || cfg.master_addr.empty())) return bad("MASTER_ADDR/PORT missing");
  if (cfg.token.size() > tcp::kMaxTokenLength) return bad("token longer than 64 characters");
  return ok_status();
}

}  // namespace

Result<std::unique_ptr<Bootstrap>> make_env_bootstrap(const EnvConfig& config) {
  COLLBENCH_RETURN_IF_ERROR(check_config(config));
  EnvConfig cfg = config;
  if (cfg.host.empty()) cfg.host = this_host_name();
  cfg.host.resize(std::min(cfg.host.size(), tcp::kMaxHostLength));
  const Deadline deadline = Deadline::in(cfg.timeout_s);
  EnvBootstrap::Links links;
  tcp::Welcome place;
  if (cfg.rank == 0) {
    COLLBENCH_ASSIGN_OR_RETURN(auto join, tcp::serve_rendezvous(cfg, deadline));
    links.peers = std::move(join.peers);
    place = join.welcome;
  } else {
    COLLBENCH_ASSIGN_OR_RETURN(auto join, tcp::join_rendezvous(cfg, deadline));
    links.root = std::move(join.link);
    links.root_name = std::move(join.root);
    place = join.welcome;
  }
  return std::unique_ptr<Bootstrap>(std::make_unique<EnvBootstrap>(std::move(cfg), place, std::move(links)));
}

}  // namespace collbench::bootstrap

namespace collbench::bootstrap {

const BootstrapEntry& env_bootstrap_entry() {
  static const BootstrapEntry entry{
      "env",
      "TCP rendezvous at MASTER_ADDR:MASTER_PORT from torchrun or Slurm variables (auto: when WORLD_SIZE, or "
      "SLURM_NTASKS > 1 with MASTER_ADDR, is set)",
      [](const BootstrapSetup& setup) -> Result<std::unique_ptr<Bootstrap>> {
        COLLBENCH_ASSIGN_OR_RETURN(const auto config,
                                   env_config_from_environment(setup.rendezvous_timeout_s, setup.stagger_ms));
        return make_env_bootstrap(config);
      }};
  return entry;
}

}  // namespace collbench::bootstrap
