// Throughput of the host data path on one core: fill_input_host and verify_output_host per
// data type for sum and max on 64 MiB, against memcpy of the same size. The checker runs
// after every checked iteration of a sweep, so it must not dominate a run.
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "bench/check/codec.hpp"
#include "bench/check/host_check.hpp"

namespace collbench::check {
namespace {

constexpr std::uint64_t kBytes = std::uint64_t{64} << 20;
constexpr int kRanks = 8;
constexpr int kRank = 3;
constexpr std::int64_t kIterations = 10;

DataSpec all_reduce_spec(DataType type, ReduceOp op) {
  const std::uint64_t count = kBytes / traits(type).size;
  const coll::Counts counts = coll::counts_for(coll::Collective::kAllReduce, count, traits(type).size, kRanks);
  return make_data_spec(coll::Collective::kAllReduce, type, op, kRanks, 0, counts, 0x5eed);
}

void set_throughput(benchmark::State& state) {
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(kBytes));
}

void bench_fill(benchmark::State& state, DataType type, ReduceOp op) {
  const DataSpec spec = all_reduce_spec(type, op);
  const std::uint64_t count = kBytes / traits(type).size;
  std::vector<std::byte> buf(kBytes);
  fill_input_host(buf.data(), count, spec, kRank);  // first touch outside the timing
  for (auto _ : state) {
    fill_input_host(buf.data(), count, spec, kRank);
    benchmark::DoNotOptimize(buf.data());
    benchmark::ClobberMemory();
  }
  set_throughput(state);
}

// A correct all_reduce output, written from the closed form (sum and max need no division).
void write_expected(std::byte* out, const DataSpec& spec) {
  dispatch_type(spec.type, [&]<DataType T>() {
    auto* s = reinterpret_cast<typename Codec<T>::Storage*>(out);
    for (std::uint64_t i = 0; i < spec.layout.recv; ++i) s[i] = Codec<T>::from_integer(reduced_value(spec.pattern, i));
  });
}

void bench_verify(benchmark::State& state, DataType type, ReduceOp op) {
  const DataSpec spec = all_reduce_spec(type, op);
  std::vector<std::byte> buf(kBytes);
  write_expected(buf.data(), spec);
  if (verify_output_host(buf.data(), spec, kRank, 0).wrong != 0) {
    state.SkipWithError("the expected output did not verify");
    return;
  }
  for (auto _ : state) {
    const CheckResult r = verify_output_host(buf.data(), spec, kRank, 0);
    benchmark::DoNotOptimize(r.wrong);
  }
  set_throughput(state);
}

void bench_memcpy(benchmark::State& state) {
  std::vector<std::byte> src(kBytes, std::byte{1});
  std::vector<std::byte> dst(kBytes, std::byte{0});
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), kBytes);
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  set_throughput(state);
}

void register_all() {
  auto configure = [](benchmark::internal::Benchmark* b) { b->Unit(benchmark::kMillisecond)->Iterations(kIterations); };
  configure(benchmark::RegisterBenchmark("memcpy/64MiB", bench_memcpy));
  for (ReduceOp op : {ReduceOp::kSum, ReduceOp::kMax}) {
    for (DataType type : all_data_types()) {
      const std::string suffix = std::string(to_string(type)) + "/" + std::string(to_string(op));
      configure(benchmark::RegisterBenchmark(("fill/" + suffix).c_str(), bench_fill, type, op));
      configure(benchmark::RegisterBenchmark(("verify/" + suffix).c_str(), bench_verify, type, op));
    }
  }
}

}  // namespace
}  // namespace collbench::check

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  collbench::check::register_all();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
