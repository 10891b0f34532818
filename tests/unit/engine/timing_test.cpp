#include "bench/engine/timing.hpp"

#include <gtest/gtest.h>

#include <memory>

#include "bench/backend/host_memory.hpp"
#include "bench/bootstrap/single.hpp"
#include "bench/engine/measure.hpp"

namespace collbench::engine {
namespace {

// Counts what the timed loop asks of a communicator, and where it points; launches do nothing.
class RecordingComm final : public backend::Communicator {
 public:
  explicit RecordingComm(backend::LaunchFeatures features) : features_(features) {}

  backend::BackendInfo info() const override { return {"recording", "test", ""}; }
  std::optional<std::string> unsupported(coll::Collective, DataType, ReduceOp, int) const override { return {}; }
  backend::LaunchFeatures features() const override { return features_; }

  Status launch(const backend::Call& call) override {
    ++(capturing ? captured_launches : launches);
    sends.push_back(call.send);
    recvs.push_back(call.recv);
    return fail_launch ? Status::error(ErrorCode::kComm, "launch failed") : ok_status();
  }
  Status launch_group(std::span<const backend::Call> calls) override {
    ++(capturing ? captured_groups : groups);
    group_sizes.push_back(calls.size());
    for (const auto& c : calls) COLLBENCH_RETURN_IF_ERROR(launch(c));
    return ok_status();
  }
  Status begin_capture() override {
    capturing = true;
    ++captures;
    return ok_status();
  }
  Status end_capture() override {
    capturing = false;
    ++ended;
    return ok_status();
  }
  Status replay() override {
    ++replays;
    return ok_status();
  }
  Status synchronize() override {
    ++syncs;
    return ok_status();
  }

  bool capturing = false;
  bool fail_launch = false;
  int launches = 0, groups = 0, captured_launches = 0, captured_groups = 0;
  int captures = 0, ended = 0, replays = 0, syncs = 0;
  std::vector<std::size_t> group_sizes;
  std::vector<const void*> sends;
  std::vector<void*> recvs;

 private:
  backend::LaunchFeatures features_;
};

// A clock whose marks would cost the measured work something, as CUDA events do.
class IntrusiveClock final : public backend::IterationClock {
 public:
  Status prepare(std::size_t marks) override {
    prepared += static_cast<int>(marks);
    return ok_status();
  }
  void mark(std::size_t) override { ++marked; }
  Status read_us(std::span<double> out) override {
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<double>(i);
    return ok_status();
  }
  bool intrusive() const override { return true; }
  int prepared = 0;
  int marked = 0;
};

// Host memory with an intrusive clock: a stand-in for device memory's marks.
class IntrusiveMemory final : public backend::Memory {
 public:
  std::string_view kind() const override { return "device"; }
  backend::DeviceInfo device() const override { return {}; }
  Result<backend::Buffer> allocate(std::uint64_t bytes) override { return backend::allocate_host(bytes); }
  Status fill_input(void*, std::uint64_t, const check::DataSpec&, int) override { return ok_status(); }
  Status poison(void*, std::uint64_t) override { return ok_status(); }
  Result<check::CheckResult> verify(const void*, const check::DataSpec&, int, std::size_t) override {
    return check::CheckResult{};
  }
  Status write_bytes(void*, const void*, std::size_t) override { return ok_status(); }
  Status read_bytes(void*, const void*, std::size_t) override { return ok_status(); }
  backend::IterationClock& clock() override { return clock_; }
  IntrusiveClock clock_;
};

struct Fixture {
  explicit Fixture(backend::LaunchFeatures features, bool intrusive = false) {
    auto c = std::make_unique<RecordingComm>(features);
    comm = c.get();
    std::unique_ptr<backend::Memory> m;
    if (intrusive) {
      auto im = std::make_unique<IntrusiveMemory>();
      clock = &im->clock_;
      m = std::move(im);
    } else {
      m = std::make_unique<backend::HostMemory>("0");
    }
    backend = std::make_unique<backend::Backend>(std::move(m), std::move(c));
  }
  RecordingComm* comm = nullptr;
  IntrusiveClock* clock = nullptr;
  std::unique_ptr<backend::Backend> backend;
};

RunOptions options(std::uint64_t iterations, std::uint64_t aggregation, std::uint64_t graph_launches) {
  RunOptions o;
  o.iterations = iterations;
  o.aggregation = aggregation;
  o.graph_launches = graph_launches;
  o.warmup_iterations = 2;
  return o;
}

const backend::Call kCall{};

LoopPlan plan_of(std::uint64_t iterations, Rotation rotation = {}) { return {iterations, 0, rotation, 0}; }

TEST(TimeLoop, OneLaunchPerIterationByDefault) {
  Fixture f({});
  bootstrap::SingleBootstrap boot;
  LoopTimes t;
  ASSERT_TRUE(time_loop(*f.backend, boot, kCall, options(7, 1, 0), plan_of(7), nullptr, t).ok());
  EXPECT_EQ(f.comm->launches, 7);
  EXPECT_EQ(f.comm->groups, 0);
  EXPECT_EQ(f.comm->syncs, 1);  // one synchronization, after the last launch
  EXPECT_EQ(t.operations, 7u);
  EXPECT_EQ(t.iteration_us.size(), 7u);  // host marks cost nothing: always taken
  EXPECT_GE(t.elapsed_us, 0.0);
}

TEST(TimeLoop, AggregationGroupsOperationsAndCountsEveryOne) {
  Fixture f({true, false});
  bootstrap::SingleBootstrap boot;
  LoopTimes t;
  ASSERT_TRUE(time_loop(*f.backend, boot, kCall, options(5, 4, 0), plan_of(5), nullptr, t).ok());
  EXPECT_EQ(f.comm->groups, 5);
  EXPECT_EQ(f.comm->launches, 20);
  EXPECT_EQ(f.comm->group_sizes, std::vector<std::size_t>(5, 4));
  EXPECT_EQ(t.operations, 20u);  // the per-operation time is elapsed / (iterations x m)
  EXPECT_EQ(t.iteration_us.size(), 5u);
}

TEST(TimeLoop, BlockingModesSynchronizeEveryIteration) {
  Fixture f({true, false});
  bootstrap::SingleBootstrap boot;
  LoopTimes t;
  RunOptions o = options(3, 2, 0);
  o.blocking = Blocking::kSync;
  ASSERT_TRUE(time_loop(*f.backend, boot, kCall, o, plan_of(3), nullptr, t).ok());
  EXPECT_EQ(f.comm->syncs, 4);
  EXPECT_EQ(t.operations, 6u);
}

TEST(TimeLoop, BarrierExcludedModeTimesOnlyLaunchAndWait) {
  // -z 3: each iteration waits, and its barrier is outside the time (nccl-tests' collOnlySec).
  Fixture f({}, /*intrusive=*/true);
  bootstrap::SingleBootstrap boot;
  LoopTimes t;
  RunOptions o = options(4, 1, 0);
  o.blocking = Blocking::kSyncUntimedBarrier;
  o.per_iteration_timing = true;
  ASSERT_TRUE(time_loop(*f.backend, boot, kCall, o, plan_of(4), nullptr, t).ok());
  EXPECT_EQ(f.comm->syncs, 5);    // one per iteration, and the final one
  EXPECT_EQ(f.clock->marked, 8);  // paired marks around each iteration's launch and wait
  EXPECT_EQ(t.iteration_us, std::vector<double>(4, 1.0));
}

TEST(TimeLoop, IntrusiveClocksMarkIterationsOnlyWhenAsked) {
  Fixture f({}, /*intrusive=*/true);
  bootstrap::SingleBootstrap boot;
  LoopTimes t;
  ASSERT_TRUE(time_loop(*f.backend, boot, kCall, options(6, 1, 0), plan_of(6), nullptr, t).ok());
  EXPECT_EQ(f.clock->marked, 0);  // nccl-tests' default: no event between launches
  EXPECT_EQ(f.clock->prepared, 0);
  EXPECT_TRUE(t.iteration_us.empty());
  EXPECT_EQ(t.operations, 6u);
  RunOptions o = options(6, 1, 0);
  o.per_iteration_timing = true;  // -I 1
  ASSERT_TRUE(time_loop(*f.backend, boot, kCall, o, plan_of(6), nullptr, t).ok());
  EXPECT_EQ(f.clock->marked, 7);
  EXPECT_EQ(t.iteration_us.size(), 6u);
}

TEST(TimeLoop, GraphsCaptureOnceAndTimeOnlyTheReplays) {
  Fixture f({true, true});
  bootstrap::SingleBootstrap boot;
  LoopTimes t;
  ASSERT_TRUE(time_loop(*f.backend, boot, kCall, options(5, 2, 3), plan_of(5), nullptr, t).ok());
  EXPECT_EQ(f.comm->captures, 1);
  EXPECT_EQ(f.comm->ended, 1);
  EXPECT_EQ(f.comm->captured_groups, 5);
  EXPECT_EQ(f.comm->captured_launches, 10);
  EXPECT_EQ(f.comm->launches, 0);  // nothing ran outside the capture
  EXPECT_EQ(f.comm->replays, 3);
  EXPECT_EQ(f.comm->syncs, 1);
  EXPECT_EQ(t.operations, 30u);          // elapsed / (iterations x m x G)
  EXPECT_EQ(t.iteration_us.size(), 3u);  // one sample per replay
}

TEST(TimeLoop, AFailedLaunchStillEndsTheCapture) {
  Fixture f({false, true});
  f.comm->fail_launch = true;
  bootstrap::SingleBootstrap boot;
  LoopTimes t;
  const Status s = time_loop(*f.backend, boot, kCall, options(4, 1, 2), plan_of(4), nullptr, t);
  EXPECT_EQ(s.code(), ErrorCode::kComm);
  EXPECT_EQ(f.comm->ended, 1);
  EXPECT_FALSE(f.comm->capturing);
  EXPECT_EQ(f.comm->replays, 0);
}

// nccl-tests' startColl: shift = totalbytes * (op % (maxbytes / totalbytes)), on both buffers.
TEST(Rotation, EveryOperationMovesBothBuffersThroughTheAllocation) {
  const Rotation r = rotation_for(1000, 4500, false);
  EXPECT_EQ(r.step_bytes, 1000u);
  EXPECT_EQ(r.steps, 4u);
  EXPECT_EQ(r.shift(0), 0u);
  EXPECT_EQ(r.shift(3), 3000u);
  EXPECT_EQ(r.shift(4), 0u);
  EXPECT_EQ(r.shift(9), 1000u);
  // At the largest size, or with --fixed-buffers, the addresses stay.
  EXPECT_EQ(rotation_for(4500, 4500, false).steps, 1u);
  EXPECT_EQ(rotation_for(1000, 4500, true).step_bytes, 0u);
  EXPECT_EQ(rotation_for(0, 4500, false).step_bytes, 0u);

  Fixture f({true, false});
  bootstrap::SingleBootstrap boot;
  LoopTimes t;
  char send[8000];
  char recv[8000];
  const backend::Call call{coll::Collective::kAllReduce, DataType::kFloat, ReduceOp::kSum, 0, {}, send, recv, false};
  ASSERT_TRUE(
      time_loop(*f.backend, boot, call, options(3, 2, 0), plan_of(3, rotation_for(1000, 4000, false)), nullptr, t)
          .ok());
  ASSERT_EQ(f.comm->sends.size(), 6u);
  // Operations 0..5 of three groups of two: shifts 0, 1000, 2000, 3000, 0, 1000.
  const std::vector<std::ptrdiff_t> want = {0, 1000, 2000, 3000, 0, 1000};
  for (std::size_t k = 0; k < want.size(); ++k) {
    EXPECT_EQ(static_cast<const char*>(f.comm->sends[k]) - send, want[k]) << k;
    EXPECT_EQ(static_cast<char*>(f.comm->recvs[k]) - recv, want[k]) << k;
  }
}

TEST(WarmUp, UsesTheSameGroupsAsTheTimedLoop) {
  Fixture f({true, false});
  ASSERT_TRUE(warm_up(*f.backend, kCall, options(1, 3, 0), {}).ok());
  EXPECT_EQ(f.comm->groups, 2);
  EXPECT_EQ(f.comm->launches, 6);
}

TEST(CheckLaunchModes, RefusesWhatTheBackendCannotDo) {
  Fixture plain({});
  EXPECT_TRUE(check_launch_modes(options(1, 1, 0), *plain.backend).ok());
  const Status m = check_launch_modes(options(1, 4, 0), *plain.backend);
  EXPECT_EQ(m.code(), ErrorCode::kUnsupported);
  EXPECT_NE(m.message().find("-m/--agg_iters 4: the recording backend cannot group"), std::string::npos) << m.message();
  const Status g = check_launch_modes(options(1, 1, 5), *plain.backend);
  EXPECT_EQ(g.code(), ErrorCode::kUnsupported);
  EXPECT_NE(g.message().find("-G/--cudagraph 5"), std::string::npos);

  Fixture capable({true, true});
  EXPECT_TRUE(check_launch_modes(options(1, 4, 5), *capable.backend).ok());
  RunOptions blocking = options(1, 1, 5);
  blocking.blocking = Blocking::kSyncBarrier;
  EXPECT_EQ(check_launch_modes(blocking, *capable.backend).code(), ErrorCode::kUsage);
}

TEST(CommunicatorDefaults, LaunchModesAreRefusedWithTheBackendName) {
  RecordingComm c({});
  const Status s = c.Communicator::launch_group({});
  EXPECT_EQ(s.code(), ErrorCode::kUnsupported);
  EXPECT_EQ(s.message(), "the recording backend has no grouped launches");
  EXPECT_EQ(c.Communicator::replay().code(), ErrorCode::kUnsupported);
}

TEST(Measure, PrecisionNeedsEnoughSamplesTimeAndAnarrowInterval) {
  Precision p;                                            // 10 samples, 0.05 s .. 0.5 s, 2 %
  EXPECT_FALSE(precise_enough({5, 5, 0.1, 0.01}, p));     // too few samples
  EXPECT_FALSE(precise_enough({20, 20, 0.01, 0.01}, p));  // too short
  EXPECT_FALSE(precise_enough({20, 20, 0.1, 0.05}, p));   // too wide
  EXPECT_TRUE(precise_enough({20, 20, 0.1, 0.01}, p));
  EXPECT_TRUE(precise_enough({20, 20, 0.6, 0.5}, p));      // out of time
  EXPECT_TRUE(precise_enough({3, 100000, 0.01, 1.0}, p));  // out of iterations
}

TEST(Measure, BatchesGrowToFillTheMinimumTime) {
  Precision p;
  // Per-iteration samples: the first batch is min_iterations; then at least as many again.
  EXPECT_EQ(next_batch({0, 0, 0, 0}, p, true), 10u);
  EXPECT_EQ(next_batch({10, 10, 0.001, 1.0}, p, true), 490u);  // 100 us each: 0.05 s needs 500
  // One sample per batch: one iteration to learn the cost, then batches of a tenth of the
  // minimum time, so that ten of them fill it.
  EXPECT_EQ(next_batch({0, 0, 0, 0}, p, false), 1u);
  EXPECT_EQ(next_batch({1, 1, 0.0001, 1.0}, p, false), 50u);
  EXPECT_EQ(next_batch({2, 51, 0.0051, 1.0}, p, false), 50u);
}

}  // namespace
}  // namespace collbench::engine
