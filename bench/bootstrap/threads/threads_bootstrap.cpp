#include "bench/bootstrap/threads/threads_bootstrap.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace collbench::bootstrap {
namespace {

std::string group_name(const Bootstrap& parent) {
  return parent.name() == "single" ? std::string("threads") : std::string(parent.name()) + "+threads";
}

Status mismatch(std::string_view what) {
  return Status::error(ErrorCode::kInternal,
                       std::string(what) + ": the threads of this process passed different sizes");
}

// The control reduction's ops: sum, prod, min and max, as the env and MPI bootstraps do.
bool combinable(ReduceOp op) {
  switch (op) {
    case ReduceOp::kSum:
    case ReduceOp::kProd:
    case ReduceOp::kMin:
    case ReduceOp::kMax: return true;
    case ReduceOp::kAvg:
    case ReduceOp::kPreMulSum: return false;
  }
  return false;
}

void combine(std::span<double> into, std::span<const double> term, ReduceOp op) {
  for (std::size_t i = 0; i < into.size(); ++i) {
    switch (op) {
      case ReduceOp::kSum: into[i] += term[i]; break;
      case ReduceOp::kProd: into[i] *= term[i]; break;
      case ReduceOp::kMin: into[i] = std::min(into[i], term[i]); break;
      case ReduceOp::kMax: into[i] = std::max(into[i], term[i]); break;
      case ReduceOp::kAvg:
      case ReduceOp::kPreMulSum: break;  // refused before any combining (combinable)
    }
  }
}

}  // namespace

class ThreadMember final : public Bootstrap {
 public:
  ThreadMember(ThreadGroup& group, int thread) : group_(group), thread_(thread) {}

  std::string_view name() const override { return group_.name_; }
  int rank() const override { return group_.parent_.rank() * group_.threads_ + thread_; }
  int size() const override { return group_.parent_.size() * group_.threads_; }
  int local_rank() const override { return group_.parent_.local_rank() * group_.threads_ + thread_; }
  int local_size() const override { return group_.parent_.local_size() * group_.threads_; }

  Status barrier() override {
    return group_.exchange(thread_, {}, [this] { return group_.parent_.barrier(); });
  }
  Status allgather(std::span<const std::byte> mine, std::span<std::byte> all) override {
    return group_.exchange(thread_, {mine, all, {}}, [this] { return group_.leader_allgather(); });
  }
  Status broadcast(std::span<std::byte> data, int root) override {
    if (root < 0 || root >= size()) return Status::error(ErrorCode::kInternal, "broadcast: root out of range");
    return group_.exchange(thread_, {{}, data, {}}, [this, root] { return group_.leader_broadcast(root); });
  }
  Status allreduce(std::span<double> values, ReduceOp op) override {
    return group_.exchange(thread_, {{}, {}, values}, [this, op] { return group_.leader_allreduce(op); });
  }
  [[noreturn]] void abort(int exit_code) override {
    group_.parent_.abort(exit_code);
    std::_Exit(exit_code);  // not reached: the parent's abort does not return either
  }
  std::vector<int> missing_ranks() const override { return group_.missing_ranks(); }

 private:
  ThreadGroup& group_;
  const int thread_;
};

ThreadGroup::ThreadGroup(Bootstrap& parent, int threads)
    : parent_(parent), threads_(threads), name_(group_name(parent)), posts_(static_cast<std::size_t>(threads)),
      arrived_(static_cast<std::size_t>(threads), false) {}

std::unique_ptr<Bootstrap> ThreadGroup::member(int thread) { return std::make_unique<ThreadMember>(*this, thread); }

void ThreadGroup::abandon(const Status& why) {
  std::lock_guard lock(mutex_);
  if (!abandoned_.ok()) return;
  abandoned_ = Status::error(why.code(), "stopped because another rank of this process failed: " + why.message());
  changed_.notify_all();
}

Status ThreadGroup::arrive(int thread) {
  std::unique_lock lock(mutex_);
  if (!abandoned_.ok()) return abandoned_;
  arrived_[static_cast<std::size_t>(thread)] = true;
  if (++waiting_ == threads_) {
    waiting_ = 0;
    ++generation_;
    std::fill(arrived_.begin(), arrived_.end(), false);
    changed_.notify_all();
    return ok_status();
  }
  const std::uint64_t generation = generation_;
  changed_.wait(lock, [&] { return generation_ != generation || !abandoned_.ok(); });
  return generation_ != generation ? ok_status() : abandoned_;
}

Status ThreadGroup::exchange(int thread, const Post& post, const LeaderStep& step) {
  posts_[static_cast<std::size_t>(thread)] = post;
  COLLBENCH_RETURN_IF_ERROR(arrive(thread));
  if (thread == 0) step_status_ = step();
  COLLBENCH_RETURN_IF_ERROR(arrive(thread));
  return step_status_;
}

std::vector<int> ThreadGroup::missing_ranks() const {
  std::vector<int> missing;
  {
    std::lock_guard lock(mutex_);
    if (waiting_ > 0) {
      for (int t = 0; t < threads_; ++t) {
        if (!arrived_[static_cast<std::size_t>(t)]) missing.push_back(parent_.rank() * threads_ + t);
      }
      return missing;
    }
  }
  for (int process : parent_.missing_ranks()) {
    for (int t = 0; t < threads_; ++t) missing.push_back(process * threads_ + t);
  }
  return missing;
}

Status ThreadGroup::leader_allgather() {
  const std::size_t len = posts_[0].in.size();
  const std::size_t total = len * static_cast<std::size_t>(threads_ * parent_.size());
  for (const Post& p : posts_) {
    if (p.in.size() != len || p.out.size() != total) return mismatch("allgather");
  }
  stage_.resize(len * static_cast<std::size_t>(threads_));
  for (std::size_t t = 0; t < posts_.size(); ++t) {
    if (len > 0) std::memcpy(stage_.data() + t * len, posts_[t].in.data(), len);
  }
  gathered_.resize(total);
  COLLBENCH_RETURN_IF_ERROR(parent_.allgather(stage_, gathered_));
  for (const Post& p : posts_) {
    if (total > 0) std::memcpy(p.out.data(), gathered_.data(), total);
  }
  return ok_status();
}

Status ThreadGroup::leader_broadcast(int root) {
  const std::size_t len = posts_[0].out.size();
  for (const Post& p : posts_) {
    if (p.out.size() != len) return mismatch("broadcast");
  }
  const int root_process = root / threads_;
  stage_.assign(len, std::byte{0});
  if (parent_.rank() == root_process && len > 0) {
    std::memcpy(stage_.data(), posts_[static_cast<std::size_t>(root % threads_)].out.data(), len);
  }
  COLLBENCH_RETURN_IF_ERROR(parent_.broadcast(stage_, root_process));
  for (const Post& p : posts_) {
    if (len > 0) std::memcpy(p.out.data(), stage_.data(), len);
  }
  return ok_status();
}

Status ThreadGroup::leader_allreduce(ReduceOp op) {
  if (!combinable(op)) {
    return Status::error(ErrorCode::kInternal, "bootstrap allreduce supports sum, prod, min and max only");
  }
  const std::size_t len = posts_[0].values.size();
  for (const Post& p : posts_) {
    if (p.values.size() != len) return mismatch("allreduce");
  }
  reduced_.assign(posts_[0].values.begin(), posts_[0].values.end());
  for (std::size_t t = 1; t < posts_.size(); ++t) combine(reduced_, posts_[t].values, op);
  COLLBENCH_RETURN_IF_ERROR(parent_.allreduce(reduced_, op));
  for (const Post& p : posts_) std::copy(reduced_.begin(), reduced_.end(), p.values.begin());
  return ok_status();
}

}  // namespace collbench::bootstrap
