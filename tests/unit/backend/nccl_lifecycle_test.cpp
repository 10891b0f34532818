// The order of a communicator's waiting, failure and end (comm_lifecycle.hpp), held to
// nccl-tests' with a test double of the NCCL and CUDA calls: no GPU, no library call.
#include "bench/backend/nccl/comm_lifecycle.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <latch>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace collbench::backend::nccl {
namespace {

// Opaque handles the double names in its log ("c1", "s1"); they are never dereferenced.
template <typename Handle>
Handle handle(std::uintptr_t n) {
  return reinterpret_cast<Handle>(n);  // NOLINT(performance-no-int-to-ptr)
}

std::string name_of(const void* h, char prefix) { return prefix + std::to_string(reinterpret_cast<std::uintptr_t>(h)); }

// Records every call, from any thread. A call on a communicator after its abort or destroy
// (both free it) is logged as "use after free: ...", so that an exact log shows it.
class RecordingCalls final : public CommCalls {
 public:
  cudaError_t stream_query(cudaStream_t stream) override {
    const std::lock_guard lock(mutex_);
    log.push_back("query " + name_of(stream, 's'));
    if (queries.empty()) return drained;
    const cudaError_t rc = queries.front();
    queries.pop_front();
    return rc;
  }
  ncclResult_t async_error(ncclComm_t comm, ncclResult_t* result) override {
    touch("async " + name_of(comm, 'c'), comm, false);
    *result = async;
    return ncclSuccess;
  }
  ncclResult_t abort(ncclComm_t comm) override {
    touch("abort " + name_of(comm, 'c'), comm, true);
    if (on_abort) on_abort();  // outside the lock: it may wait for another thread that logs
    return ncclSuccess;
  }
  ncclResult_t destroy(ncclComm_t comm) override {
    touch("destroy " + name_of(comm, 'c'), comm, true);
    return ncclSuccess;
  }
  ncclResult_t deregister(ncclComm_t comm, void* h, bool window) override {
    touch(std::string(window ? "window-deregister " : "deregister ") + name_of(comm, 'c') + " " + name_of(h, 'h'), comm,
          false);
    return ncclSuccess;
  }
  cudaError_t graph_launch(cudaGraphExec_t graph, cudaStream_t stream) override {
    record("graph-launch " + name_of(graph, 'g') + " " + name_of(stream, 's'));
    return cudaSuccess;
  }
  cudaError_t graph_destroy(cudaGraphExec_t graph) override {
    record("graph-destroy " + name_of(graph, 'g'));
    return cudaSuccess;
  }
  void yield() override {
    record("yield");
    if (on_yield) on_yield();
  }

  // What a collective launched through CommLifecycle::use() calls.
  void launch(ncclComm_t comm) { touch("launch " + name_of(comm, 'c'), comm, false); }
  void record(std::string entry) {
    const std::lock_guard lock(mutex_);
    log.push_back(std::move(entry));
  }

  std::deque<cudaError_t> queries;  // what stream_query answers, in turn; then `drained`
  cudaError_t drained = cudaSuccess;
  ncclResult_t async = ncclSuccess;
  std::function<void()> on_yield;  // after each yield
  std::function<void()> on_abort;  // inside abort, after it is logged
  std::vector<std::string> log;    // read once the threads that call have been joined

 private:
  void touch(const std::string& entry, ncclComm_t comm, bool frees) {
    const std::lock_guard lock(mutex_);
    log.push_back(freed_.contains(comm) ? "use after free: " + entry : entry);
    if (frees) freed_.insert(comm);
  }

  std::mutex mutex_;
  std::set<ncclComm_t> freed_;
};

// A collective launch, as NcclCommunicator makes it.
Status launch(CommLifecycle& comm, RecordingCalls& calls) {
  return comm.use([&](ncclComm_t c) {
    calls.launch(c);
    return ok_status();
  });
}

TEST(CommLifecycle, WaitingPollsTheStreamAndTheCommunicatorAndYields) {
  RecordingCalls calls;
  ProcessResources process;
  calls.queries = {cudaErrorNotReady, cudaErrorNotReady};
  {
    CommLifecycle comm(calls, process, handle<ncclComm_t>(1));
    ASSERT_TRUE(comm.wait(handle<cudaStream_t>(7)).ok());
  }
  EXPECT_EQ(calls.log, (std::vector<std::string>{"query s7", "async c1", "yield", "query s7", "async c1", "yield",
                                                 "query s7", "destroy c1"}));
}

TEST(CommLifecycle, AnAsynchronousErrorAbortsEveryCommunicatorOfTheProcessAndDestroysNone) {
  // Two ranks of one process (-g 2): the first sees the error, both are aborted at once, and
  // neither is destroyed or deregistered afterwards (a destroy would wait on the dead peer).
  RecordingCalls calls;
  ProcessResources process;
  {
    CommLifecycle first(calls, process, handle<ncclComm_t>(1));
    CommLifecycle second(calls, process, handle<ncclComm_t>(2));
    const auto registered = second.state();
    calls.queries = {cudaErrorNotReady};
    calls.async = ncclRemoteError;
    const Status s = first.wait(handle<cudaStream_t>(7));
    EXPECT_EQ(s.code(), ErrorCode::kComm);
    EXPECT_NE(s.message().find("ncclCommGetAsyncError"), std::string::npos) << s.message();
    EXPECT_TRUE(first.aborted());
    EXPECT_TRUE(second.aborted());
    registered->deregister(handle<void*>(9), false);  // a buffer released after the abort
  }
  EXPECT_EQ(calls.log, (std::vector<std::string>{"query s7", "async c1", "abort c1", "abort c2"}));
}

TEST(CommLifecycle, AFailedStreamOrLaunchStopsEveryCommunicator) {
  RecordingCalls calls;
  ProcessResources process;
  {
    CommLifecycle first(calls, process, handle<ncclComm_t>(1));
    CommLifecycle second(calls, process, handle<ncclComm_t>(2));
    calls.queries = {cudaErrorLaunchFailure};
    EXPECT_EQ(first.wait(handle<cudaStream_t>(7)).code(), ErrorCode::kComm);
  }
  EXPECT_EQ(calls.log, (std::vector<std::string>{"query s7", "abort c1", "abort c2"}));

  RecordingCalls again;
  ProcessResources other;
  {
    CommLifecycle only(again, other, handle<ncclComm_t>(3));
    only.fail();  // a launch that returned an error
    only.fail();  // aborts once
  }
  EXPECT_EQ(again.log, (std::vector<std::string>{"abort c3"}));
}

TEST(CommLifecycle, AfterAnAbortFromAnotherThreadTheOwnerNeverCallsTheCommunicator) {
  // The watchdog's thread stops everything. ncclCommAbort has freed the communicator: the
  // owner's next launch, wait and replay fail without a call on it, its buffers are not
  // deregistered, and its end destroys nothing. The kept graph went first (the abort waits
  // for every graph that holds the communicator).
  RecordingCalls calls;
  ProcessResources process;
  {
    CommLifecycle comm(calls, process, handle<ncclComm_t>(1));
    const auto registered = comm.state();
    comm.keep_graph(handle<cudaGraphExec_t>(4));
    std::thread watchdog([&] { process.stop_all(); });
    watchdog.join();
    EXPECT_TRUE(comm.aborted());
    const Status launched = launch(comm, calls);
    EXPECT_EQ(launched.code(), ErrorCode::kComm);
    EXPECT_NE(launched.message().find("aborted"), std::string::npos) << launched.message();
    EXPECT_EQ(comm.wait(handle<cudaStream_t>(7)).code(), ErrorCode::kComm);
    EXPECT_EQ(comm.replay(handle<cudaStream_t>(7)).code(), ErrorCode::kComm);
    registered->deregister(handle<void*>(5), false);
  }
  EXPECT_EQ(calls.log, (std::vector<std::string>{"graph-destroy g4", "abort c1"}));
}

TEST(CommLifecycle, AnAbortWhileTheOwnerWaitsEndsTheWaitWithAnErrorAndNoFurtherCall) {
  // The stream never drains (a kernel waiting on a dead peer): only the abort ends the wait.
  // The watchdog's stop comes between two polls, when the owner yields.
  RecordingCalls calls;
  ProcessResources process;
  calls.drained = cudaErrorNotReady;
  std::latch polled(1);
  std::latch stopped(1);
  calls.on_yield = [&, first = true]() mutable {
    if (!std::exchange(first, false)) return;
    polled.count_down();
    stopped.wait();
  };
  Status waited;
  {
    CommLifecycle comm(calls, process, handle<ncclComm_t>(1));
    std::thread watchdog([&] {
      polled.wait();
      process.stop_all();
      stopped.count_down();
    });
    waited = comm.wait(handle<cudaStream_t>(7));
    watchdog.join();
    EXPECT_TRUE(comm.aborted());
  }
  EXPECT_EQ(waited.code(), ErrorCode::kComm);
  EXPECT_EQ(calls.log, (std::vector<std::string>{"query s7", "async c1", "yield", "abort c1"}));
}

TEST(CommLifecycle, AStopThatCannotWaitForAStuckLaunchLeavesTheAbortToTheOwner) {
  // The owner is inside a launch (holding the communicator) when the stop comes; the stop
  // does not wait (0 ms here), so it never overlaps the launch. The owner's calls are refused
  // from then on, and its next wait runs the abort (from its own thread).
  RecordingCalls calls;
  ProcessResources process;
  std::latch launching(1);
  std::latch stop_returned(1);
  Status launched;
  {
    CommLifecycle comm(calls, process, handle<ncclComm_t>(1), std::chrono::milliseconds(0));
    std::thread watchdog([&] {
      launching.wait();
      process.stop_all();
      stop_returned.count_down();
    });
    launched = comm.use([&](ncclComm_t c) {
      calls.launch(c);
      launching.count_down();
      stop_returned.wait();  // stuck in the launch until the stop has returned
      return ok_status();
    });
    watchdog.join();
    EXPECT_FALSE(comm.aborted());
    EXPECT_EQ(launch(comm, calls).code(), ErrorCode::kComm);
    EXPECT_EQ(comm.wait(handle<cudaStream_t>(7)).code(), ErrorCode::kComm);
    EXPECT_TRUE(comm.aborted());
  }
  EXPECT_TRUE(launched.ok());  // it was made before the stop; the wait reports the stop
  EXPECT_EQ(calls.log, (std::vector<std::string>{"launch c1", "abort c1"}));
}

TEST(CommLifecycle, AnAbortUnderWayRefusesTheOwnerAtOnceAndOutlivesItsEnd) {
  // The abort runs without the lock: the owner finds the communicator aborted while NCCL is
  // still aborting it, without waiting; its end (after which its buffers are freed) waits for
  // that abort to return.
  RecordingCalls calls;
  ProcessResources process;
  std::latch aborting(1);
  std::latch release(1);
  calls.on_abort = [&] {
    aborting.count_down();
    release.wait();
    calls.record("abort returns");
  };
  auto comm = std::make_unique<CommLifecycle>(calls, process, handle<ncclComm_t>(1));
  std::thread watchdog([&] { process.stop_all(); });
  aborting.wait();
  EXPECT_EQ(launch(*comm, calls).code(), ErrorCode::kComm);
  EXPECT_EQ(comm->wait(handle<cudaStream_t>(7)).code(), ErrorCode::kComm);
  std::thread owner([&] {
    comm.reset();
    calls.record("owner ended");
  });
  release.count_down();
  owner.join();
  watchdog.join();
  EXPECT_EQ(calls.log, (std::vector<std::string>{"abort c1", "abort returns", "owner ended"}));
}

TEST(CommLifecycle, AStopRacingTheEndFreesTheCommunicatorExactlyOnce) {
  // Whichever comes first, the stop or the end: one abort or one destroy, never both, never
  // a call after either.
  for (int round = 0; round < 200; ++round) {
    RecordingCalls calls;
    ProcessResources process;
    auto comm = std::make_unique<CommLifecycle>(calls, process, handle<ncclComm_t>(1));
    std::latch go(2);
    std::thread watchdog([&] {
      go.arrive_and_wait();
      process.stop_all();
    });
    go.arrive_and_wait();
    comm.reset();
    watchdog.join();
    ASSERT_EQ(calls.log.size(), 1U) << "round " << round;
    EXPECT_TRUE(calls.log[0] == "abort c1" || calls.log[0] == "destroy c1") << calls.log[0];
  }
}

TEST(CommLifecycle, AnEndAfterTheProcessStoppedAbortsInsteadOfDestroying) {
  // Its stop was forgotten, or never ran: a destroy would wait on peers that may be gone.
  RecordingCalls calls;
  ProcessResources process;
  process.stop_all();
  { CommLifecycle comm(calls, process, handle<ncclComm_t>(1)); }
  EXPECT_EQ(calls.log, (std::vector<std::string>{"abort c1"}));
}

TEST(CommLifecycle, GraphsAreReplayedKeptOneAtATimeAndDestroyedBeforeTheCommunicator) {
  RecordingCalls calls;
  ProcessResources process;
  {
    CommLifecycle comm(calls, process, handle<ncclComm_t>(1));
    EXPECT_EQ(comm.replay(handle<cudaStream_t>(7)).code(), ErrorCode::kInternal);  // nothing captured
    comm.keep_graph(handle<cudaGraphExec_t>(3));
    ASSERT_TRUE(comm.replay(handle<cudaStream_t>(7)).ok());
    comm.keep_graph(handle<cudaGraphExec_t>(4));  // the next row's capture
  }
  EXPECT_EQ(calls.log,
            (std::vector<std::string>{"graph-launch g3 s7", "graph-destroy g3", "graph-destroy g4", "destroy c1"}));
}

TEST(CommLifecycle, AGraphCapturedAcrossAnAbortIsDestroyedAtOnce) {
  // The abort came during a capture; the capture's graph holds the communicator, and the
  // abort waits for it.
  RecordingCalls calls;
  ProcessResources process;
  {
    CommLifecycle comm(calls, process, handle<ncclComm_t>(1));
    comm.fail();
    comm.keep_graph(handle<cudaGraphExec_t>(5));
    EXPECT_EQ(comm.replay(handle<cudaStream_t>(7)).code(), ErrorCode::kComm);
  }
  EXPECT_EQ(calls.log, (std::vector<std::string>{"abort c1", "graph-destroy g5"}));
}

TEST(CommLifecycle, ANormalEndDeregistersThenDestroys) {
  RecordingCalls calls;
  ProcessResources process;
  {
    CommLifecycle comm(calls, process, handle<ncclComm_t>(1));
    comm.state()->deregister(handle<void*>(5), false);
    comm.state()->deregister(handle<void*>(6), true);
  }
  EXPECT_EQ(calls.log, (std::vector<std::string>{"deregister c1 h5", "window-deregister c1 h6", "destroy c1"}));
  // Gone from the process's stops: a later stop_all touches nothing.
  EXPECT_EQ(process.stop_all(), 0);
}

}  // namespace
}  // namespace collbench::backend::nccl
