// Host-memory data generation and verification (the MPI backend's data path, and the
// reference that device kernels must agree with).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "bench/check/layout.hpp"
#include "bench/check/pattern.hpp"
#include "common/types.hpp"

namespace collbench::check {

struct DataSpec {
  DataType type = DataType::kFloat;
  Pattern pattern;
  LayoutSpec layout{};
  // Allowed distance, in units in the last place, between a result and its expected value.
  // Zero (bit-exact) everywhere except avg on float types with a rank count that is not a
  // power of two, where libraries premultiply by a rounded 1/n and round every partial sum:
  // there it is a bound on that error for the pattern's width (at most kAvgWidth terms),
  // 8 ulps for float and double, more where 1/n is coarse in the type (fp8, many ranks).
  int tolerance_ulps = 0;
};

DataSpec make_data_spec(coll::Collective c, DataType type, ReduceOp op, int nranks, int root,
                        const coll::Counts& counts, std::uint64_t seed);

struct Mismatch {
  std::uint64_t index = 0;  // element index in the receive buffer
  double expected = 0;
  double got = 0;
};

struct CheckResult {
  std::uint64_t wrong = 0;
  std::vector<Mismatch> first;  // the first few, in index order
};

// Rank `rank`'s input: `count` elements starting at pattern index 0.
void fill_input_host(void* buffer, std::uint64_t count, const DataSpec& spec, int rank);

// Marks bytes as "never written": all ones, which no pattern value equals.
void poison_host(void* buffer, std::uint64_t bytes);

// Checks every element of rank `rank`'s receive buffer; records at most `max_report` mismatches.
CheckResult verify_output_host(const void* buffer, const DataSpec& spec, int rank, std::size_t max_report);

}  // namespace collbench::check
