#include "bench/backend/nccl/nccl_communicator.hpp"

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <optional>
#include <utility>

#include "bench/backend/cuda/cuda_memory.hpp"
#include "bench/backend/cuda/cuda_try.hpp"
#include "bench/backend/nccl/comm_lifecycle.hpp"
#include "bench/backend/nccl/nccl_try.hpp"
#include "bench/backend/nccl/nccl_types.hpp"
#include "bench/check/codec.hpp"
#include "bench/check/pattern.hpp"

// Calls newer than the oldest NCCL this build supports are weak: an older library still
// loads, and each is called only where the runtime library (ncclGetVersion) has it.
#pragma weak ncclCommInitRankConfig
#pragma weak ncclMemAlloc
#pragma weak ncclMemFree
#pragma weak ncclCommRegister
#pragma weak ncclCommWindowRegister
#pragma weak ncclAlltoAll
#pragma weak ncclGather
#pragma weak ncclScatter

namespace collbench::backend::nccl {
namespace {

using coll::Collective;

constexpr std::size_t kTypes = static_cast<std::size_t>(DataType::kFp8E5M2) + 1;
constexpr int kLocalRegistration = 1;
constexpr int kSymmetricRegistration = 2;

std::size_t slot(DataType type) { return static_cast<std::size_t>(type); }

// "13.0" from a CUDA version code (13000).
std::string cuda_version_text(int code) { return std::to_string(code / 1000) + "." + std::to_string(code % 1000 / 10); }

// premulsum's scalar, stored as an element of `type`.
std::array<std::byte, 8> premul_scalar(DataType type) {
  std::array<std::byte, 8> bytes{};
  check::dispatch_type(type, [&]<DataType T>() {
    const auto value = check::Codec<T>::from_integer(check::kPreMulScalar);
    std::memcpy(bytes.data(), &value, sizeof value);
  });
  return bytes;
}

const char* offset(const void* base, std::uint64_t elements, std::uint64_t elem_size) {
  return static_cast<const char*>(base) + elements * elem_size;
}

char* offset(void* base, std::uint64_t elements, std::uint64_t elem_size) {
  return static_cast<char*>(base) + elements * elem_size;
}

// Collects the first failure of a group of calls, so that the group is always closed.
class GroupErrors {
 public:
  void post(ncclResult_t rc, const char* what) {
    if (rc != ncclSuccess && first_.ok()) first_ = nccl_error(rc, what, std::source_location::current());
  }
  const Status& first() const { return first_; }

 private:
  Status first_ = ok_status();
};

class NcclCommunicator final : public Communicator, public BufferRegistrar {
 public:
  NcclCommunicator(bootstrap::Bootstrap& boot, std::shared_ptr<cuda::CudaContext> context, const DeviceOptions& options,
                   ProcessResources& process)
      : boot_(boot), context_(std::move(context)), options_(options), process_(process) {}
  ~NcclCommunicator() override;
  NcclCommunicator(const NcclCommunicator&) = delete;
  NcclCommunicator& operator=(const NcclCommunicator&) = delete;

  Status init();
  int library_code() const { return library_code_; }

  BackendInfo info() const override { return {"nccl", library_, ""}; }
  std::optional<std::string> unsupported(Collective c, DataType type, ReduceOp op, int nranks) const override;
  // As nccl-tests: in place, alltoall, alltoallv and sendrecv pass one buffer as both send and
  // receive buffer, which a peer exchange overwrites while it reads: timed, never checked.
  bool checks_in_place(Collective c) const override {
    return !(coll::traits(c).peer_exchange && coll::in_place_aliases(c));
  }
  LaunchFeatures features() const override { return {true, true}; }

  // Every launch runs inside lifecycle_->use(): never on a communicator aborted from another
  // thread, never while one aborts it.
  Status launch(const Call& call) override {
    return guarded(lifecycle_->use([&](ncclComm_t comm) { return launch_one(call, comm); }));
  }
  Status launch_p2p(const P2pCall& call) override {
    return guarded(lifecycle_->use([&](ncclComm_t comm) { return point_to_point(call, comm); }));
  }
  Status launch_group(std::span<const Call> calls) override {
    return guarded(lifecycle_->use([&](ncclComm_t comm) { return launch_grouped(calls, comm); }));
  }
  Status synchronize() override { return lifecycle_->wait(context_->stream()); }
  Status begin_capture() override;
  Status end_capture() override;
  Status replay() override { return guarded(lifecycle_->replay(context_->stream())); }

  Result<Buffer> attach(Buffer buffer) override;

 private:
  // A failed launch stops every communicator of the process, as an asynchronous error does;
  // during a capture, once it has ended: NCCL's abort waits for the graph being captured, and
  // a capturing thread may not synchronize.
  Status guarded(Status launched) {
    if (launched.ok()) return launched;
    if (capturing_) {
      stop_after_capture_ = true;
    } else {
      lifecycle_->fail();
    }
    return launched;
  }
  Status agree_on_capabilities();
  Status create_communicator();
  Status create_premul_ops();
  Result<ncclRedOp_t> reduction(const Call& call) const;
  Status launch_one(const Call& call, ncclComm_t comm);
  Status launch_grouped(std::span<const Call> calls, ncclComm_t comm);
  Status peer_exchange(const Call& call, ncclDataType_t type, ncclComm_t comm);
  Status hypercube(const Call& call, ncclDataType_t type, ncclComm_t comm);
  Status point_to_point(const P2pCall& call, ncclComm_t comm);
  Status instantiate_capture();
  bool native(int since_code, bool symbol_present) const { return symbol_present && job_library_code_ >= since_code; }

  bootstrap::Bootstrap& boot_;
  std::shared_ptr<cuda::CudaContext> context_;
  DeviceOptions options_;
  ProcessResources& process_;
  std::string library_;
  int library_code_ = 0;
  // The oldest NCCL library and GPU of the job: every rank runs or skips a row alike.
  int job_library_code_ = 0;
  int job_cc_major_ = 0;
  int job_cc_minor_ = 0;
  std::unique_ptr<CommLifecycle> lifecycle_;
  std::array<std::optional<ncclRedOp_t>, kTypes> premul_{};
  std::array<std::string, kTypes> premul_error_{};
  bool capturing_ = false;
  bool stop_after_capture_ = false;
};

NcclCommunicator::~NcclCommunicator() {
  (void)context_->make_current();
  if (lifecycle_ == nullptr) return;
  lifecycle_->keep_graph(nullptr);  // first: it holds the communicator
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 11, 0)
  for (const auto& op : premul_) {
    if (!op) continue;
    (void)lifecycle_->use([&](ncclComm_t comm) {
      (void)ncclRedOpDestroy(*op, comm);
      return ok_status();
    });
  }
#endif
  lifecycle_.reset();  // destroys the communicator, unless it was aborted
}

Status NcclCommunicator::init() {
  COLLBENCH_NCCL_TRY(ncclGetVersion(&library_code_));
  int runtime = 0;
  int driver = 0;
  COLLBENCH_CUDA_TRY(cudaRuntimeGetVersion(&runtime));
  COLLBENCH_CUDA_TRY(cudaDriverGetVersion(&driver));
  library_ = "NCCL " + nccl_version_text(library_code_) + " (headers " + nccl_header_version() + "), CUDA runtime " +
             cuda_version_text(runtime) + ", driver " + cuda_version_text(driver);
  COLLBENCH_RETURN_IF_ERROR(agree_on_capabilities());
  if (options_.register_buffers > 0 && job_library_code_ < NCCL_VERSION(2, 19, 0)) {
    return Status::error(ErrorCode::kUnsupported,
                         "-R " + std::to_string(options_.register_buffers) +
                             " (buffer registration) needs NCCL >= 2.19; the job's oldest is " +
                             nccl_version_text(job_library_code_));
  }
  COLLBENCH_RETURN_IF_ERROR(create_communicator());
  return create_premul_ops();
}

// A job that mixes GPU generations or NCCL builds must still skip the same rows everywhere,
// or the ranks that run a row would wait forever for those that skipped it.
Status NcclCommunicator::agree_on_capabilities() {
  const cuda::SelectedDevice& d = context_->device();
  std::array<double, 2> oldest = {static_cast<double>(d.cc_major * 10 + d.cc_minor),
                                  static_cast<double>(library_code_)};
  COLLBENCH_RETURN_IF_ERROR(boot_.allreduce(oldest, ReduceOp::kMin));
  const int cc = static_cast<int>(oldest[0]);
  job_cc_major_ = cc / 10;
  job_cc_minor_ = cc % 10;
  job_library_code_ = static_cast<int>(oldest[1]);
  return ok_status();
}

// Rank 0 makes the unique id; everyone learns it (or that rank 0 failed) through the
// bootstrap. The configuration is nccl-tests': its CTA policy (-x) and, with 2.28 headers,
// NVLink-centric scheduling.
Status NcclCommunicator::create_communicator() {
  std::array<std::byte, 1 + sizeof(ncclUniqueId)> message{};
  ncclResult_t made = ncclSuccess;
  if (boot_.rank() == 0) {
    ncclUniqueId id{};
    made = ncclGetUniqueId(&id);
    message[0] = std::byte{made == ncclSuccess ? std::uint8_t{1} : std::uint8_t{0}};
    std::memcpy(message.data() + 1, &id, sizeof id);
  }
  COLLBENCH_RETURN_IF_ERROR(boot_.broadcast(message, 0));
  if (made != ncclSuccess) return nccl_error(made, "ncclGetUniqueId(&id)", std::source_location::current());
  if (message[0] != std::byte{1}) return Status::error(ErrorCode::kComm, "rank 0 could not create the NCCL unique id");
  ncclUniqueId id{};
  std::memcpy(&id, message.data() + 1, sizeof id);
  ncclComm_t comm = nullptr;
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 14, 0)
  if (native(NCCL_VERSION(2, 14, 0), &ncclCommInitRankConfig != nullptr)) {
    ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 27, 0)
    if (options_.cta_policy >= 0) config.CTAPolicy = options_.cta_policy;
#endif
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 28, 0)
    if (library_code_ >= NCCL_VERSION(2, 28, 0)) config.nvlinkCentricSched = 1;
#endif
    COLLBENCH_NCCL_TRY(ncclCommInitRankConfig(&comm, boot_.size(), id, boot_.rank(), &config));
  } else
#endif
  {
    COLLBENCH_NCCL_TRY(ncclCommInitRank(&comm, boot_.size(), id, boot_.rank()));
  }
  lifecycle_ = std::make_unique<CommLifecycle>(library_calls(), process_, comm);
  return ok_status();
}

// Every rank creates the same ops in the same order (handles are numbered per
// communicator), and a type counts as having premulsum only where every rank created it.
Status NcclCommunicator::create_premul_ops() {
  std::array<double, kTypes> created{};
  for (DataType type : all_data_types()) {
    std::string& error = premul_error_[slot(type)];
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 11, 0)
    if (!nccl_type(type) || job_library_code_ < NCCL_VERSION(2, 11, 0)) {
      error = "premulsum on " + std::string(to_string(type)) + " needs NCCL >= 2.11 with that type";
      continue;
    }
    auto scalar = premul_scalar(type);
    ncclRedOp_t op{};
    ncclResult_t rc = ncclSuccess;
    // Refused once the communicator is stopped: then it counts as not created, and the
    // agreement below still runs, as every rank expects it.
    const Status used = lifecycle_->use([&](ncclComm_t comm) {
      rc = ncclRedOpCreatePreMulSum(&op, scalar.data(), *nccl_type(type), ncclScalarHostImmediate, comm);
      return ok_status();
    });
    if (!used.ok()) {
      error = used.message();
    } else if (rc == ncclSuccess) {
      premul_[slot(type)] = op;
      created[slot(type)] = 1;
    } else {
      error = std::string("ncclRedOpCreatePreMulSum failed: ") + ncclGetErrorString(rc);
    }
#else
    error = "premulsum needs NCCL >= 2.11";
#endif
  }
  COLLBENCH_RETURN_IF_ERROR(boot_.allreduce(created, ReduceOp::kMin));
  for (DataType type : all_data_types()) {
    if (created[slot(type)] == 0 && premul_error_[slot(type)].empty())
      premul_error_[slot(type)] = "another rank could not create it";
  }
  return ok_status();
}

std::optional<std::string> NcclCommunicator::unsupported(Collective c, DataType type, ReduceOp op, int nranks) const {
  if (auto why = type_unsupported(type, job_library_code_, job_cc_major_, job_cc_minor_)) return why;
  if (coll::traits(c).takes_op) {
    if (auto why = op_unsupported(op, job_library_code_)) return why;
    if (auto why = ranks_unsupported(type, op, nranks)) return why;
    if (op == ReduceOp::kPreMulSum && !premul_error_[slot(type)].empty()) {
      return "premulsum on " + std::string(to_string(type)) + ": " + premul_error_[slot(type)];
    }
  }
  return std::nullopt;
}

// -R 1: ncclCommRegister of the whole buffer; -R 2: a symmetric window (NCCL >= 2.27; an
// older library falls back to -R 1, as nccl-tests does). The registration is undone before
// the memory is freed, unless the communicator was aborted.
Result<Buffer> NcclCommunicator::attach(Buffer buffer) {
  if (options_.register_buffers == 0) return buffer;
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 19, 0)
  auto held = std::make_shared<Buffer>(std::move(buffer));
  void* handle = nullptr;
  bool window = false;
  const Status registered = lifecycle_->use([&](ncclComm_t comm) -> Status {
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 27, 0)
    if (options_.register_buffers == kSymmetricRegistration &&
        native(NCCL_VERSION(2, 27, 0), &ncclCommWindowRegister != nullptr)) {
      ncclWindow_t win = nullptr;
      COLLBENCH_NCCL_TRY(ncclCommWindowRegister(comm, held->data(), std::max<std::uint64_t>(held->bytes(), 1), &win,
                                                NCCL_WIN_COLL_SYMMETRIC));
      handle = win;
      window = true;
      return ok_status();
    }
#endif
    if (&ncclCommRegister == nullptr)
      return Status::error(ErrorCode::kUnsupported, "ncclCommRegister is not in this NCCL");
    COLLBENCH_NCCL_TRY(ncclCommRegister(comm, held->data(), std::max<std::uint64_t>(held->bytes(), 1), &handle));
    return ok_status();
  });
  if (!registered.ok()) return registered;
  void* data = held->data();
  const std::uint64_t bytes = held->bytes();
  return Buffer(data, bytes, [held, state = lifecycle_->state(), handle, window](void*) mutable {
    state->deregister(handle, window);
    held.reset();
  });
#else
  (void)kLocalRegistration, (void)kSymmetricRegistration;
  return Status::error(ErrorCode::kUnsupported, "-R needs NCCL headers >= 2.19");
#endif
}

Result<ncclRedOp_t> NcclCommunicator::reduction(const Call& call) const {
  if (call.op == ReduceOp::kPreMulSum) {
    if (const auto& op = premul_[slot(call.type)]) return *op;
  } else if (auto op = nccl_builtin_op(call.op)) {
    return *op;
  }
  return Status::error(ErrorCode::kUnsupported, std::string(to_string(call.op)) + " is not available in this NCCL");
}

Status NcclCommunicator::launch_one(const Call& call, ncclComm_t comm) {
  const auto type = nccl_type(call.type);
  if (!type)
    return Status::error(ErrorCode::kUnsupported, std::string(to_string(call.type)) + " is not available in this NCCL");
  const std::size_t count = call.counts.param;
  cudaStream_t stream = context_->stream();
  switch (call.collective) {
    case Collective::kAllReduce: {
      COLLBENCH_ASSIGN_OR_RETURN(const ncclRedOp_t op, reduction(call));
      COLLBENCH_NCCL_TRY(ncclAllReduce(call.send, call.recv, count, *type, op, comm, stream));
      return ok_status();
    }
    case Collective::kReduceScatter: {
      COLLBENCH_ASSIGN_OR_RETURN(const ncclRedOp_t op, reduction(call));
      COLLBENCH_NCCL_TRY(ncclReduceScatter(call.send, call.recv, count, *type, op, comm, stream));
      return ok_status();
    }
    case Collective::kReduce: {
      COLLBENCH_ASSIGN_OR_RETURN(const ncclRedOp_t op, reduction(call));
      COLLBENCH_NCCL_TRY(ncclReduce(call.send, call.recv, count, *type, op, call.root, comm, stream));
      return ok_status();
    }
    case Collective::kAllGather:
      COLLBENCH_NCCL_TRY(ncclAllGather(call.send, call.recv, count, *type, comm, stream));
      return ok_status();
    case Collective::kBroadcast:
      COLLBENCH_NCCL_TRY(ncclBroadcast(call.send, call.recv, count, *type, call.root, comm, stream));
      return ok_status();
    case Collective::kHypercube: return hypercube(call, *type, comm);
    case Collective::kAllToAll:
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 28, 0)
      if (native(NCCL_VERSION(2, 28, 0), &ncclAlltoAll != nullptr)) {
        COLLBENCH_NCCL_TRY(ncclAlltoAll(call.send, call.recv, count, *type, comm, stream));
        return ok_status();
      }
#endif
      return peer_exchange(call, *type, comm);
    case Collective::kGather:
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 28, 0)
      if (native(NCCL_VERSION(2, 28, 0), &ncclGather != nullptr)) {
        COLLBENCH_NCCL_TRY(ncclGather(call.send, call.recv, count, *type, call.root, comm, stream));
        return ok_status();
      }
#endif
      return peer_exchange(call, *type, comm);
    case Collective::kScatter:
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 28, 0)
      if (native(NCCL_VERSION(2, 28, 0), &ncclScatter != nullptr)) {
        COLLBENCH_NCCL_TRY(ncclScatter(call.send, call.recv, count, *type, call.root, comm, stream));
        return ok_status();
      }
#endif
      return peer_exchange(call, *type, comm);
    case Collective::kSendRecv:
    case Collective::kAllToAllV: return peer_exchange(call, *type, comm);
  }
  return Status::error(ErrorCode::kInternal, "unknown collective");
}

Status NcclCommunicator::launch_grouped(std::span<const Call> calls, ncclComm_t comm) {
  Status launched = ok_status();
  const ncclResult_t started = ncclGroupStart();
  if (started != ncclSuccess) return nccl_error(started, "ncclGroupStart()", std::source_location::current());
  for (std::size_t i = 0; i < calls.size() && launched.ok(); ++i) launched = launch_one(calls[i], comm);
  const ncclResult_t ended = ncclGroupEnd();
  if (launched.ok() && ended != ncclSuccess)
    launched = nccl_error(ended, "ncclGroupEnd()", std::source_location::current());
  return launched;
}

// The peer exchanges as nccl-tests builds them from sends and receives, in one group, on the
// buffers as given (in place they are the same buffer, as in nccl-tests).
Status NcclCommunicator::peer_exchange(const Call& call, ncclDataType_t type, ncclComm_t comm) {
  const int n = boot_.size();
  const int me = boot_.rank();
  const std::uint64_t elem = traits(call.type).size;
  const std::size_t count = call.counts.param;
  cudaStream_t stream = context_->stream();
  COLLBENCH_NCCL_TRY(ncclGroupStart());
  GroupErrors errors;
  switch (call.collective) {
    case Collective::kAllToAll:
      for (int r = 0; r < n; ++r) {
        const auto block = static_cast<std::uint64_t>(r) * count;
        errors.post(ncclSend(offset(call.send, block, elem), count, type, r, comm, stream), "ncclSend(alltoall)");
        errors.post(ncclRecv(offset(call.recv, block, elem), count, type, r, comm, stream), "ncclRecv(alltoall)");
      }
      break;
    case Collective::kSendRecv:
      errors.post(ncclSend(call.send, count, type, (me + 1) % n, comm, stream), "ncclSend(sendrecv)");
      errors.post(ncclRecv(call.recv, count, type, (me + n - 1) % n, comm, stream), "ncclRecv(sendrecv)");
      break;
    case Collective::kGather:
      errors.post(ncclSend(call.send, count, type, call.root, comm, stream), "ncclSend(gather)");
      for (int r = 0; me == call.root && r < n; ++r) {
        const auto block = static_cast<std::uint64_t>(r) * count;
        errors.post(ncclRecv(offset(call.recv, block, elem), count, type, r, comm, stream), "ncclRecv(gather)");
      }
      break;
    case Collective::kScatter:
      for (int r = 0; me == call.root && r < n; ++r) {
        const auto block = static_cast<std::uint64_t>(r) * count;
        errors.post(ncclSend(offset(call.send, block, elem), count, type, r, comm, stream), "ncclSend(scatter)");
      }
      errors.post(ncclRecv(call.recv, count, type, call.root, comm, stream), "ncclRecv(scatter)");
      break;
    case Collective::kAllToAllV: {
      // nccl-tests: peers in rank order, blocks packed, empty blocks skipped.
      const coll::PeerCounts& peers = call.counts.peers;
      for (int r = 0; r < n; ++r) {
        const std::uint64_t out = coll::peer_count(peers, me, r);
        const std::uint64_t in = coll::peer_count(peers, r, me);
        if (out > 0) {
          errors.post(ncclSend(offset(call.send, coll::send_offset(peers, me, r), elem), out, type, r, comm, stream),
                      "ncclSend(alltoallv)");
        }
        if (in > 0) {
          errors.post(ncclRecv(offset(call.recv, coll::recv_offset(peers, me, r), elem), in, type, r, comm, stream),
                      "ncclRecv(alltoallv)");
        }
      }
      break;
    }
    case Collective::kAllReduce:
    case Collective::kAllGather:
    case Collective::kReduceScatter:
    case Collective::kBroadcast:
    case Collective::kReduce:
    case Collective::kHypercube: errors.post(ncclInvalidUsage, "not a peer exchange");
  }
  COLLBENCH_NCCL_TRY(ncclGroupEnd());
  return errors.first();
}

// log2(n) rounds; in round k each rank swaps everything it holds with the rank 2^k away.
Status NcclCommunicator::hypercube(const Call& call, ncclDataType_t type, ncclComm_t comm) {
  const int n = boot_.size();
  const int me = boot_.rank();
  const std::uint64_t elem = traits(call.type).size;
  const std::uint64_t count = call.counts.param;
  cudaStream_t stream = context_->stream();
  void* mine = offset(call.recv, static_cast<std::uint64_t>(me) * count, elem);
  if (call.send != mine) {
    COLLBENCH_CUDA_TRY(cudaMemcpyAsync(mine, call.send, count * elem, cudaMemcpyDeviceToDevice, stream));
  }
  for (int mask = 1; mask < n; mask <<= 1) {
    const int peer = me ^ mask;
    const auto held = static_cast<std::uint64_t>(me & ~(mask - 1)) * count;
    const auto incoming = static_cast<std::uint64_t>(peer & ~(mask - 1)) * count;
    const std::size_t words = static_cast<std::size_t>(mask) * count;
    COLLBENCH_NCCL_TRY(ncclGroupStart());
    GroupErrors errors;
    errors.post(ncclSend(offset(call.recv, held, elem), words, type, peer, comm, stream), "ncclSend(hypercube)");
    errors.post(ncclRecv(offset(call.recv, incoming, elem), words, type, peer, comm, stream), "ncclRecv(hypercube)");
    COLLBENCH_NCCL_TRY(ncclGroupEnd());
    COLLBENCH_RETURN_IF_ERROR(errors.first());
  }
  return ok_status();
}

// collbench locate's step: a send and a receive in one group; a rank without peers posts
// nothing (NCCL's point-to-point needs only the two ends).
Status NcclCommunicator::point_to_point(const P2pCall& call, ncclComm_t comm) {
  if (call.send_peer < 0 && call.recv_peer < 0) return ok_status();
  const auto type = nccl_type(call.type);
  if (!type)
    return Status::error(ErrorCode::kUnsupported, std::string(to_string(call.type)) + " is not available in this NCCL");
  cudaStream_t stream = context_->stream();
  COLLBENCH_NCCL_TRY(ncclGroupStart());
  GroupErrors errors;
  if (call.send_peer >= 0)
    errors.post(ncclSend(call.send, call.count, *type, call.send_peer, comm, stream), "ncclSend(p2p)");
  if (call.recv_peer >= 0)
    errors.post(ncclRecv(call.recv, call.count, *type, call.recv_peer, comm, stream), "ncclRecv(p2p)");
  COLLBENCH_NCCL_TRY(ncclGroupEnd());
  return errors.first();
}

Status NcclCommunicator::begin_capture() {
  // Thread-local: with -g, other threads of this process capture on their own streams.
  COLLBENCH_CUDA_TRY(cudaStreamBeginCapture(context_->stream(), cudaStreamCaptureModeThreadLocal));
  capturing_ = true;
  return ok_status();
}

Status NcclCommunicator::end_capture() {
  capturing_ = false;
  Status ended = instantiate_capture();
  if (std::exchange(stop_after_capture_, false)) lifecycle_->fail();  // a launch failed during it
  return ended;
}

// The graph kept before is destroyed first; the new one is kept by the lifecycle (the abort
// destroys it before aborting, as it holds the communicator).
Status NcclCommunicator::instantiate_capture() {
  cudaGraph_t graph = nullptr;
  COLLBENCH_CUDA_TRY(cudaStreamEndCapture(context_->stream(), &graph));
  lifecycle_->keep_graph(nullptr);
  cudaGraphExec_t exec = nullptr;
#if CUDART_VERSION >= 12000
  const cudaError_t rc = cudaGraphInstantiate(&exec, graph, 0);
#else
  const cudaError_t rc = cudaGraphInstantiate(&exec, graph, nullptr, nullptr, 0);
#endif
  (void)cudaGraphDestroy(graph);  // the executable graph keeps what it needs
  if (rc != cudaSuccess) {
    return cuda::cuda_error(rc, "cudaGraphInstantiate(&graph, captured)", std::source_location::current());
  }
  lifecycle_->keep_graph(exec);
  return ok_status();
}

// nccl-tests allocates with ncclMemAlloc where NCCL has it (2.19): memory NCCL can register
// and map for NVLink SHARP and symmetric kernels. An older library gets cudaMalloc.
cuda::DeviceAllocator allocator_for(int library_code) {
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 19, 0)
  if (library_code >= NCCL_VERSION(2, 19, 0) && &ncclMemAlloc != nullptr && &ncclMemFree != nullptr) {
    return {"ncclMemAlloc",
            [](std::uint64_t bytes) -> Result<void*> {
              void* data = nullptr;
              const ncclResult_t rc = ncclMemAlloc(&data, bytes);
              if (rc == ncclSuccess) return data;
              return Status::error(ErrorCode::kUnsupported, ncclGetErrorString(rc));
            },
            [](void* p) { (void)ncclMemFree(p); }};
  }
#endif
  (void)library_code;
  return cuda::cuda_malloc_allocator();
}

Result<std::string> every_rank_has_a_gpu(const BackendSetup& s) {
  const cuda::CudaProbe probe = cuda::probe_cuda();
  std::array<double, 1> all_have = {probe.devices > 0 ? 1.0 : 0.0};
  COLLBENCH_RETURN_IF_ERROR(s.boot.allreduce(all_have, ReduceOp::kMin));
  if (all_have[0] != 0) return std::string();
  return probe.devices > 0 ? std::string("another rank sees no CUDA device") : probe.error;
}

std::string loaded_library() {
  int code = 0;
  const ncclResult_t rc = ncclGetVersion(&code);
  if (rc != ncclSuccess) return std::string("NCCL: ncclGetVersion failed: ") + ncclGetErrorString(rc);
  return "NCCL " + nccl_version_text(code) + " loaded (headers " + nccl_header_version() + ")";
}

Result<std::unique_ptr<Backend>> make_nccl_backend(const BackendSetup& s) {
  COLLBENCH_ASSIGN_OR_RETURN(auto context,
                             cuda::CudaContext::open(s.boot, {s.host, s.device.stream_null, s.device.first_device}));
  auto comm = std::make_unique<NcclCommunicator>(s.boot, context, s.device, s.process);
  COLLBENCH_RETURN_IF_ERROR(comm->init());
  auto memory = cuda::make_cuda_memory(context, allocator_for(comm->library_code()));
  BufferRegistrar* registrar = comm.get();
  return std::make_unique<Backend>(std::move(memory), std::move(comm), registrar);
}

}  // namespace
}  // namespace collbench::backend::nccl

namespace collbench::backend {

const BackendEntry& nccl_backend_entry() {
  static const BackendEntry entry{
      .name = "nccl",
      .help = "NCCL collectives on GPU memory, one GPU per rank (auto: when every rank sees a GPU)",
      .auto_order = 0,
      .features = {.memory = "device",
                   .point_to_point = true,
                   .groups = true,
                   .graphs = true,
                   .registration = true,
                   .threads = true,
                   .allocates_per_call = false},
      .usable = nccl::every_rank_has_a_gpu,
      .launchable = [](const BackendSetup&) { return ok_status(); },
      .make = nccl::make_nccl_backend,
      .auto_note = [](const BackendSetup&) { return std::string(); },
      .loaded_library = nccl::loaded_library,
  };
  return entry;
}

}  // namespace collbench::backend
