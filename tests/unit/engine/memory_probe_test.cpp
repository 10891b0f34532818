#include "bench/engine/memory_probe.hpp"

#include <gtest/gtest.h>

namespace collbench::engine {
namespace {

TEST(MemoryProbe, SizeIsTwiceTheCacheWithinBounds) {
  EXPECT_EQ(copy_probe_bytes(0), std::uint64_t{64} << 20);
  EXPECT_EQ(copy_probe_bytes(std::uint64_t{32} << 20), std::uint64_t{64} << 20);
  EXPECT_EQ(copy_probe_bytes(std::uint64_t{96} << 20), std::uint64_t{192} << 20);
  EXPECT_EQ(copy_probe_bytes(std::uint64_t{1} << 30), std::uint64_t{512} << 20);
}

// A real copy has a bandwidth; nonsense arguments have none. (No figure is asserted: the
// machine may be loaded.)
TEST(MemoryProbe, MeasuresACopy) {
  EXPECT_GT(measure_copy_gbps(std::uint64_t{4} << 20, 2), 0);
  EXPECT_EQ(measure_copy_gbps(0, 3), 0);
  EXPECT_EQ(measure_copy_gbps(1024, 0), 0);
}

}  // namespace
}  // namespace collbench::engine
