#include "topo/index_set.hpp"

#include <gtest/gtest.h>

namespace collbench::topo {
namespace {

TEST(IndexSet, ListRoundTrip) {
  auto set = IndexSet::from_list("0-3,8,10-11");
  ASSERT_TRUE(set.ok()) << set.status().message();
  EXPECT_EQ(set->size(), 7u);
  EXPECT_EQ(set->to_list(), "0-3,8,10-11");
  EXPECT_TRUE(set->contains(8));
  EXPECT_FALSE(set->contains(9));
}

TEST(IndexSet, ConstructorSortsAndDeduplicates) {
  const IndexSet set({5, 1, 2, 2, 3});
  EXPECT_EQ(set.to_list(), "1-3,5");
}

TEST(IndexSet, BadListsAreUsageErrors) {
  for (const char* bad : {"a", "3-1", "1,,2", "-4", "99999999"}) {
    auto set = IndexSet::from_list(bad);
    EXPECT_FALSE(set.ok()) << bad;
    EXPECT_EQ(set.status().code(), ErrorCode::kUsage) << bad;
  }
  EXPECT_TRUE(IndexSet::from_list("").ok());
}

TEST(IndexSet, HugeRangesAreRefused) { EXPECT_FALSE(IndexSet::from_list("0-1048576,0-1048576").ok()); }

TEST(IndexSet, MaskWordsAreMostSignificantFirst) {
  // NCCL's affinity for CPUs 0-47 and 48-95 on a 96-CPU machine.
  auto low = IndexSet::from_mask("00000000,0000ffff,ffffffff");
  ASSERT_TRUE(low.ok());
  EXPECT_EQ(low->to_list(), "0-47");
  auto high = IndexSet::from_mask("ffffffff,ffff0000,00000000");
  ASSERT_TRUE(high.ok());
  EXPECT_EQ(high->to_list(), "48-95");
  auto hwloc_style = IndexSet::from_mask("0x000000ff,0xffff0000,0x00ffffff");
  ASSERT_TRUE(hwloc_style.ok());
  EXPECT_EQ(hwloc_style->to_list(), "0-23,48-71");
}

TEST(IndexSet, BadMasksAreUsageErrors) {
  EXPECT_FALSE(IndexSet::from_mask("0000000g").ok());
  EXPECT_FALSE(IndexSet::from_mask("123456789").ok());
  EXPECT_FALSE(IndexSet::from_mask("ff,,ff").ok());
}

TEST(IndexSet, SetOperations) {
  const IndexSet a({0, 1, 2, 3});
  const IndexSet b({2, 3, 4});
  EXPECT_TRUE(a.intersects(b));
  EXPECT_EQ(a.intersection(b).to_list(), "2-3");
  EXPECT_EQ(a.union_with(b).to_list(), "0-4");
  EXPECT_FALSE(a.intersects(IndexSet({7})));
  const std::vector<bool> bits = b.to_bitset();
  EXPECT_EQ(bits, (std::vector<bool>{false, false, true, true, true}));
}

}  // namespace
}  // namespace collbench::topo
