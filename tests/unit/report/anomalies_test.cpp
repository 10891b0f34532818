// The anomaly analysis on made-up rows: what a clean host-memory sweep looks like (no finding),
// and each kind a real problem produces (spread, dip, drop), with the cache cliff explained.
#include "report/analysis/anomalies.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace collbench::report {
namespace {

struct RowSpec {
  std::uint64_t size;
  double busbw;
  double time_us = 10;  // the headline (a mean)
  double median_us = 10;
  double ci = 0.01;
  double far_share = 0;
};

std::vector<SizeRecord> rows_of(const std::vector<RowSpec>& specs) {
  std::vector<SizeRecord> rows;
  for (const auto& s : specs) {
    SizeRecord r;
    r.collective = "all_reduce";
    r.dtype = "float";
    r.op = "sum";
    r.size_bytes = s.size;
    for (Placement p : {Placement::kOutOfPlace, Placement::kInPlace}) {
      Measurement m;
      m.placement = p;
      m.busbw_gbps = s.busbw;
      m.time_us = s.time_us;
      m.per_iteration.samples = 1000;
      m.per_iteration.median_us = s.median_us;
      m.per_iteration.median_ci95_rel = s.ci;
      m.per_iteration.far_share = s.far_share;
      m.per_iteration.p99_us = s.median_us * 1.2;
      r.placements.push_back(m);
    }
    rows.push_back(r);
  }
  return rows;
}

RunContext host_context(std::uint64_t llc_bytes, int ranks) {
  RunContext ctx;
  ctx.backend = "mpi";
  ctx.memory = "host";
  ctx.allocates_per_call = true;  // as MPI's entry declares
  ctx.llc_bytes = llc_bytes;
  for (int r = 0; r < ranks; ++r) ctx.ranks.push_back({r, "vm", 0, 0, "cpu", "", "", 0});
  return ctx;
}

// A sweep as host memory gives it: rising, a plateau, then the working set leaves the cache.
std::vector<RowSpec> host_sweep() {
  std::vector<RowSpec> out;
  double bw = 0.5;
  for (std::uint64_t size = 8; size <= (64u << 20); size *= 2) {
    if (size <= (1u << 20)) bw *= 1.5;
    if (size >= (8u << 20)) bw = 1.2;  // from 8 MiB: memory, not cache
    out.push_back({size, std::min(bw, 40.0)});
  }
  return out;
}

TEST(Anomalies, ACleanSweepHasNone) {
  EXPECT_TRUE(
      find_anomalies(rows_of({{64 << 10, 5}, {128 << 10, 6}, {256 << 10, 6.5}, {512 << 10, 6.6}}), host_context(0, 2))
          .empty());
}

TEST(Anomalies, OneSlowIterationInAHundredThousandIsNoSpread) {
  // The case that cried wolf: median 0.53 us, one iteration of 110 us among 100,000.
  const auto rows = rows_of({{8, 0.1, 0.53 + 110.0 / 100000, 0.53, 0.005, 1e-5}});
  EXPECT_TRUE(find_anomalies(rows, host_context(0, 2)).empty());
}

// What a clean sweep on a shared VM shows at microsecond sizes: the mean 10-20 % over a tight
// median. Nobody acts on that; a quarter is where the headline starts to mislead.
TEST(Anomalies, AHeadlineUnderAQuarterOffATightMedianIsNoSpread) {
  EXPECT_TRUE(find_anomalies(rows_of({{8, 0.1, 1.19, 1.0, 0.005, 0.009}}), host_context(0, 2)).empty());
  const auto found = find_anomalies(rows_of({{8, 0.1, 1.3, 1.0, 0.005, 0.05}}), host_context(0, 2));
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].message.find("the headline time 1.30 us is 30% above the median 1.00 us"), std::string::npos)
      << found[0].message;
}

TEST(Anomalies, APeriodicStallIsASpreadWithItsFigures) {
  const auto found = find_anomalies(rows_of({{256 << 10, 2, 900, 100, 0.01, 0.2}}), host_context(0, 2));
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].kind, AnomalyKind::kSpread);
  EXPECT_FALSE(found[0].explained);
  EXPECT_EQ(found[0].placement, "both");
  EXPECT_NE(found[0].message.find("800% above the median 100 us"), std::string::npos) << found[0].message;
  EXPECT_NE(found[0].message.find("20.0% of iterations took over twice the median"), std::string::npos);
}

TEST(Anomalies, RepeatedFindingsAreOneLineWithTheirSizes) {
  const auto found = find_anomalies(
      rows_of({{8, 0.1, 30, 10, 0.01, 0.1}, {16, 0.2, 30, 10, 0.01, 0.1}, {32, 0.4, 30, 10, 0.01, 0.1}}),
      host_context(0, 2));
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].sizes, (std::vector<std::uint64_t>{8, 16, 32}));
  EXPECT_NE(found[0].message.find("also at 16 B, 32 B"), std::string::npos) << found[0].message;
}

TEST(Anomalies, AHeadlineWithinTheMediansUncertaintyIsNoSpread) {
  // 12 % above the median, but the median itself is only known within +-5 %: not beyond 3x that.
  EXPECT_TRUE(find_anomalies(rows_of({{1 << 20, 2, 112, 100, 0.05, 0.02}}), host_context(0, 2)).empty());
}

TEST(Anomalies, OneSizeSlowedThreeTimesIsADip) {
  const auto found = find_anomalies(rows_of({{256 << 10, 3.0}, {512 << 10, 3.6 / 3}, {1 << 20, 4.0}, {2 << 20, 4.1}}),
                                    host_context(0, 2));
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].kind, AnomalyKind::kDip);
  EXPECT_EQ(found[0].size_bytes, 512u << 10);
}

TEST(Anomalies, TheCacheCliffOnHostMemoryIsANoteNotAnAnomaly) {
  // 2 ranks, 32 MiB last-level cache: at 8 MiB their data (3 buffers x 2 ranks) is 48 MiB.
  const auto found = find_anomalies(rows_of(host_sweep()), host_context(32u << 20, 2));
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].kind, AnomalyKind::kCache);
  EXPECT_TRUE(found[0].explained);
  EXPECT_EQ(found[0].size_bytes, 8u << 20);
  EXPECT_NE(found[0].message.find("32 MiB last-level cache"), std::string::npos) << found[0].message;
  // Without the cache's size, the same drop is an anomaly of unknown cause.
  const auto unknown = find_anomalies(rows_of(host_sweep()), host_context(0, 2));
  ASSERT_FALSE(unknown.empty());
  EXPECT_EQ(unknown[0].kind, AnomalyKind::kDrop);
  EXPECT_NE(unknown[0].message.find("cause unknown"), std::string::npos);
}

TEST(Anomalies, ADropWhileTheDataStillFitsTheCacheIsNotExplainedByIt) {
  // The same drop at 8 MiB, with a 1 GiB cache: the cache does not explain it.
  const auto found = find_anomalies(rows_of(host_sweep()), host_context(1u << 30, 2));
  ASSERT_FALSE(found.empty());
  EXPECT_EQ(found[0].kind, AnomalyKind::kDrop);
  EXPECT_FALSE(found[0].explained);
}

// A plateau at 10 GB/s up to 16 MiB, then 2 GB/s from 32 MiB (glibc's largest mmap threshold).
std::vector<RowSpec> cliff_at_32_mib() {
  std::vector<RowSpec> out;
  for (std::uint64_t size = 64u << 10; size <= (64u << 20); size *= 2) {
    out.push_back({size, size >= (32u << 20) ? 2.0 : 10.0});
  }
  return out;
}

TEST(Anomalies, ALibraryThatAllocatesPerCallExplainsADropAtTheMmapThreshold) {
  const auto found = find_anomalies(rows_of(cliff_at_32_mib()), host_context(0, 2));
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].kind, AnomalyKind::kDrop);
  EXPECT_EQ(found[0].size_bytes, 32u << 20);
  EXPECT_NE(found[0].message.find("--malloc-keep removes this"), std::string::npos) << found[0].message;
  // Neither with --malloc-keep nor on a backend that does not allocate per call.
  RunContext kept = host_context(0, 2);
  kept.config.malloc_keep = true;
  RunContext own = host_context(0, 2);
  own.allocates_per_call = false;
  for (const RunContext& ctx : {kept, own}) {
    const auto other = find_anomalies(rows_of(cliff_at_32_mib()), ctx);
    ASSERT_EQ(other.size(), 1u);
    EXPECT_NE(other[0].message.find("cause unknown"), std::string::npos) << other[0].message;
  }
}

TEST(Anomalies, TheAllocationCliffIsNotMistakenForTheCache) {
  // 2 ranks, 32 MiB last-level cache: their data left it long before; the fall at 32 MiB is
  // the per-call allocation where the library makes one, the cache where it does not.
  const auto cliff = find_anomalies(rows_of(cliff_at_32_mib()), host_context(32u << 20, 2));
  ASSERT_EQ(cliff.size(), 2u);
  EXPECT_EQ(cliff[0].kind, AnomalyKind::kDrop);
  EXPECT_EQ(cliff[0].sizes, std::vector<std::uint64_t>{32u << 20});
  EXPECT_FALSE(cliff[0].explained);
  // Past the cliff, the size that does not fall again is the cache's.
  EXPECT_EQ(cliff[1].kind, AnomalyKind::kCache);
  EXPECT_EQ(cliff[1].size_bytes, 64u << 20);
  RunContext own = host_context(32u << 20, 2);
  own.allocates_per_call = false;
  const auto cache = find_anomalies(rows_of(cliff_at_32_mib()), own);
  ASSERT_EQ(cache.size(), 1u);
  EXPECT_EQ(cache[0].kind, AnomalyKind::kCache);
  EXPECT_EQ(cache[0].size_bytes, 32u << 20);
  EXPECT_TRUE(cache[0].explained);
}

}  // namespace
}  // namespace collbench::report
