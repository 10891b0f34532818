#include "bench/engine/locate/budget.hpp"

#include <gtest/gtest.h>

namespace collbench::engine::locate {
namespace {

LocatePlan plan_of(double straggler, double pairs, double groups, double confirm) {
  LocatePlan p;
  p.straggler.seconds = straggler;
  p.pairs.seconds = pairs;
  p.groups.seconds = groups;
  p.confirm.seconds = confirm;
  p.straggler.predicted_s = straggler / 2;
  p.pairs.predicted_s = pairs / 2;
  p.groups.predicted_s = groups / 2;
  p.confirm.predicted_s = confirm / 2;
  return p;
}

TEST(Budget, KeepsAReserveForTheVerdict) {
  EXPECT_DOUBLE_EQ(Budget(10).reserve_s(), 0.5);   // at least half a second
  EXPECT_DOUBLE_EQ(Budget(100).reserve_s(), 3.0);  // 3 % of a larger budget
  EXPECT_DOUBLE_EQ(Budget(100).plannable_s(7), 90.0);
  EXPECT_DOUBLE_EQ(Budget(10).plannable_s(12), 0.0) << "setup spent more than the budget: nothing to plan";
}

TEST(Budget, EachPhaseEndsAfterItsShareAndTheSharesBeforeIt) {
  Budget b(100);
  b.follow(7, plan_of(20, 40, 10, 15));
  EXPECT_DOUBLE_EQ(b.start_s(), 7);
  EXPECT_DOUBLE_EQ(b.deadline_s(Spend::kStraggler), 27);
  EXPECT_DOUBLE_EQ(b.deadline_s(Spend::kPairs), 67);
  EXPECT_DOUBLE_EQ(b.deadline_s(Spend::kGroups), 77);
  EXPECT_DOUBLE_EQ(b.deadline_s(Spend::kConfirm), 92);
  EXPECT_DOUBLE_EQ(b.expected_end_s(), 7 + 10 + 20 + 5) << "the confirmation is not predicted: it has no suspects yet";
}

TEST(Budget, AReplanMovesEveryLaterDeadline) {
  Budget b(100);
  b.follow(7, plan_of(20, 40, 10, 15));
  b.follow(7, plan_of(20, 30, 0, 25));  // groups skipped, the confirmation given more
  EXPECT_DOUBLE_EQ(b.deadline_s(Spend::kStraggler), 27);
  EXPECT_DOUBLE_EQ(b.deadline_s(Spend::kPairs), 57);
  EXPECT_DOUBLE_EQ(b.deadline_s(Spend::kGroups), 57);
  EXPECT_DOUBLE_EQ(b.deadline_s(Spend::kConfirm), 82);
}

}  // namespace
}  // namespace collbench::engine::locate
