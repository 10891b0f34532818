#include "bench/engine/verification.hpp"

#include <array>
#include <cstring>

#include "bench/check/host_check.hpp"

namespace collbench::engine {
namespace {

// A mismatch as it travels between ranks: fixed size, no pointers.
struct WireMismatch {
  double valid = 0;
  double index = 0;
  double expected = 0;
  double got = 0;
};

Status corrupt_one_element(backend::Backend& backend, const CheckContext& ctx, std::uint64_t index) {
  const std::uint32_t elem = traits(ctx.row.type).size;
  if (ctx.row.counts.recv == 0) return ok_status();
  char* target = static_cast<char*>(ctx.buffers.recv) + (index % ctx.row.counts.recv) * elem;
  // All ones: the checker's "never written" marker, which no pattern value equals in any type.
  std::array<std::byte, 8> bytes{};
  bytes.fill(std::byte{0xff});
  return backend.memory().write_bytes(target, bytes.data(), elem);
}

Result<std::vector<report::Mismatch>> gather_mismatches(bootstrap::Bootstrap& boot, const check::CheckResult& mine,
                                                        std::size_t max_report, const std::vector<std::string>& hosts) {
  std::vector<WireMismatch> slots(max_report);
  for (std::size_t i = 0; i < mine.first.size() && i < max_report; ++i) {
    const auto& m = mine.first[i];
    slots[i] = {1.0, static_cast<double>(m.index), m.expected, m.got};
  }
  std::vector<WireMismatch> all(max_report * static_cast<std::size_t>(boot.size()));
  COLLBENCH_RETURN_IF_ERROR(boot.allgather(std::as_bytes(std::span(slots)), std::as_writable_bytes(std::span(all))));
  std::vector<report::Mismatch> out;
  for (std::size_t i = 0; i < all.size() && out.size() < max_report; ++i) {
    if (all[i].valid == 0) continue;
    const int rank = static_cast<int>(i / max_report);
    out.push_back({rank, hosts[static_cast<std::size_t>(rank)], static_cast<std::uint64_t>(all[i].index),
                   all[i].expected, all[i].got});
  }
  return out;
}

}  // namespace

std::uint64_t check_seed(const RunOptions& options, std::uint64_t iteration) {
  return options.seed * 1000003 + iteration;
}

Result<CheckOutcome> check_row(backend::Backend& backend, bootstrap::Bootstrap& boot, const RunOptions& options,
                               const CheckContext& ctx) {
  const RowPlan& row = ctx.row;
  const int rank = boot.rank();
  const bool corrupt_here = options.fault.corrupt_rank && *options.fault.corrupt_rank == rank &&
                            row.requested_bytes >= options.fault.min_bytes;
  CheckOutcome outcome;
  for (std::uint64_t it = 1; it <= options.check_iterations; ++it) {
    const check::DataSpec spec = check::make_data_spec(row.collective, row.type, row.op, boot.size(), row.root,
                                                       row.counts, check_seed(options, it));
    COLLBENCH_RETURN_IF_ERROR(backend.memory().poison(ctx.buffers.region, ctx.buffers.region_bytes));
    COLLBENCH_RETURN_IF_ERROR(backend.memory().fill_input(ctx.buffers.send, row.counts.send, spec, rank));
    COLLBENCH_RETURN_IF_ERROR(backend.comm().launch(ctx.call));
    COLLBENCH_RETURN_IF_ERROR(backend.comm().synchronize());
    if (corrupt_here) COLLBENCH_RETURN_IF_ERROR(corrupt_one_element(backend, ctx, options.fault.corrupt_index));
    COLLBENCH_ASSIGN_OR_RETURN(check::CheckResult mine,
                               backend.memory().verify(ctx.buffers.recv, spec, rank, options.max_mismatches));

    std::array<double, 1> wrong = {static_cast<double>(mine.wrong)};
    COLLBENCH_RETURN_IF_ERROR(boot.allreduce(wrong, ReduceOp::kSum));
    if (wrong[0] == 0) continue;
    outcome.wrong = static_cast<std::uint64_t>(wrong[0]);
    COLLBENCH_ASSIGN_OR_RETURN(outcome.mismatches, gather_mismatches(boot, mine, options.max_mismatches, ctx.hosts));
    break;
  }
  return outcome;
}

}  // namespace collbench::engine
