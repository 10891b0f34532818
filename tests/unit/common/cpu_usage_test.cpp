#include "common/cpu_usage.hpp"

#include <gtest/gtest.h>

namespace collbench {
namespace {

TEST(CpuUsage, StealIsTheEighthColumnOfTheAggregateCpuLine) {
  // Linux 6.x's /proc/stat: the aggregate line first, then one per CPU.
  const char* text = "cpu  10132153 290696 3084719 46828483 16683 0 25195 4250 0 0\n"
                     "cpu0 1393280 32966 572056 13343292 6130 0 17875 2100 0 0\n"
                     "intr 199292 ...\n";
  EXPECT_DOUBLE_EQ(steal_seconds_of(text, 100), 42.5);
  // Only per-CPU lines, or a kernel without the column: unknown.
  EXPECT_LT(steal_seconds_of("cpu0 1 2 3 4 5 6 7 8 0 0\n", 100), 0);
  EXPECT_LT(steal_seconds_of("cpu  1 2 3 4 5 6 7\n", 100), 0);
  EXPECT_LT(steal_seconds_of("", 100), 0);
  EXPECT_LT(steal_seconds_of(text, 0), 0);
}

TEST(CpuUsage, ReadOnThisMachine) {
  const CpuUsage before = cpu_usage_now();
  EXPECT_TRUE(before.steal_known) << "/proc/stat has a steal column on every Linux since 2.6.11";
  EXPECT_GE(before.online_cpus, 1);
  EXPECT_GE(before.involuntary_switches, 0);
  const CpuUsage later = cpu_usage_now();
  const CpuUsage d = cpu_usage_between(before, later);
  EXPECT_GE(d.involuntary_switches, 0);  // counters only grow
  EXPECT_GE(d.steal_s, 0);
  EXPECT_TRUE(d.steal_known);
}

TEST(CpuUsage, BetweenSubtractsAndNeedsBothReadings) {
  const CpuUsage a{.involuntary_switches = 40, .steal_s = 1.5, .online_cpus = 2, .steal_known = true};
  const CpuUsage b{.involuntary_switches = 3452, .steal_s = 4.0, .online_cpus = 2, .steal_known = true};
  const CpuUsage d = cpu_usage_between(a, b);
  EXPECT_DOUBLE_EQ(d.involuntary_switches, 3412);
  EXPECT_DOUBLE_EQ(d.steal_s, 2.5);
  EXPECT_DOUBLE_EQ(d.online_cpus, 2);
  EXPECT_TRUE(d.steal_known);
  CpuUsage unknown = b;
  unknown.steal_known = false;
  EXPECT_FALSE(cpu_usage_between(a, unknown).steal_known);
}

}  // namespace
}  // namespace collbench
