#include "topo/hostlist.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace collbench::topo {
namespace {

using Names = std::vector<std::string>;

Names expanded(std::string_view text) {
  auto names = expand_hostlist(text);
  EXPECT_TRUE(names.ok()) << text << ": " << names.status().message();
  return names.ok() ? *names : Names{};
}

// The expected names are what Slurm 22.05's `scontrol show hostnames` printed for each.
TEST(Hostlist, ExpandsAsSlurmDoes) {
  EXPECT_EQ(expanded("rack[1-2]-gpu[08-10],login1 x[1,3]"),
            (Names{"rack1-gpu08", "rack1-gpu09", "rack1-gpu10", "rack2-gpu08", "rack2-gpu09", "rack2-gpu10", "login1",
                   "x1", "x3"}));
  EXPECT_EQ(expanded("n[008-10]"), (Names{"n008", "n009", "n010"}));
  EXPECT_EQ(expanded("n[1-2],,m"), (Names{"n1", "n2", "m"}));
  EXPECT_EQ(expanded("tux[0-3,12,18-20]"), (Names{"tux0", "tux1", "tux2", "tux3", "tux12", "tux18", "tux19", "tux20"}));
  EXPECT_EQ(expanded("node7"), (Names{"node7"}));
  EXPECT_EQ(expanded(""), Names{});
}

// Slurm 22.05 refuses a suffix after the last bracket; later names such as "gpu[1-2]-ib" are
// accepted here rather than refused.
TEST(Hostlist, TextAfterABracketIsKept) { EXPECT_EQ(expanded("gpu[1-2]-ib"), (Names{"gpu1-ib", "gpu2-ib"})); }

TEST(Hostlist, MalformedExpressionsAreUsageErrorsThatQuoteThem) {
  for (const char* bad : {"n[1-3", "n[]", "n[3-1]", "n[1-2]]", "n[a-b]", "n[1-]", "n[-2]", "n]1["}) {
    auto names = expand_hostlist(bad);
    ASSERT_FALSE(names.ok()) << bad;
    EXPECT_EQ(names.status().code(), ErrorCode::kUsage) << bad;
    EXPECT_NE(names.status().message().find(bad), std::string::npos) << names.status().message();
  }
}

TEST(Hostlist, ExpansionIsBounded) {
  EXPECT_FALSE(expand_hostlist("n[0-99999999999]").ok());
  EXPECT_FALSE(expand_hostlist("a[0-999]b[0-999]c[0-999]").ok());
  EXPECT_FALSE(expand_hostlist("n[1-4]", {.names = 3}).ok());
  EXPECT_TRUE(expand_hostlist("n[1-3]", {.names = 3}).ok());
  EXPECT_FALSE(expand_hostlist("a,b,c,d", {.names = 3}).ok());
  // Bytes too: a long prefix times a range within the name count.
  EXPECT_TRUE(expand_hostlist("abc[1-3]", {.bytes = 12}).ok());
  EXPECT_FALSE(expand_hostlist("abc[1-3]", {.bytes = 11}).ok());
  EXPECT_FALSE(expand_hostlist(std::string(1 << 20, 'x') + "[1-100]").ok());
  EXPECT_FALSE(expand_hostlist("a[1-2]" + std::string(1 << 20, 'x') + "[1-64]").ok());
}

// The largest 64-bit value as a bound: one name, and the expansion ends.
TEST(Hostlist, ARangeAtTheTopOf64BitsEnds) {
  EXPECT_EQ(expanded("n[18446744073709551615]"), (Names{"n18446744073709551615"}));
  EXPECT_EQ(expanded("n[18446744073709551614-18446744073709551615]"),
            (Names{"n18446744073709551614", "n18446744073709551615"}));
}

// One budget over several expressions: what the first took is gone for the second.
TEST(Hostlist, ABudgetIsSharedAcrossExpressions) {
  HostlistBudget left{.names = 5, .bytes = 100};
  ASSERT_TRUE(expand_hostlist_within("n[1-3]", left).ok());
  EXPECT_EQ(left.names, 2U);
  EXPECT_EQ(left.bytes, 94U);
  EXPECT_FALSE(expand_hostlist_within("m[1-3]", left).ok());
}

}  // namespace
}  // namespace collbench::topo
