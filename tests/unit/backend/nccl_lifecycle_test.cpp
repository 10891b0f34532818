// The order of a communicator's waiting, failure and end (comm_lifecycle.hpp), held to
// nccl-tests' with a test double of the NCCL and CUDA calls: no GPU, no library call.
#include "bench/backend/nccl/comm_lifecycle.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <string>
#include <thread>
#include <vector>

namespace collbench::backend::nccl {
namespace {

// Opaque handles the double names in its log ("c1", "s1"); they are never dereferenced.
template <typename Handle>
Handle handle(std::uintptr_t n) {
  return reinterpret_cast<Handle>(n);  // NOLINT(performance-no-int-to-ptr)
}

std::string name_of(const void* h, char prefix) {
  return prefix + std::to_string(reinterpret_cast<std::uintptr_t>(h));
}

class RecordingCalls final : public CommCalls {
 public:
  cudaError_t stream_query(cudaStream_t stream) override {
    log.push_back("query " + name_of(stream, 's'));
    if (queries.empty()) return cudaSuccess;
    const cudaError_t rc = queries.front();
    queries.pop_front();
    return rc;
  }
  ncclResult_t async_error(ncclComm_t comm, ncclResult_t* result) override {
    log.push_back("async " + name_of(comm, 'c'));
    *result = async;
    return ncclSuccess;
  }
  ncclResult_t abort(ncclComm_t comm) override {
    log.push_back("abort " + name_of(comm, 'c'));
    return ncclSuccess;
  }
  ncclResult_t destroy(ncclComm_t comm) override {
    log.push_back("destroy " + name_of(comm, 'c'));
    return ncclSuccess;
  }
  ncclResult_t deregister(ncclComm_t comm, void* h, bool window) override {
    log.push_back(std::string(window ? "window-deregister " : "deregister ") + name_of(comm, 'c') + " " +
                  name_of(h, 'h'));
    return ncclSuccess;
  }
  void yield() override { log.emplace_back("yield"); }

  std::deque<cudaError_t> queries;  // what stream_query answers, in turn; then cudaSuccess
  ncclResult_t async = ncclSuccess;
  std::vector<std::string> log;
};

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

TEST(CommLifecycle, ATimeoutOnAnotherThreadAbortsWhileThisOneWaits) {
  // The watchdog's thread stops everything while the main thread polls a stream that will
  // not drain; the poll then sees the communicator's error and returns.
  RecordingCalls calls;
  ProcessResources process;
  CommLifecycle comm(calls, process, handle<ncclComm_t>(1));
  for (int i = 0; i < 3; ++i) calls.queries.push_back(cudaErrorNotReady);
  std::thread watchdog([&] { process.stop_all(); });
  watchdog.join();
  calls.async = ncclInvalidUsage;  // what a communicator reports once aborted
  EXPECT_FALSE(comm.wait(handle<cudaStream_t>(7)).ok());
  EXPECT_EQ(calls.log.front(), "abort c1");
  EXPECT_TRUE(comm.aborted());
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
