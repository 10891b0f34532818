// The NCCL backend on a real GPU (label `gpu`): checked sweeps per type and op, the device
// checker against the host definitions and against injected corruption, grouped and graph
// launches, and -g style thread ranks. Every test skips, saying why, where no GPU is visible.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <stop_token>
#include <thread>
#include <vector>

#include "bench/backend/cuda/cuda_context.hpp"
#include "bench/backend/nccl/nccl_communicator.hpp"
#include "bench/bootstrap/single.hpp"
#include "bench/bootstrap/threads/threads_bootstrap.hpp"
#include "bench/check/host_check.hpp"
#include "bench/engine/rank_table.hpp"
#include "bench/engine/runner.hpp"

namespace collbench {
namespace {

#define COLLBENCH_REQUIRE_GPU()                                             \
  do {                                                                      \
    const backend::cuda::CudaProbe probe = backend::cuda::probe_cuda();     \
    if (probe.devices == 0) GTEST_SKIP() << "needs a GPU: " << probe.error; \
  } while (false)

// The process's shared state of a test: one per test body, as one per collbench process.
Result<std::unique_ptr<backend::Backend>> make_nccl(bootstrap::Bootstrap& boot, ProcessResources& process,
                                                    int register_buffers = 0) {
  backend::DeviceOptions device;
  device.register_buffers = register_buffers;
  return backend::nccl_backend_entry().make({boot, "gpu-test", "", device, process});
}

std::unique_ptr<backend::Backend> open_backend(bootstrap::Bootstrap& boot, ProcessResources& process) {
  auto made = make_nccl(boot, process);
  EXPECT_TRUE(made.ok()) << made.status().message();
  return made.ok() ? std::move(made).value() : nullptr;
}

// Runs a whole sweep through the engine, as `collbench run` does, reporting nothing.
Result<engine::RunOutcome> sweep(bootstrap::Bootstrap& boot, backend::Backend& backend, const engine::RunOptions& o) {
  engine::NullReporter quiet;
  engine::Runner runner(o, boot, backend, quiet);
  COLLBENCH_ASSIGN_OR_RETURN(auto plan, runner.plan());
  report::RunContext ctx;
  COLLBENCH_ASSIGN_OR_RETURN(ctx.ranks, engine::gather_rank_table(boot, backend.device(), "gpu-test"));
  std::stop_source never;
  return runner.run(plan, ctx, never.get_token());
}

bool is_fp8(const std::string& dtype) { return dtype == "f8e4m3" || dtype == "f8e5m2"; }

// The skips a one-rank sweep may have: fp8 where the GPU or NCCL lacks it (or, for avg and
// premulsum, NCCL's one-rank kernel does), and rows under nccl-tests' 16-byte alignment of the
// per-rank count (all_gather, reduce_scatter, alltoall... at 8 B: "fewer than one element").
bool allowed_skip(const report::SizeRecord& row) {
  if (is_fp8(row.dtype)) return true;
  const std::string prefix = "fewer than one element per rank at ";
  if (row.skipped->rfind(prefix, 0) != 0) return false;
  return std::stoull(row.skipped->substr(prefix.size())) < 16;
}

// Every row ran (or is an allowed skip), was checked, and had no wrong element.
void expect_all_checked_and_right(const engine::RunOutcome& outcome) {
  EXPECT_EQ(outcome.summary.total_wrong, 0u);
  for (const auto& row : outcome.rows) {
    if (row.skipped) {
      EXPECT_TRUE(allowed_skip(row)) << row.collective << " " << row.dtype << " " << row.op << ": " << *row.skipped;
      continue;
    }
    ASSERT_EQ(row.placements.size(), 2u);
    const auto c = *coll::parse_collective(row.collective);
    for (const auto& m : row.placements) {
      // nccl-tests' in-place alltoall, alltoallv and sendrecv alias their buffers: unchecked.
      const bool aliased = m.placement == report::Placement::kInPlace && coll::traits(c).peer_exchange &&
                           coll::in_place_aliases(c);
      EXPECT_EQ(m.checked, !aliased) << row.collective;
      EXPECT_EQ(m.wrong, 0u) << row.collective << " " << row.dtype << " " << row.op << " " << row.size_bytes << " B";
      EXPECT_GT(m.time_us, 0.0);
    }
  }
}

engine::RunOptions small_sweep(std::uint64_t max_bytes) {
  engine::RunOptions o;
  o.min_bytes = 8;
  o.max_bytes = max_bytes;
  o.iterations = 3;
  o.warmup_iterations = 1;
  o.check_iterations = 1;
  return o;
}

TEST(NcclBackend, ReportsTheDeviceAndTheLibraries) {
  COLLBENCH_REQUIRE_GPU();
  bootstrap::SingleBootstrap boot;
  ProcessResources process;
  auto b = open_backend(boot, process);
  ASSERT_NE(b, nullptr);
  const backend::DeviceInfo d = b->device();
  EXPECT_EQ(d.device, "cuda:0");
  EXPECT_FALSE(d.name.empty());
  EXPECT_FALSE(d.pci_bus_id.empty());
  EXPECT_GT(d.memory_bytes, 0u);
  EXPECT_GE(d.visible_devices, 1);
  EXPECT_NE(b->info().library.find("NCCL "), std::string::npos);
  EXPECT_NE(b->info().library.find("CUDA runtime "), std::string::npos);
  EXPECT_EQ(b->info().memory, "device");
}

TEST(NcclBackend, CheckedAllReduceSweepForEveryTypeAndOp) {
  COLLBENCH_REQUIRE_GPU();
  bootstrap::SingleBootstrap boot;
  ProcessResources process;
  auto b = open_backend(boot, process);
  ASSERT_NE(b, nullptr);
  engine::RunOptions o = small_sweep(1 << 20);
  o.types.assign(all_data_types().begin(), all_data_types().end());
  o.ops.assign(all_reduce_ops().begin(), all_reduce_ops().end());
  auto outcome = sweep(boot, *b, o);
  ASSERT_TRUE(outcome.ok()) << outcome.status().message();
  expect_all_checked_and_right(*outcome);
}

TEST(NcclBackend, EveryCollectiveOnOneRank) {
  COLLBENCH_REQUIRE_GPU();
  bootstrap::SingleBootstrap boot;
  ProcessResources process;
  auto b = open_backend(boot, process);
  ASSERT_NE(b, nullptr);
  engine::RunOptions o = small_sweep(256 << 10);
  o.collectives.clear();
  for (const auto& t : coll::all_collectives()) o.collectives.push_back(t.collective);
  o.types = {DataType::kFloat, DataType::kInt8, DataType::kBfloat16};
  auto outcome = sweep(boot, *b, o);
  ASSERT_TRUE(outcome.ok()) << outcome.status().message();
  expect_all_checked_and_right(*outcome);
}

TEST(NcclBackend, DeviceFillWritesTheHostPatternBitForBit) {
  COLLBENCH_REQUIRE_GPU();
  bootstrap::SingleBootstrap boot;
  ProcessResources process;
  auto b = open_backend(boot, process);
  ASSERT_NE(b, nullptr);
  constexpr std::uint64_t kCount = (3 << 12) + 77;
  auto buffer = b->allocate(kCount * 8);
  ASSERT_TRUE(buffer.ok());
  for (DataType type : all_data_types()) {
    for (ReduceOp op : {ReduceOp::kSum, ReduceOp::kProd, ReduceOp::kMax}) {
      const auto counts = coll::counts_for(coll::Collective::kAllReduce, kCount, traits(type).size, 4);
      const check::DataSpec spec = check::make_data_spec(coll::Collective::kAllReduce, type, op, 4, 0, counts, 11);
      const std::size_t bytes = kCount * traits(type).size;
      std::vector<std::byte> host(bytes);
      std::vector<std::byte> device(bytes);
      for (int rank : {0, 3}) {
        check::fill_input_host(host.data(), kCount, spec, rank);
        ASSERT_TRUE(b->memory().fill_input(buffer->data(), kCount, spec, rank).ok());
        ASSERT_TRUE(b->memory().read_bytes(device.data(), buffer->data(), bytes).ok());
        EXPECT_EQ(std::memcmp(host.data(), device.data(), bytes), 0) << to_string(type) << " " << to_string(op);
      }
    }
  }
}

// All-reduces a known input on one rank, then corrupts elements of the output in place.
class CorruptedOutput : public ::testing::TestWithParam<DataType> {
 protected:
  void SetUp() override {
    COLLBENCH_REQUIRE_GPU();
    b_ = open_backend(boot_, process_);
    ASSERT_NE(b_, nullptr);
    const DataType type = GetParam();
    counts_ = coll::counts_for(coll::Collective::kAllReduce, kCount, traits(type).size, 1);
    spec_ = check::make_data_spec(coll::Collective::kAllReduce, type, ReduceOp::kSum, 1, 0, counts_, 5);
    auto send = b_->allocate(kCount * traits(type).size);
    auto recv = b_->allocate(kCount * traits(type).size);
    ASSERT_TRUE(send.ok() && recv.ok());
    send_ = std::move(send).value();
    recv_ = std::move(recv).value();
    ASSERT_TRUE(b_->memory().fill_input(send_.data(), counts_.send, spec_, 0).ok());
    const backend::Call call{
        coll::Collective::kAllReduce, type, ReduceOp::kSum, 0, counts_, send_.data(), recv_.data()};
    ASSERT_TRUE(b_->comm().launch(call).ok());
    ASSERT_TRUE(b_->comm().synchronize().ok());
  }

  void corrupt(std::uint64_t index) {
    const std::array<std::byte, 8> ones = {std::byte{0xff}, std::byte{0xff}, std::byte{0xff}, std::byte{0xff},
                                           std::byte{0xff}, std::byte{0xff}, std::byte{0xff}, std::byte{0xff}};
    ASSERT_TRUE(
        b_->memory().write_bytes(recv_.at(index * traits(GetParam()).size), ones.data(), traits(GetParam()).size).ok());
  }

  static constexpr std::uint64_t kCount = 1 << 22;
  bootstrap::SingleBootstrap boot_;
  ProcessResources process_;
  std::unique_ptr<backend::Backend> b_;
  coll::Counts counts_;
  check::DataSpec spec_;
  backend::Buffer send_;
  backend::Buffer recv_;
};

TEST_P(CorruptedOutput, OneWrongElementIsFoundAndNamed) {
  auto clean = b_->memory().verify(recv_.data(), spec_, 0, 8);
  ASSERT_TRUE(clean.ok()) << clean.status().message();
  EXPECT_EQ(clean->wrong, 0u);
  corrupt(1234567);
  auto found = b_->memory().verify(recv_.data(), spec_, 0, 8);
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(found->wrong, 1u);
  ASSERT_EQ(found->first.size(), 1u);
  EXPECT_EQ(found->first[0].index, 1234567u);
}

TEST_P(CorruptedOutput, ManyWrongElementsReportTheFirstInIndexOrder) {
  // More wrong elements than reported ones, spread so that one pass cannot know the first.
  std::vector<std::uint64_t> bad;
  for (std::uint64_t i = 0; i < 300; ++i) bad.push_back((i * 7919 + 13) % kCount);
  for (std::uint64_t index : bad) corrupt(index);
  std::sort(bad.begin(), bad.end());
  bad.erase(std::unique(bad.begin(), bad.end()), bad.end());
  auto found = b_->memory().verify(recv_.data(), spec_, 0, 8);
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(found->wrong, bad.size());
  ASSERT_EQ(found->first.size(), 8u);
  for (std::size_t i = 0; i < 8; ++i) EXPECT_EQ(found->first[i].index, bad[i]) << i;
}

TEST_P(CorruptedOutput, ADenseRunOfWrongElementsReportsItsStart) {
  for (std::uint64_t i = 5000; i < 5100; ++i) corrupt(i);
  auto found = b_->memory().verify(recv_.data(), spec_, 0, 8);
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(found->wrong, 100u);
  ASSERT_EQ(found->first.size(), 8u);
  for (std::uint64_t i = 0; i < 8; ++i) EXPECT_EQ(found->first[i].index, 5000 + i);
}

INSTANTIATE_TEST_SUITE_P(Types, CorruptedOutput,
                         ::testing::Values(DataType::kFloat, DataType::kHalf, DataType::kBfloat16, DataType::kInt8,
                                           DataType::kDouble, DataType::kUint64),
                         [](const auto& param) { return std::string(to_string(param.param)); });

TEST(NcclBackend, GraphsAndGroupsMeasureAndCheck) {
  COLLBENCH_REQUIRE_GPU();
  bootstrap::SingleBootstrap boot;
  ProcessResources process;
  auto b = open_backend(boot, process);
  ASSERT_NE(b, nullptr);
  EXPECT_TRUE(b->comm().features().groups);
  EXPECT_TRUE(b->comm().features().graphs);
  for (auto [aggregation, graphs] : {std::pair<std::uint64_t, std::uint64_t>{4, 0}, {1, 3}, {2, 5}}) {
    engine::RunOptions o = small_sweep(4 << 20);
    o.aggregation = aggregation;
    o.graph_launches = graphs;
    o.per_iteration_timing = true;  // -I 1: CUDA events between iterations
    auto outcome = sweep(boot, *b, o);
    ASSERT_TRUE(outcome.ok()) << outcome.status().message();
    expect_all_checked_and_right(*outcome);
    for (const auto& row : outcome->rows) {
      for (const auto& m : row.placements) {
        EXPECT_EQ(m.per_iteration.samples, graphs > 0 ? graphs : o.iterations);
      }
    }
  }
}

TEST(NcclBackend, RegisteredBuffers) {
  COLLBENCH_REQUIRE_GPU();
  bootstrap::SingleBootstrap boot;
  for (int mode : {1, 2}) {  // ncclCommRegister; symmetric windows (2.27+, else as 1)
    ProcessResources process;
    auto made = make_nccl(boot, process, mode);
    if (!made.ok() && made.status().code() == ErrorCode::kUnsupported) GTEST_SKIP() << made.status().message();
    ASSERT_TRUE(made.ok()) << made.status().message();
    auto outcome = sweep(boot, **made, small_sweep(1 << 20));
    ASSERT_TRUE(outcome.ok()) << "-R " << mode << ": " << outcome.status().message();
    expect_all_checked_and_right(*outcome);
  }
}

TEST(NcclBackend, PointToPointStepsMoveTheData) {
  COLLBENCH_REQUIRE_GPU();
  bootstrap::SingleBootstrap boot;
  ProcessResources process;
  auto b = open_backend(boot, process);
  ASSERT_NE(b, nullptr);
  constexpr std::uint64_t kCount = 1 << 16;
  auto send = b->allocate(kCount * 4);
  auto recv = b->allocate(kCount * 4);
  ASSERT_TRUE(send.ok() && recv.ok());
  const auto counts = coll::counts_for(coll::Collective::kSendRecv, kCount, 4, 1);
  const check::DataSpec spec = check::make_data_spec(coll::Collective::kSendRecv, DataType::kFloat, ReduceOp::kSum, 1,
                                                     0, counts, 3);
  ASSERT_TRUE(b->memory().fill_input(send->data(), kCount, spec, 0).ok());
  ASSERT_TRUE(b->comm().launch_p2p({DataType::kFloat, kCount, send->data(), recv->data(), 0, 0}).ok());
  ASSERT_TRUE(b->comm().synchronize().ok());
  auto checked = b->memory().verify(recv->data(), spec, 0, 4);
  ASSERT_TRUE(checked.ok()) << checked.status().message();
  EXPECT_EQ(checked->wrong, 0u);
}

// -g: several GPUs of this machine driven by threads of this process.
TEST(NcclBackend, ThreadRanksOnSeveralGpus) {
  const backend::cuda::CudaProbe probe = backend::cuda::probe_cuda();
  if (probe.devices < 2) GTEST_SKIP() << "needs two GPUs (sees " << probe.devices << ") " << probe.error;
  const int n = std::min(probe.devices, 4);
  bootstrap::SingleBootstrap single;
  bootstrap::ThreadGroup group(single, n);
  ProcessResources process;  // one process: its threads' communicators stop together
  std::vector<Result<engine::RunOutcome>> outcomes(static_cast<std::size_t>(n),
                                                   Status::error(ErrorCode::kInternal, "not run"));
  {
    std::vector<std::jthread> threads;
    for (int t = 0; t < n; ++t) {
      threads.emplace_back([&, t] {
        auto boot = group.member(t);
        auto made = make_nccl(*boot, process);
        if (!made.ok()) {
          outcomes[static_cast<std::size_t>(t)] = made.status();
          group.abandon(made.status());
          return;
        }
        engine::RunOptions o = small_sweep(1 << 20);
        o.collectives.clear();
        for (const auto& c : coll::all_collectives()) o.collectives.push_back(c.collective);
        o.ops = {ReduceOp::kSum, ReduceOp::kAvg, ReduceOp::kPreMulSum};
        outcomes[static_cast<std::size_t>(t)] = sweep(*boot, **made, o);
        if (!outcomes[static_cast<std::size_t>(t)].ok()) group.abandon(outcomes[static_cast<std::size_t>(t)].status());
      });
    }
  }
  for (int t = 0; t < n; ++t) {
    const auto& outcome = outcomes[static_cast<std::size_t>(t)];
    ASSERT_TRUE(outcome.ok()) << "rank " << t << ": " << outcome.status().message();
    expect_all_checked_and_right(*outcome);
  }
}

}  // namespace
}  // namespace collbench
