#include "bench/backend/nccl/nccl_backend.hpp"

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <algorithm>
#include <array>
#include <cstring>

#include "bench/backend/device_map.hpp"
#include "bench/backend/nccl/cuda_try.hpp"
#include "bench/backend/nccl/device_check.hpp"
#include "bench/backend/nccl/device_kernels.hpp"
#include "bench/backend/nccl/device_select.hpp"
#include "bench/backend/nccl/event_clock.hpp"
#include "bench/backend/nccl/nccl_types.hpp"
#include "bench/check/codec.hpp"
#include "common/units.hpp"

namespace collbench::backend {
namespace nccl {
namespace {

using coll::Collective;

constexpr std::size_t kTypes = static_cast<std::size_t>(DataType::kFp8E5M2) + 1;

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

class NcclBackend final : public Backend {
 public:
  NcclBackend(bootstrap::Bootstrap& boot, NcclOptions options) : boot_(boot), options_(std::move(options)) {}
  ~NcclBackend() override;
  NcclBackend(const NcclBackend&) = delete;
  NcclBackend& operator=(const NcclBackend&) = delete;

  Status init();

  BackendInfo info() const override { return {"nccl", library_, "device"}; }
  DeviceInfo device() const override { return device_.info; }
  std::optional<std::string> unsupported(Collective c, DataType type, ReduceOp op, int nranks) const override;
  LaunchFeatures features() const override { return {true, true}; }

  Result<Buffer> allocate(std::uint64_t bytes) override;
  Status fill_input(void* dst, std::uint64_t count, const check::DataSpec& spec, int rank) override;
  Status poison(void* dst, std::uint64_t bytes) override;
  Result<check::CheckResult> verify(const void* recv, const check::DataSpec& spec, int rank,
                                    std::size_t max_report) override;
  Status write_bytes(void* dst, const void* src, std::size_t bytes) override;
  Status read_bytes(void* host_dst, const void* src, std::size_t bytes) override;

  Status launch(const Call& call) override { return launch_one(call); }
  Status launch_group(const Call& call, std::uint64_t count) override;
  Status synchronize() override;
  IterationClock& clock() override { return clock_; }
  Status begin_capture() override;
  Status end_capture() override;
  Status replay() override;

 private:
  Status check_registration() const;
  Status agree_on_capabilities();
  Status create_communicator();
  Status create_premul_ops();
  Result<ncclRedOp_t> reduction(const Call& call) const;
  Status launch_one(const Call& call);
  Status point_to_point(const Call& call, ncclDataType_t type);
  Status hypercube(const Call& call, ncclDataType_t type);
  Result<const void*> unaliased_source(const Call& call, std::uint64_t bytes);
  Status ensure_staging(std::uint64_t bytes);

  bootstrap::Bootstrap& boot_;
  NcclOptions options_;
  SelectedDevice device_;
  std::string library_;
  int library_code_ = 0;
  // The oldest NCCL library and GPU of the job: every rank runs or skips a row alike.
  int job_library_code_ = 0;
  int job_cc_major_ = 0;
  int job_cc_minor_ = 0;
  cudaStream_t stream_ = nullptr;
  ncclComm_t comm_ = nullptr;
  bool comm_failed_ = false;
  std::array<std::optional<ncclRedOp_t>, kTypes> premul_{};
  std::array<std::string, kTypes> premul_error_{};
  EventClock clock_;
  cudaGraphExec_t graph_ = nullptr;
  void* staging_ = nullptr;  // in-place alltoall and sendrecv send from a copy (see unaliased_source)
  std::uint64_t staging_bytes_ = 0;
  std::unique_ptr<DeviceChecker> checker_;
};

NcclBackend::~NcclBackend() {
  if (device_.ordinal >= 0) (void)cudaSetDevice(device_.ordinal);
  checker_.reset();
  if (graph_ != nullptr) (void)cudaGraphExecDestroy(graph_);
  if (comm_ != nullptr) {
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 11, 0)
    for (const auto& op : premul_) {
      if (op) (void)ncclRedOpDestroy(*op, comm_);
    }
#endif
    // A communicator whose peers failed may never drain: abort it instead of waiting.
    (void)(comm_failed_ ? ncclCommAbort(comm_) : ncclCommDestroy(comm_));
  }
  if (staging_ != nullptr) (void)cudaFree(staging_);
  if (stream_ != nullptr) (void)cudaStreamDestroy(stream_);
}

Status NcclBackend::init() {
  COLLBENCH_ASSIGN_OR_RETURN(device_, select_device(boot_, options_.host));
  COLLBENCH_NCCL_TRY(ncclGetVersion(&library_code_));
  int runtime = 0;
  int driver = 0;
  COLLBENCH_CUDA_TRY(cudaRuntimeGetVersion(&runtime));
  COLLBENCH_CUDA_TRY(cudaDriverGetVersion(&driver));
  library_ = "NCCL " + nccl_version_text(library_code_) + " (headers " + nccl_header_version() + "), CUDA runtime " +
             cuda_version_text(runtime) + ", driver " + cuda_version_text(driver);
  COLLBENCH_RETURN_IF_ERROR(check_registration());
  COLLBENCH_RETURN_IF_ERROR(agree_on_capabilities());
  COLLBENCH_CUDA_TRY(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  clock_.attach(stream_);
  checker_ = std::make_unique<DeviceChecker>(stream_, device_.sms);
  COLLBENCH_RETURN_IF_ERROR(create_communicator());
  return create_premul_ops();
}

// A job that mixes GPU generations or NCCL builds must still skip the same rows everywhere,
// or the ranks that run a row would wait forever for those that skipped it.
Status NcclBackend::agree_on_capabilities() {
  std::array<double, 2> oldest = {static_cast<double>(device_.cc_major * 10 + device_.cc_minor),
                                  static_cast<double>(library_code_)};
  COLLBENCH_RETURN_IF_ERROR(boot_.allreduce(oldest, ReduceOp::kMin));
  const int cc = static_cast<int>(oldest[0]);
  job_cc_major_ = cc / 10;
  job_cc_minor_ = cc % 10;
  job_library_code_ = static_cast<int>(oldest[1]);
  return ok_status();
}

Status NcclBackend::check_registration() const {
  if (options_.register_buffers == 0) return ok_status();
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 19, 0)
  if (library_code_ >= NCCL_VERSION(2, 19, 0)) return ok_status();
#endif
  return Status::error(ErrorCode::kUnsupported, "-R 1 (ncclMemAlloc + ncclCommRegister) needs NCCL >= 2.19; this is " +
                                                    nccl_version_text(library_code_) + " (headers " +
                                                    nccl_header_version() + ")");
}

// Rank 0 makes the unique id; everyone learns it (or that rank 0 failed) through the bootstrap.
Status NcclBackend::create_communicator() {
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
  COLLBENCH_NCCL_TRY(ncclCommInitRank(&comm_, boot_.size(), id, boot_.rank()));
  return ok_status();
}

// Every rank creates the same ops in the same order (handles are numbered per
// communicator), and a type counts as having premulsum only where every rank created it.
Status NcclBackend::create_premul_ops() {
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
    const ncclResult_t rc = ncclRedOpCreatePreMulSum(&op, scalar.data(), *nccl_type(type), ncclScalarHostImmediate, comm_);
    if (rc == ncclSuccess) {
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
    if (created[slot(type)] == 0 && premul_error_[slot(type)].empty()) premul_error_[slot(type)] = "another rank could not create it";
  }
  return ok_status();
}

std::optional<std::string> NcclBackend::unsupported(Collective c, DataType type, ReduceOp op, int) const {
  if (auto why = type_unsupported(type, job_library_code_, job_cc_major_, job_cc_minor_)) return why;
  if (coll::traits(c).takes_op) {
    if (auto why = op_unsupported(op, job_library_code_)) return why;
    if (op == ReduceOp::kPreMulSum && !premul_error_[slot(type)].empty()) {
      return "premulsum on " + std::string(to_string(type)) + ": " + premul_error_[slot(type)];
    }
  }
  return std::nullopt;
}

Result<Buffer> NcclBackend::allocate(std::uint64_t bytes) {
  const std::uint64_t size = std::max<std::uint64_t>(bytes, 1);
  const auto no_memory = [&](const std::string& why) {
    return Status::error(ErrorCode::kUnsupported, "cannot allocate " + format_bytes(size) + " of device memory on " +
                                                      device_.info.device + " (" + device_.info.name + "): " + why);
  };
  void* data = nullptr;
  if (options_.register_buffers == 0) {
    const cudaError_t rc = cudaMalloc(&data, size);
    if (rc != cudaSuccess) {
      (void)cudaGetLastError();
      return no_memory(cudaGetErrorString(rc));
    }
    return Buffer(data, bytes, [](void* p) { (void)cudaFree(p); });
  }
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 19, 0)
  const ncclResult_t rc = ncclMemAlloc(&data, size);
  if (rc != ncclSuccess) return no_memory(std::string("ncclMemAlloc: ") + ncclGetErrorString(rc));
  void* handle = nullptr;
  const ncclResult_t registered = ncclCommRegister(comm_, data, size, &handle);
  if (registered != ncclSuccess) {
    (void)ncclMemFree(data);
    return nccl_error(registered, "ncclCommRegister(comm_, data, size, &handle)", std::source_location::current());
  }
  ncclComm_t comm = comm_;
  return Buffer(data, bytes, [comm, handle](void* p) {
    (void)ncclCommDeregister(comm, handle);
    (void)ncclMemFree(p);
  });
#else
  return check_registration();
#endif
}

Status NcclBackend::ensure_staging(std::uint64_t bytes) {
  if (bytes <= staging_bytes_) return ok_status();
  if (staging_ != nullptr) COLLBENCH_CUDA_TRY(cudaFree(staging_));
  staging_ = nullptr;
  staging_bytes_ = 0;
  COLLBENCH_CUDA_TRY(cudaMalloc(&staging_, bytes));
  staging_bytes_ = bytes;
  return ok_status();
}

Status NcclBackend::fill_input(void* dst, std::uint64_t count, const check::DataSpec& spec, int rank) {
  // The copy that in-place alltoall and sendrecv need is allocated here, before any timed or
  // captured launch can ask for it.
  const Collective c = spec.layout.collective;
  if ((c == Collective::kAllToAll || c == Collective::kSendRecv || c == Collective::kAllToAllV) &&
      spec.layout.nranks > 1) {
    COLLBENCH_RETURN_IF_ERROR(ensure_staging(std::max<std::uint64_t>(count, 1) * traits(spec.type).size));
  }
  COLLBENCH_CUDA_TRY(fill_input_device(dst, count, spec, rank, device_.sms, stream_));
  return ok_status();
}

Status NcclBackend::poison(void* dst, std::uint64_t bytes) {
  COLLBENCH_CUDA_TRY(cudaMemsetAsync(dst, 0xff, bytes, stream_));
  return ok_status();
}

Result<check::CheckResult> NcclBackend::verify(const void* recv, const check::DataSpec& spec, int rank,
                                               std::size_t max_report) {
  return checker_->verify(recv, spec, rank, max_report);
}

Status NcclBackend::write_bytes(void* dst, const void* src, std::size_t bytes) {
  COLLBENCH_CUDA_TRY(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream_));
  COLLBENCH_CUDA_TRY(cudaStreamSynchronize(stream_));
  return ok_status();
}

Status NcclBackend::read_bytes(void* host_dst, const void* src, std::size_t bytes) {
  COLLBENCH_CUDA_TRY(cudaMemcpyAsync(host_dst, src, bytes, cudaMemcpyDeviceToHost, stream_));
  COLLBENCH_CUDA_TRY(cudaStreamSynchronize(stream_));
  return ok_status();
}

Result<ncclRedOp_t> NcclBackend::reduction(const Call& call) const {
  if (call.op == ReduceOp::kPreMulSum) {
    if (const auto& op = premul_[slot(call.type)]) return *op;
  } else if (auto op = nccl_builtin_op(call.op)) {
    return *op;
  }
  return Status::error(ErrorCode::kUnsupported, std::string(to_string(call.op)) + " is not available in this NCCL");
}

Status NcclBackend::launch_one(const Call& call) {
  const auto type = nccl_type(call.type);
  if (!type) return Status::error(ErrorCode::kUnsupported, std::string(to_string(call.type)) + " is not available in this NCCL");
  const std::size_t count = call.counts.param;
  switch (call.collective) {
    case Collective::kAllReduce: {
      COLLBENCH_ASSIGN_OR_RETURN(const ncclRedOp_t op, reduction(call));
      COLLBENCH_NCCL_TRY(ncclAllReduce(call.send, call.recv, count, *type, op, comm_, stream_));
      return ok_status();
    }
    case Collective::kReduceScatter: {
      COLLBENCH_ASSIGN_OR_RETURN(const ncclRedOp_t op, reduction(call));
      COLLBENCH_NCCL_TRY(ncclReduceScatter(call.send, call.recv, count, *type, op, comm_, stream_));
      return ok_status();
    }
    case Collective::kReduce: {
      COLLBENCH_ASSIGN_OR_RETURN(const ncclRedOp_t op, reduction(call));
      COLLBENCH_NCCL_TRY(ncclReduce(call.send, call.recv, count, *type, op, call.root, comm_, stream_));
      return ok_status();
    }
    case Collective::kAllGather:
      COLLBENCH_NCCL_TRY(ncclAllGather(call.send, call.recv, count, *type, comm_, stream_));
      return ok_status();
    case Collective::kBroadcast:
      COLLBENCH_NCCL_TRY(ncclBroadcast(call.send, call.recv, count, *type, call.root, comm_, stream_));
      return ok_status();
    case Collective::kHypercube: return hypercube(call, *type);
    case Collective::kAllToAll:
    case Collective::kSendRecv:
    case Collective::kGather:
    case Collective::kScatter:
    case Collective::kAllToAllV: return point_to_point(call, *type);
  }
  return Status::error(ErrorCode::kInternal, "unknown collective");
}

Status NcclBackend::launch_group(const Call& call, std::uint64_t count) {
  COLLBENCH_NCCL_TRY(ncclGroupStart());
  Status launched = ok_status();
  for (std::uint64_t i = 0; i < count && launched.ok(); ++i) launched = launch_one(call);
  COLLBENCH_NCCL_TRY(ncclGroupEnd());
  return launched;
}

// Grouped sends and receives never read and write the same bytes safely: in place, the data
// to send is copied aside first (part of the timed operation, like a library's own staging).
Result<const void*> NcclBackend::unaliased_source(const Call& call, std::uint64_t bytes) {
  if (call.send != call.recv || boot_.size() == 1) return call.send;
  COLLBENCH_RETURN_IF_ERROR(ensure_staging(bytes));
  COLLBENCH_CUDA_TRY(cudaMemcpyAsync(staging_, call.send, bytes, cudaMemcpyDeviceToDevice, stream_));
  return static_cast<const void*>(staging_);
}

// alltoall, sendrecv, gather and scatter as nccl-tests builds them from send/recv.
Status NcclBackend::point_to_point(const Call& call, ncclDataType_t type) {
  const int n = boot_.size();
  const int me = boot_.rank();
  const std::uint64_t elem = traits(call.type).size;
  const std::size_t count = call.counts.param;
  const void* send = call.send;
  if (call.collective == Collective::kAllToAll || call.collective == Collective::kSendRecv ||
      call.collective == Collective::kAllToAllV) {
    COLLBENCH_ASSIGN_OR_RETURN(send, unaliased_source(call, call.counts.send * elem));
  }
  COLLBENCH_NCCL_TRY(ncclGroupStart());
  Status posted = ok_status();
  const auto post = [&](ncclResult_t rc, const char* what) {
    if (rc != ncclSuccess && posted.ok()) posted = nccl_error(rc, what, std::source_location::current());
  };
  switch (call.collective) {
    case Collective::kAllToAll:
      for (int r = 0; r < n; ++r) {
        const auto block = static_cast<std::uint64_t>(r) * count;
        post(ncclSend(offset(send, block, elem), count, type, r, comm_, stream_), "ncclSend(alltoall)");
        post(ncclRecv(offset(call.recv, block, elem), count, type, r, comm_, stream_), "ncclRecv(alltoall)");
      }
      break;
    case Collective::kSendRecv:
      post(ncclSend(send, count, type, (me + 1) % n, comm_, stream_), "ncclSend(sendrecv)");
      post(ncclRecv(call.recv, count, type, (me + n - 1) % n, comm_, stream_), "ncclRecv(sendrecv)");
      break;
    case Collective::kGather:
      post(ncclSend(send, count, type, call.root, comm_, stream_), "ncclSend(gather)");
      for (int r = 0; me == call.root && r < n; ++r) {
        const auto block = static_cast<std::uint64_t>(r) * count;
        post(ncclRecv(offset(call.recv, block, elem), count, type, r, comm_, stream_), "ncclRecv(gather)");
      }
      break;
    case Collective::kScatter:
      for (int r = 0; me == call.root && r < n; ++r) {
        const auto block = static_cast<std::uint64_t>(r) * count;
        post(ncclSend(offset(send, block, elem), count, type, r, comm_, stream_), "ncclSend(scatter)");
      }
      post(ncclRecv(call.recv, count, type, call.root, comm_, stream_), "ncclRecv(scatter)");
      break;
    case Collective::kAllToAllV: {
      // nccl-tests: one group, peers in rank order, blocks packed, empty blocks skipped.
      const coll::PeerCounts& peers = call.counts.peers;
      for (int r = 0; r < n; ++r) {
        const std::uint64_t out = coll::peer_count(peers, me, r);
        const std::uint64_t in = coll::peer_count(peers, r, me);
        if (out > 0) {
          post(ncclSend(offset(send, coll::send_offset(peers, me, r), elem), out, type, r, comm_, stream_),
               "ncclSend(alltoallv)");
        }
        if (in > 0) {
          post(ncclRecv(offset(call.recv, coll::recv_offset(peers, me, r), elem), in, type, r, comm_, stream_),
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
    case Collective::kHypercube: posted = Status::error(ErrorCode::kInternal, "not a point-to-point collective");
  }
  COLLBENCH_NCCL_TRY(ncclGroupEnd());
  return posted;
}

// log2(n) rounds; in round k each rank swaps everything it holds with the rank 2^k away.
Status NcclBackend::hypercube(const Call& call, ncclDataType_t type) {
  const int n = boot_.size();
  const int me = boot_.rank();
  const std::uint64_t elem = traits(call.type).size;
  const std::uint64_t count = call.counts.param;
  void* mine = offset(call.recv, static_cast<std::uint64_t>(me) * count, elem);
  if (call.send != mine) {
    COLLBENCH_CUDA_TRY(cudaMemcpyAsync(mine, call.send, count * elem, cudaMemcpyDeviceToDevice, stream_));
  }
  for (int mask = 1; mask < n; mask <<= 1) {
    const int peer = me ^ mask;
    const auto held = static_cast<std::uint64_t>(me & ~(mask - 1)) * count;
    const auto incoming = static_cast<std::uint64_t>(peer & ~(mask - 1)) * count;
    const std::size_t words = static_cast<std::size_t>(mask) * count;
    COLLBENCH_NCCL_TRY(ncclGroupStart());
    const ncclResult_t sent = ncclSend(offset(call.recv, held, elem), words, type, peer, comm_, stream_);
    const ncclResult_t received = ncclRecv(offset(call.recv, incoming, elem), words, type, peer, comm_, stream_);
    COLLBENCH_NCCL_TRY(ncclGroupEnd());
    COLLBENCH_NCCL_TRY(sent);
    COLLBENCH_NCCL_TRY(received);
  }
  return ok_status();
}

// As nccl-tests: poll the stream and the communicator, so that a failed peer surfaces as an
// error here instead of a stream that never drains.
Status NcclBackend::synchronize() {
  for (;;) {
    const cudaError_t rc = cudaStreamQuery(stream_);
    if (rc == cudaSuccess) return ok_status();
    if (rc != cudaErrorNotReady) return cuda_error(rc, "cudaStreamQuery(stream)", std::source_location::current());
    ncclResult_t async = ncclSuccess;
    COLLBENCH_NCCL_TRY(ncclCommGetAsyncError(comm_, &async));
    if (async != ncclSuccess) {
      comm_failed_ = true;
      return nccl_error(async, "ncclCommGetAsyncError(comm)", std::source_location::current());
    }
  }
}

Status NcclBackend::begin_capture() {
  // Thread-local: with -g, other threads of this process capture on their own streams.
  COLLBENCH_CUDA_TRY(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal));
  return ok_status();
}

Status NcclBackend::end_capture() {
  cudaGraph_t graph = nullptr;
  COLLBENCH_CUDA_TRY(cudaStreamEndCapture(stream_, &graph));
  if (graph_ != nullptr) {
    (void)cudaGraphExecDestroy(graph_);
    graph_ = nullptr;
  }
#if CUDART_VERSION >= 12000
  const cudaError_t rc = cudaGraphInstantiate(&graph_, graph, 0);
#else
  const cudaError_t rc = cudaGraphInstantiate(&graph_, graph, nullptr, nullptr, 0);
#endif
  (void)cudaGraphDestroy(graph);  // the executable graph keeps what it needs
  if (rc != cudaSuccess) return cuda_error(rc, "cudaGraphInstantiate(&graph, captured)", std::source_location::current());
  return ok_status();
}

Status NcclBackend::replay() {
  if (graph_ == nullptr) return Status::error(ErrorCode::kInternal, "replay() before a capture");
  COLLBENCH_CUDA_TRY(cudaGraphLaunch(graph_, stream_));
  return ok_status();
}

}  // namespace
}  // namespace nccl

CudaProbe probe_cuda() {
  int count = 0;
  const cudaError_t rc = cudaGetDeviceCount(&count);
  if (rc != cudaSuccess) {
    (void)cudaGetLastError();
    return {0, no_device_message(static_cast<int>(rc), cudaGetErrorString(rc))};
  }
  if (count == 0) return {0, no_device_message(static_cast<int>(cudaErrorNoDevice), cudaGetErrorString(cudaErrorNoDevice))};
  return {count, ""};
}

Result<std::unique_ptr<Backend>> make_nccl_backend(bootstrap::Bootstrap& boot, const NcclOptions& options) {
  auto backend = std::make_unique<nccl::NcclBackend>(boot, options);
  COLLBENCH_RETURN_IF_ERROR(backend->init());
  return std::unique_ptr<Backend>(std::move(backend));
}

}  // namespace collbench::backend
