#include "bench/backend/bootstrap_communicator.hpp"

#include <cstring>
#include <vector>

#include "bench/backend/backend_entry.hpp"
#include "bench/backend/host_memory.hpp"
#include "bench/backend/host_reduce.hpp"
#include "bench/check/pattern.hpp"

namespace collbench::backend {
namespace {

using coll::Collective;

class BootstrapCommunicator final : public Communicator {
 public:
  explicit BootstrapCommunicator(bootstrap::Bootstrap& boot) : boot_(boot) {}

  BackendInfo info() const override {
    return {"bootstrap",
            "collectives over the " + std::string(boot_.name()) + " bootstrap (reference, not for bandwidth)", ""};
  }
  std::optional<std::string> unsupported(Collective, DataType, ReduceOp, int) const override { return std::nullopt; }
  Status synchronize() override { return ok_status(); }
  Status launch(const Call& call) override;
  Status launch_p2p(const P2pCall& call) override;

 private:
  // Every rank's `bytes` starting at `src`, in rank order.
  Status gather_all(const void* src, std::uint64_t bytes);
  const std::byte* block(int rank, std::uint64_t offset) const {
    return all_.data() + static_cast<std::uint64_t>(rank) * stride_ + offset;
  }
  void reduce_blocks(void* dst, std::uint64_t first, std::uint64_t count, const Call& call);

  bootstrap::Bootstrap& boot_;
  std::vector<std::byte> mine_;
  std::vector<std::byte> all_;
  std::uint64_t stride_ = 0;
};

Status BootstrapCommunicator::gather_all(const void* src, std::uint64_t bytes) {
  // Copied first: in place, `src` overlaps the output that the reduction writes.
  mine_.assign(static_cast<const std::byte*>(src), static_cast<const std::byte*>(src) + bytes);
  all_.resize(bytes * static_cast<std::uint64_t>(boot_.size()));
  stride_ = bytes;
  return boot_.allgather(mine_, all_);
}

// dst[0..count) = op over ranks of element [first, first + count) of every rank's input.
void BootstrapCommunicator::reduce_blocks(void* dst, std::uint64_t first, std::uint64_t count, const Call& call) {
  const std::uint64_t elem = traits(call.type).size;
  std::vector<std::byte> term(count * elem);
  std::memcpy(dst, block(0, first * elem), count * elem);
  if (call.op == ReduceOp::kPreMulSum) scale_elements(dst, count, call.type, check::kPreMulScalar);
  for (int r = 1; r < boot_.size(); ++r) {
    std::memcpy(term.data(), block(r, first * elem), count * elem);
    if (call.op == ReduceOp::kPreMulSum) scale_elements(term.data(), count, call.type, check::kPreMulScalar);
    reduce_into(dst, term.data(), count, call.type, call.op);
  }
  if (call.op == ReduceOp::kAvg) finish_average(dst, count, call.type, boot_.size());
}

Status BootstrapCommunicator::launch(const Call& call) {
  const std::uint64_t elem = traits(call.type).size;
  const std::uint64_t base = call.counts.param;
  const auto me = static_cast<std::uint64_t>(boot_.rank());
  const int n = boot_.size();
  auto* out = static_cast<std::byte*>(call.recv);
  COLLBENCH_RETURN_IF_ERROR(gather_all(call.send, call.counts.send * elem));
  switch (call.collective) {
    case Collective::kAllReduce: reduce_blocks(out, 0, base, call); break;
    case Collective::kReduce:
      if (boot_.rank() == call.root) reduce_blocks(out, 0, base, call);
      break;
    case Collective::kReduceScatter: reduce_blocks(out, me * base, base, call); break;
    case Collective::kBroadcast: std::memcpy(out, block(call.root, 0), base * elem); break;
    case Collective::kSendRecv: std::memcpy(out, block((boot_.rank() + n - 1) % n, 0), base * elem); break;
    case Collective::kScatter: std::memcpy(out, block(call.root, me * base * elem), base * elem); break;
    case Collective::kGather:
      if (boot_.rank() != call.root) break;
      [[fallthrough]];
    case Collective::kAllGather:
    case Collective::kHypercube:
      for (int r = 0; r < n; ++r)
        std::memcpy(out + static_cast<std::uint64_t>(r) * base * elem, block(r, 0), base * elem);
      break;
    case Collective::kAllToAll:
      for (int r = 0; r < n; ++r) {
        std::memcpy(out + static_cast<std::uint64_t>(r) * base * elem, block(r, me * base * elem), base * elem);
      }
      break;
    case Collective::kAllToAllV: {
      const coll::PeerCounts& peers = call.counts.peers;
      for (int r = 0; r < n; ++r) {
        std::memcpy(out + coll::recv_offset(peers, boot_.rank(), r) * elem,
                    block(r, coll::send_offset(peers, r, boot_.rank()) * elem),
                    coll::peer_count(peers, r, boot_.rank()) * elem);
      }
      break;
    }
  }
  return ok_status();
}

// Every rank contributes its send block (zeros without a send peer), so that the exchange
// through the bootstrap has the same length everywhere; each then keeps its sender's block.
Status BootstrapCommunicator::launch_p2p(const P2pCall& call) {
  if (call.send_peer >= boot_.size() || call.recv_peer >= boot_.size()) {
    return Status::error(ErrorCode::kInternal, "point-to-point peer out of range");
  }
  const std::uint64_t bytes = call.count * traits(call.type).size;
  if (call.send_peer >= 0) {
    COLLBENCH_RETURN_IF_ERROR(gather_all(call.send, bytes));
  } else {
    const std::vector<std::byte> none(bytes);
    COLLBENCH_RETURN_IF_ERROR(gather_all(none.data(), bytes));
  }
  if (call.recv_peer >= 0) std::memcpy(call.recv, block(call.recv_peer, 0), bytes);
  return ok_status();
}

}  // namespace

std::unique_ptr<Communicator> make_bootstrap_communicator(bootstrap::Bootstrap& boot) {
  return std::make_unique<BootstrapCommunicator>(boot);
}

const BackendEntry& bootstrap_backend_entry() {
  static const BackendEntry entry{
      .name = "bootstrap",
      .help = "collectives through the bootstrap's own exchanges on host memory: right results, not a bandwidth "
              "measurement (auto: when nothing else can run)",
      .auto_order = 2,
      .features = {.memory = "host",
                   .point_to_point = true,
                   .groups = false,
                   .graphs = false,
                   .registration = false,
                   .threads = true,
                   .allocates_per_call = false},
      .usable = [](const BackendSetup&) -> Result<std::string> { return std::string(); },
      .launchable = [](const BackendSetup&) { return ok_status(); },
      .make = [](const BackendSetup& s) -> Result<std::unique_ptr<Backend>> {
        return std::make_unique<Backend>(std::make_unique<HostMemory>(s.cpu_set), make_bootstrap_communicator(s.boot));
      },
      .auto_note =
          [](const BackendSetup& s) {
    return "collectives run through the " + std::string(s.boot.name()) +
           " bootstrap on host memory: a correctness check, not a bandwidth measurement";
      },
      .loaded_library = {},  // no library of its own
      };
  return entry;
}

}  // namespace collbench::backend
