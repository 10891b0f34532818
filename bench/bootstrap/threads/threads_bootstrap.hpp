// N ranks inside one process, one per thread (nccl-tests' -g: one process drives several
// GPUs). The group sits on top of the process-level bootstrap, so a job of P processes with
// N threads each has P x N ranks: rank = process rank x N + thread, and local ranks follow
// the same rule, so "device = local rank" picks a distinct GPU for every thread of a host.
//
// Every exchange runs in two steps: each member posts its arguments, then member 0 (the
// leader) combines them, makes the one call to the process-level bootstrap, and writes every
// member's result. Member 0 must therefore run on the thread that may call the parent (with
// MPI: the thread that initialized it).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "bench/bootstrap/bootstrap.hpp"

namespace collbench::bootstrap {

class ThreadGroup {
 public:
  // `parent` must outlive the group and every member; `threads` >= 1 on every process.
  ThreadGroup(Bootstrap& parent, int threads);
  ~ThreadGroup() = default;
  ThreadGroup(const ThreadGroup&) = delete;
  ThreadGroup& operator=(const ThreadGroup&) = delete;

  int threads() const { return threads_; }
  // The bootstrap of in-process rank `thread` (0 <= thread < threads()); the group must
  // outlive it.
  std::unique_ptr<Bootstrap> member(int thread);

  // A member that fails on its own can no longer join exchanges: this wakes every member
  // waiting in one, and fails every later exchange, with `why`. Thread-safe.
  void abandon(const Status& why);

 private:
  friend class ThreadMember;

  // What one member brought to the exchange in progress.
  struct Post {
    std::span<const std::byte> in;
    std::span<std::byte> out;
    std::span<double> values;
  };
  using LeaderStep = std::function<Status()>;

  // Posts `post`, waits for every member, lets the leader run `step`, and returns its status
  // to every member once the leader has written all results.
  Status exchange(int thread, const Post& post, const LeaderStep& step);
  Status arrive(int thread);  // a barrier of the members that can be abandoned
  std::vector<int> missing_ranks() const;

  Status leader_allgather();
  Status leader_broadcast(int root);
  Status leader_allreduce(ReduceOp op);

  Bootstrap& parent_;
  const int threads_;
  const std::string name_;
  std::vector<Post> posts_;
  std::vector<std::byte> stage_;
  std::vector<std::byte> gathered_;
  std::vector<double> reduced_;
  Status step_status_;

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<bool> arrived_;
  int waiting_ = 0;
  std::uint64_t generation_ = 0;
  Status abandoned_;
};

}  // namespace collbench::bootstrap
