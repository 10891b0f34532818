// The baseline for collbench's overhead: MPI_Allreduce in a plain timed loop, nothing else.
// Same buffers as collbench (page-aligned, touched), same sizes, same definition of the
// time: each rank's elapsed / iterations, averaged over ranks (nccl-tests' default).
//   mpirun -np 2 bare_allreduce MIN_BYTES MAX_BYTES ITERS WARMUP
// prints "size_bytes time_us busbw_gbps" per size (out of place, float, sum).
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  int n = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  if (argc != 5) {
    if (rank == 0) std::fprintf(stderr, "usage: bare_allreduce MIN_BYTES MAX_BYTES ITERS WARMUP\n");
    MPI_Finalize();
    return 2;
  }
  const unsigned long long min_bytes = std::strtoull(argv[1], nullptr, 10);
  const unsigned long long max_bytes = std::strtoull(argv[2], nullptr, 10);
  const long iters = std::strtol(argv[3], nullptr, 10);
  const long warmup = std::strtol(argv[4], nullptr, 10);
  void* send = nullptr;
  void* recv = nullptr;
  if (posix_memalign(&send, 4096, max_bytes) != 0 || posix_memalign(&recv, 4096, max_bytes) != 0) {
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;  // MPI_Abort is not declared [[noreturn]]
  }
  std::memset(send, 0, max_bytes);
  std::memset(recv, 0, max_bytes);
  for (unsigned long long bytes = min_bytes; bytes <= max_bytes; bytes *= 2) {
    const int count = static_cast<int>(bytes / sizeof(float));
    for (long i = 0; i < warmup; ++i) MPI_Allreduce(send, recv, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    const auto start = std::chrono::steady_clock::now();
    for (long i = 0; i < iters; ++i) MPI_Allreduce(send, recv, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() /
                static_cast<double>(iters);
    MPI_Allreduce(MPI_IN_PLACE, &us, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    us /= n;
    const double busbw = static_cast<double>(bytes) / 1e3 / us * 2.0 * (n - 1) / n;
    if (rank == 0) std::printf("%llu %.3f %.3f\n", bytes, us, busbw);
  }
  std::free(send);
  std::free(recv);
  MPI_Finalize();
  return 0;
}
