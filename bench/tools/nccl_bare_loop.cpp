// The reference the harness is held to: ncclAllReduce (float, sum, out of place) on one GPU,
// timed as nccl-tests times it (a host clock around back-to-back launches and one stream
// synchronization), with nothing else in the loop. A standalone tool, so it talks to CUDA
// and NCCL directly; collbench's own code does that only in bench/backend/nccl/.
//
//   nccl_bare_loop [-n iters] [-w warmup] [-a] [-c] size...     (sizes in bytes)
// prints one line per size: "<bytes> <microseconds per operation>".
// The buffers are set up as nccl-tests 2.19 sets them up, and collbench with it: the
// communicator first, then the largest size twice with ncclMemAlloc where NCCL has it (2.19),
// else cudaMalloc. The setup alone moves a figure: on an H200 with NCCL 2.28.3, ncclMemAlloc
// buffers made after the communicator copied 256 MiB in 143.6 us, made before it in 128.5 us
// (docs/gpu-validation.md). -a allocates before the communicator, -c with cudaMalloc.
#include <cuda_runtime_api.h>
#include <nccl.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

// NCCL 2.19's: the tool still loads with an older library, and uses cudaMalloc there.
#pragma weak ncclMemAlloc
#pragma weak ncclMemFree

namespace {

int fail(const char* what, const char* why) {
  std::fprintf(stderr, "nccl_bare_loop: %s failed: %s\n", what, why);
  return 1;
}

#define BARE_CUDA(expr) \
  if (cudaError_t rc = (expr); rc != cudaSuccess) return fail(#expr, cudaGetErrorString(rc))
#define BARE_NCCL(expr) \
  if (ncclResult_t rc = (expr); rc != ncclSuccess) return fail(#expr, ncclGetErrorString(rc))

// As nccl-tests (and collbench) wait: poll the stream.
int wait_for(cudaStream_t stream) {
  cudaError_t rc = cudaErrorNotReady;
  while ((rc = cudaStreamQuery(stream)) == cudaErrorNotReady) {
  }
  return rc == cudaSuccess ? 0 : fail("cudaStreamQuery", cudaGetErrorString(rc));
}

}  // namespace

int main(int argc, char** argv) {
  long iters = 20;
  long warmup = 1;
  bool allocate_first = false;
  bool cuda_malloc = false;
  std::vector<std::size_t> sizes;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "-a" || arg == "-c") {
      (arg == "-a" ? allocate_first : cuda_malloc) = true;
    } else if ((arg == "-n" || arg == "-w") && i + 1 < argc) {
      (arg == "-n" ? iters : warmup) = std::strtol(argv[++i], nullptr, 10);
    } else {
      sizes.push_back(std::strtoull(argv[i], nullptr, 10));
    }
  }
  if (sizes.empty() || iters < 1)
    return fail("arguments", "usage: nccl_bare_loop [-n iters] [-w warmup] [-a] [-c] bytes...");
  int version = 0;
  BARE_NCCL(ncclGetVersion(&version));
  const bool nccl_memory = !cuda_malloc && version >= NCCL_VERSION(2, 19, 0) && &ncclMemAlloc != nullptr &&
                           &ncclMemFree != nullptr;
  std::size_t largest = 0;
  for (std::size_t s : sizes) largest = s > largest ? s : largest;

  BARE_CUDA(cudaSetDevice(0));
  cudaStream_t stream = nullptr;
  BARE_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  void* send = nullptr;
  void* recv = nullptr;
  ncclComm_t comm = nullptr;
  int device = 0;
  if (!allocate_first) BARE_NCCL(ncclCommInitAll(&comm, 1, &device));
  if (nccl_memory) {
    BARE_NCCL(ncclMemAlloc(&send, largest));
    BARE_NCCL(ncclMemAlloc(&recv, largest));
  } else {
    BARE_CUDA(cudaMalloc(&send, largest));
    BARE_CUDA(cudaMalloc(&recv, largest));
  }
  BARE_CUDA(cudaMemset(send, 0, largest));
  if (allocate_first) BARE_NCCL(ncclCommInitAll(&comm, 1, &device));

  for (std::size_t bytes : sizes) {
    const std::size_t count = bytes / sizeof(float);
    for (long i = 0; i < warmup; ++i) BARE_NCCL(ncclAllReduce(send, recv, count, ncclFloat, ncclSum, comm, stream));
    if (wait_for(stream) != 0) return 1;
    const auto start = std::chrono::steady_clock::now();
    for (long i = 0; i < iters; ++i) BARE_NCCL(ncclAllReduce(send, recv, count, ncclFloat, ncclSum, comm, stream));
    if (wait_for(stream) != 0) return 1;
    const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
    std::printf("%zu %.3f\n", bytes, us / static_cast<double>(iters));
  }
  BARE_NCCL(ncclCommDestroy(comm));
  if (nccl_memory) {
    BARE_NCCL(ncclMemFree(send));
    BARE_NCCL(ncclMemFree(recv));
  } else {
    BARE_CUDA(cudaFree(send));
    BARE_CUDA(cudaFree(recv));
  }
  BARE_CUDA(cudaStreamDestroy(stream));
  return 0;
}
