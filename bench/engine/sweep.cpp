#include "bench/engine/sweep.hpp"

#include <algorithm>
#include <string>

namespace collbench::engine {
namespace {

constexpr std::size_t kMaxSizes = 100000;

Status usage(std::string message) { return Status::error(ErrorCode::kUsage, std::move(message)); }

}  // namespace

Result<std::vector<std::uint64_t>> size_series(std::uint64_t min_bytes, std::uint64_t max_bytes,
                                               std::uint64_t step_factor, std::uint64_t step_bytes) {
  if (min_bytes > max_bytes) {
    return usage("-b/--minbytes " + std::to_string(min_bytes) + " is larger than -e/--maxbytes " +
                 std::to_string(max_bytes));
  }
  if (step_factor == 0 && step_bytes == 0) return usage("-i/--stepbytes must be at least 1");
  if (step_factor != 0 && step_factor < 2)
    return usage("-f/--stepfactor must be at least 2 (got " + std::to_string(step_factor) + ")");
  if (step_factor != 0 && min_bytes == 0)
    return usage("-b/--minbytes must be at least 1 byte when stepping by a factor");
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t size = min_bytes; size <= max_bytes;) {
    if (sizes.size() == kMaxSizes) {
      return usage("the sweep has more than " + std::to_string(kMaxSizes) + " sizes; raise -i/--stepbytes or use -f");
    }
    sizes.push_back(size);
    const std::uint64_t next = step_factor != 0 ? size * step_factor : size + step_bytes;
    if (next <= size || (step_factor != 0 && next / step_factor != size)) break;  // overflow
    size = next;
  }
  return sizes;
}

std::uint64_t max_bytes_for_device(std::uint64_t memory_bytes) {
  constexpr std::uint64_t kGiB = std::uint64_t{1} << 30;
  const std::uint64_t reserve = std::min((memory_bytes + 16 * kGiB - 1) / (16 * kGiB) * kGiB, 4 * kGiB);
  if (memory_bytes <= reserve + kGiB) return 0;
  return (memory_bytes - reserve - kGiB) / 2;
}

Result<SweepPlan> plan_sweep(const RunOptions& options, int nranks, std::uint64_t device_memory_bytes) {
  SweepPlan plan;
  std::uint64_t max_bytes = options.max_bytes;
  std::uint64_t min_bytes = options.min_bytes;
  if (device_memory_bytes > 0 && max_bytes > max_bytes_for_device(device_memory_bytes)) {
    max_bytes = max_bytes_for_device(device_memory_bytes);
    min_bytes = std::min(min_bytes, max_bytes);
    plan.notes.push_back("Reducing maxBytes to " + std::to_string(max_bytes) + " due to memory limitation");
  }
  COLLBENCH_ASSIGN_OR_RETURN(auto sizes, size_series(min_bytes, max_bytes, options.step_factor, options.step_bytes));
  if (options.root < 0 || options.root >= nranks) {
    return usage("-r/--root " + std::to_string(options.root) + " is not a rank of this job (0.." +
                 std::to_string(nranks - 1) + ")");
  }
  for (coll::Collective c : options.collectives) {
    const auto& t = coll::traits(c);
    std::vector<int> roots = {-1};
    if (t.takes_root) {
      roots.clear();
      for (int r = options.all_roots ? 0 : options.root; r <= (options.all_roots ? nranks - 1 : options.root); ++r)
        roots.push_back(r);
    }
    const std::vector<ReduceOp> ops = t.takes_op ? options.ops : std::vector<ReduceOp>{ReduceOp::kSum};
    for (DataType type : options.types) {
      const std::uint32_t elem = traits(type).size;
      bool any_runs = false;
      for (ReduceOp op : ops) {
        for (int root : roots) {
          for (std::uint64_t size : sizes) {
            const coll::Counts k = coll::counts_for(c, size / elem, elem, nranks, options.counts);
            any_runs = any_runs || k.param > 0;
            plan.rows.push_back({c, type, op, root, size, k});
            plan.buffer_bytes = std::max({plan.buffer_bytes, k.recv * elem, k.send * elem});
          }
        }
      }
      if (!any_runs) {
        return usage("-e/--maxbytes " + std::to_string(max_bytes) + " is too small for " + std::string(t.name) +
                     " of " + std::string(to_string(type)) + " over " + std::to_string(nranks) +
                     " ranks: no size holds at least one element per rank");
      }
    }
  }
  return plan;
}

}  // namespace collbench::engine
