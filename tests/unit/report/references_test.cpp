// The published references: which job each matches, and the expectations they become.
#include "report/references.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace collbench::report {
namespace {

std::vector<std::string> eight(const std::string& name) { return std::vector<std::string>(8, name); }

TEST(References, EveryReferenceHasItsSourceAndFigures) {
  ASSERT_FALSE(published_references().empty());
  for (const auto& r : published_references()) {
    EXPECT_FALSE(r.source.empty()) << r.name;
    EXPECT_FALSE(r.figures.empty()) << r.name;
    for (const auto& f : r.figures) EXPECT_GT(f.busbw_gbps, 0) << r.name;
  }
}

TEST(References, AutoMatchesTheGpuModelRankCountAndHosts) {
  const PublishedReference* h200 = match_reference(eight("NVIDIA H200"), 1);
  ASSERT_NE(h200, nullptr);
  EXPECT_EQ(h200->name, "h200-8x");
  const PublishedReference* a100 = match_reference(eight("NVIDIA A100-SXM4-80GB"), 1);
  ASSERT_NE(a100, nullptr);
  EXPECT_EQ(a100->name, "a100-sxm4-8x");
  // Other forms of the same chip, other counts, other jobs: no published figure applies.
  EXPECT_EQ(match_reference(eight("NVIDIA H200 NVL"), 1), nullptr);
  EXPECT_EQ(match_reference(eight("NVIDIA A100-PCIE-40GB"), 1), nullptr);
  EXPECT_EQ(match_reference(eight("NVIDIA A100 80GB PCIe"), 1), nullptr);
  EXPECT_EQ(match_reference(std::vector<std::string>(4, "NVIDIA H200"), 1), nullptr);
  EXPECT_EQ(match_reference(eight("NVIDIA H200"), 2), nullptr);
  EXPECT_EQ(match_reference(eight("CPUs 0-1"), 1), nullptr);
  std::vector<std::string> mixed = eight("NVIDIA H200");
  mixed[3] = "NVIDIA H100 80GB HBM3";
  EXPECT_EQ(match_reference(mixed, 1), nullptr);
}

TEST(References, AShareOfEachFigureInPlace) {
  const PublishedReference* h200 = match_reference(eight("NVIDIA H200"), 1);
  ASSERT_NE(h200, nullptr);
  const auto e = expectations_from(*h200, 90);
  ASSERT_EQ(e.size(), h200->figures.size());
  EXPECT_EQ(e[0].collective, "all_reduce");
  EXPECT_EQ(e[0].size_bytes, std::uint64_t{64} << 20);
  EXPECT_EQ(e[0].placement, ExpectPlacement::kInPlace);
  EXPECT_EQ(e[0].bound, ExpectBound::kMinBusbw);
  EXPECT_NEAR(e[0].limit, 0.9 * 368.11, 1e-9);
}

TEST(References, TheShareIsAPercentage) {
  auto plain = parse_reference_choice("auto");
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->name, "auto");
  EXPECT_EQ(plain->percent, 90);
  auto share = parse_reference_choice("h200-8x:85.5");
  ASSERT_TRUE(share.ok());
  EXPECT_EQ(share->name, "h200-8x");
  EXPECT_EQ(share->percent, 85.5);
  for (const char* bad : {"auto:0", "auto:101", "auto:x", "auto:", "h200-8x:-5"}) {
    auto r = parse_reference_choice(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().code(), ErrorCode::kUsage);
  }
}

}  // namespace
}  // namespace collbench::report
