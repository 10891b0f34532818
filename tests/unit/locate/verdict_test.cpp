#include "bench/engine/locate/verdict.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <string>

namespace collbench::engine::locate {
namespace {

using report::LocateRecheck;
using report::LocateVerdict;

// `hosts` hosts of `per_host` ranks each, in blocks.
std::vector<RankPlace> places(int hosts, int per_host) {
  std::vector<RankPlace> out;
  for (int h = 0; h < hosts; ++h) {
    for (int l = 0; l < per_host; ++l) out.push_back({"node" + std::to_string(h), l, ""});
  }
  return out;
}

std::vector<Arrival> punctual(std::size_t n, int late_rank = -1) {
  std::vector<Arrival> out(n, Arrival{0.97, 12});
  for (std::size_t r = 0; r < n; ++r) out[r].punctuality += 0.005 * static_cast<double>(r % 3);
  if (late_rank >= 0) out[static_cast<std::size_t>(late_rank)] = {0.02, 20000};
  return out;
}

// Every pair, its bandwidth from `gbps(a, b)`.
std::vector<report::LocatePair> all_pairs(const std::vector<RankPlace>& where,
                                          const std::function<double(int, int)>& gbps) {
  std::vector<report::LocatePair> out;
  const int n = static_cast<int>(where.size());
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) {
      report::LocatePair p;
      p.a = a;
      p.b = b;
      p.inter_host = where[static_cast<std::size_t>(a)].host != where[static_cast<std::size_t>(b)].host;
      p.gbps = gbps(a, b);
      p.time_us = 1000 / p.gbps;
      out.push_back(p);
    }
  }
  return out;
}

// Intra-host 20 GB/s, inter-host 5 GB/s, with a little deterministic noise.
double healthy(const std::vector<RankPlace>& where, int a, int b) {
  const bool inter = where[static_cast<std::size_t>(a)].host != where[static_cast<std::size_t>(b)].host;
  return (inter ? 5.0 : 20.0) * (1 + 0.01 * ((a * 7 + b * 3) % 5));
}

std::vector<report::LocateGroup> rings(const std::vector<RankPlace>& where,
                                       const std::function<double(const Group&)>& gbps) {
  std::vector<report::LocateGroup> out;
  for (const auto& groups : {measurable(host_groups(where)), measurable(rail_groups(where))}) {
    for (const auto& g : groups) out.push_back({to_string(g.kind), g.label, g.ranks, 20, 100, gbps(g)});
  }
  return out;
}

// Three hosts of two ranks; everything leaving node2 runs at a fifth.
Measurements slow_nic_on_node2() {
  Measurements m;
  m.places = places(3, 2);
  m.arrivals = punctual(6);
  m.pairs = all_pairs(m.places, [&](int a, int b) {
    const bool inter = m.places[static_cast<std::size_t>(a)].host != m.places[static_cast<std::size_t>(b)].host;
    return inter && b >= 4 ? 1.0 : healthy(m.places, a, b);
  });
  return m;
}

// Every piece of evidence of every finding, "figure by comparison", in order (a culprit named
// by two comparisons is one finding listing both).
std::vector<std::string> named(const Verdict& v) {
  std::vector<std::string> out;
  for (const auto& f : v.findings) {
    for (const auto& e : f.evidence) out.push_back(e.figure + " by " + e.comparison);
  }
  return out;
}

std::vector<std::vector<int>> suspect_ranks(const Verdict& v) {
  std::vector<std::vector<int>> out;
  for (const auto& s : suspects(v)) out.push_back(s.ranks);
  return out;
}

const report::LocateFigure* figure(const Verdict& v, const std::string& comparison, const std::string& label) {
  for (const auto& c : v.comparisons) {
    if (c.name != comparison) continue;
    for (const auto& f : c.figures) {
      if (f.label == label) return &f;
    }
  }
  return nullptr;
}

TEST(Verdict, HealthyJobHasNoOutlier) {
  Measurements m;
  m.places = places(1, 4);
  m.arrivals = punctual(4);
  m.pairs = all_pairs(m.places, [&](int a, int b) { return healthy(m.places, a, b); });
  const Verdict v = decide(m, OutlierRule{});
  EXPECT_EQ(v.verdict, LocateVerdict::kNoOutlier);
  EXPECT_TRUE(v.findings.empty());
  ASSERT_EQ(v.comparisons.size(), 3u);  // arrival, ranks over intra-host pairs, intra-host pairs
  for (const auto& c : v.comparisons) EXPECT_TRUE(c.compared) << c.name;
}

TEST(Verdict, SlowRankIsNamedOnceItsPairsAreExplained) {
  Measurements m;
  m.places = places(1, 4);
  m.arrivals = punctual(4, 2);
  m.pairs = all_pairs(m.places, [&](int a, int b) { return a == 2 || b == 2 ? 0.4 : healthy(m.places, a, b); });
  const Verdict v = decide(m, OutlierRule{});
  EXPECT_EQ(v.verdict, LocateVerdict::kOutlier);
  EXPECT_EQ(named(v),
            (std::vector<std::string>{"rank 2 by all_reduce arrival", "rank 2 by ranks over their intra-host pairs"}));
  EXPECT_EQ(v.findings.size(), 1u);  // one culprit, both comparisons its evidence
  const auto* f = figure(v, "intra-host pairs", "pair 1-2");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->set_aside, "explained by rank 2, named above");
  EXPECT_FALSE(f->judged);
  const auto* r = figure(v, "ranks over their intra-host pairs", "rank 0");
  ASSERT_NE(r, nullptr);
  EXPECT_GT(r->value, 19);  // its healthy partners, not rank 2, show what it can do
  EXPECT_TRUE(r->judged);
}

TEST(Verdict, OneSlowRankOnTwoHostsNamesOnlyThatRank) {
  Measurements m;
  m.places = places(2, 2);
  m.arrivals = punctual(4, 2);
  m.pairs = all_pairs(m.places, [&](int a, int b) { return a == 2 || b == 2 ? 0.3 : healthy(m.places, a, b); });
  m.groups = rings(m.places, [](const Group& g) {
    return std::find(g.ranks.begin(), g.ranks.end(), 2) != g.ranks.end() ? 0.3 : 9.0;
  });
  const Verdict v = decide(m, OutlierRule{});
  // One culprit, one finding: named by its arrival and by its inter-host pairs, both listed.
  ASSERT_EQ(v.findings.size(), 1u) << ::testing::PrintToString(named(v));
  EXPECT_EQ(v.findings[0].ranks, std::vector<int>{2});
  ASSERT_EQ(v.findings[0].evidence.size(), 2u);
  EXPECT_EQ(v.findings[0].evidence[0].comparison, "all_reduce arrival");
  EXPECT_EQ(v.findings[0].evidence[1].comparison, "ranks over their inter-host pairs");
  EXPECT_EQ(v.findings[0].comparison, "all_reduce arrival");  // the flat fields repeat the first
  // One intra-host pair each: its two ends cannot be told apart, so rank 3 shares no blame.
  EXPECT_EQ(figure(v, "ranks over their intra-host pairs", "rank 1")->set_aside, "one pair only: judged as a pair");
  EXPECT_EQ(figure(v, "ranks over their intra-host pairs", "rank 3")->set_aside,
            "no pair of this class with an unnamed rank");
  EXPECT_FALSE(figure(v, "ranks over their intra-host pairs", "rank 2")->outlier);
  EXPECT_EQ(figure(v, "host rings", "host node1")->set_aside, "explained by rank 2, named above");
  EXPECT_EQ(figure(v, "rail rings", "rail local rank 0")->set_aside, "explained by rank 2, named above");
}

TEST(Verdict, SlowLinkNamesThePairNotItsRanks) {
  Measurements m;
  m.places = places(1, 6);
  m.arrivals = punctual(6);
  m.pairs = all_pairs(m.places, [&](int a, int b) { return a == 1 && b == 4 ? 6.0 : healthy(m.places, a, b); });
  const Verdict v = decide(m, OutlierRule{});
  EXPECT_EQ(named(v), (std::vector<std::string>{"pair 1-4 by intra-host pairs"}));
  EXPECT_EQ(v.findings.front().subject, "pair");
  const auto s = suspects(v);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].ranks, (std::vector<int>{1, 4}));
  // Its control: a healthy pair near the reference that shares no rank with it.
  ASSERT_EQ(s[0].control.size(), 2u);
  for (int r : s[0].control) EXPECT_TRUE(r != 1 && r != 4) << r;
}

TEST(Verdict, SuspectIsJudgedAgainstItsControlMeasuredAloneInTurn) {
  Measurements m;
  m.places = places(1, 6);
  m.arrivals = punctual(6);
  m.pairs = all_pairs(m.places, [&](int a, int b) { return a == 1 && b == 4 ? 6.0 : healthy(m.places, a, b); });
  m.confirmation_done = true;
  // The machine was slow while both were measured alone: the suspect is no slower than its
  // control, though far below the reference measured before.
  m.rechecks = {{{1, 4}, 6.5, {0, 2}, 7.0, 0.07}};
  const Verdict slow_machine = decide(m, OutlierRule{});
  EXPECT_EQ(slow_machine.verdict, LocateVerdict::kNoOutlier);
  const auto* f = figure(slow_machine, "intra-host pairs", "pair 1-4");
  EXPECT_EQ(f->recheck, LocateRecheck::kNotConfirmed);
  ASSERT_EQ(f->details.size(), 4u);
  EXPECT_EQ(f->details[2].name, "control_gbps");
  EXPECT_EQ(f->details[3].name, "control_gap");
  EXPECT_DOUBLE_EQ(f->details[3].value, 0.07);
  // Still far below its control: confirmed.
  m.rechecks = {{{1, 4}, 6.5, {0, 2}, 20.0, 0.66}};
  EXPECT_EQ(named(decide(m, OutlierRule{})), (std::vector<std::string>{"pair 1-4 by intra-host pairs"}));
}

TEST(Verdict, SuspectTheConfirmationCouldNotMeasureIsNotNamed) {
  Measurements m;
  m.places = places(1, 6);
  m.arrivals = punctual(6);
  m.pairs = all_pairs(m.places, [&](int a, int b) { return a == 1 && b == 4 ? 6.0 : healthy(m.places, a, b); });
  m.confirmation_done = true;
  const Verdict v = decide(m, OutlierRule{});
  EXPECT_EQ(v.verdict, LocateVerdict::kNoOutlier);
  const auto* f = figure(v, "intra-host pairs", "pair 1-4");
  EXPECT_EQ(f->recheck, LocateRecheck::kNotMeasured);
  EXPECT_FALSE(f->outlier);
}

TEST(Verdict, TwoPairsNeverNameEachOther) {
  // Of two figures, the lower cannot be told from noise: nothing is named, whatever the gap.
  Measurements m;
  m.places = places(2, 1);
  m.places.push_back({"node2", 0, ""});
  m.pairs = all_pairs(m.places, [](int a, int b) { return a == 0 && b == 1 ? 1.0 : 9.0; });
  m.pairs.pop_back();  // only pairs 0-1 and 0-2
  const Verdict v = decide(m, OutlierRule{});
  EXPECT_TRUE(v.findings.empty()) << named(v).front();
  const auto* c = &v.comparisons.back();
  EXPECT_EQ(c->name, "inter-host pairs");
  EXPECT_FALSE(c->compared);
  EXPECT_EQ(c->note, "2 figures only: too few to tell which is abnormal");
}

TEST(Verdict, SuspectFastAloneIsNotNamed) {
  Measurements m;
  m.places = places(1, 6);
  m.arrivals = punctual(6);
  m.pairs = all_pairs(m.places, [&](int a, int b) { return a == 1 && b == 4 ? 6.0 : healthy(m.places, a, b); });
  m.rechecks = {{{1, 4}, 19.5, {}, 0, 0}};
  const Verdict fast = decide(m, OutlierRule{});
  EXPECT_EQ(fast.verdict, LocateVerdict::kNoOutlier);
  const auto* f = figure(fast, "intra-host pairs", "pair 1-4");
  EXPECT_EQ(f->recheck, LocateRecheck::kNotConfirmed);
  EXPECT_FALSE(f->outlier);
  m.rechecks = {{{1, 4}, 6.5, {}, 0, 0}};
  const Verdict slow = decide(m, OutlierRule{});
  EXPECT_EQ(named(slow), (std::vector<std::string>{"pair 1-4 by intra-host pairs"}));
  EXPECT_EQ(figure(slow, "intra-host pairs", "pair 1-4")->recheck, LocateRecheck::kConfirmed);
}

TEST(Verdict, HostWithASlowNicNamesTheHost) {
  const Measurements m = slow_nic_on_node2();
  const Verdict v = decide(m, OutlierRule{});
  std::vector<std::string> who;
  for (const auto& f : v.findings) who.push_back(f.label);
  // The host is the culprit: its ranks' findings are its evidence, not findings of their own.
  EXPECT_EQ(who, (std::vector<std::string>{"host node2"}));
  EXPECT_EQ(v.findings.back().comparison, "every rank of the host named");
  EXPECT_TRUE(std::isnan(v.findings.back().reference));
  std::vector<std::string> figures;
  for (const auto& e : v.findings.back().evidence) figures.push_back(e.figure);
  EXPECT_EQ(figures.front(), "host node2");
  EXPECT_NE(std::find(figures.begin(), figures.end(), "rank 4"), figures.end());
  EXPECT_NE(std::find(figures.begin(), figures.end(), "rank 5"), figures.end());
}

TEST(Verdict, SlowRailIsNamed) {
  Measurements m;
  m.places = places(3, 3);
  m.groups = rings(m.places, [](const Group& g) { return g.label == "local rank 1" ? 2.0 : 8.0; });
  const Verdict v = decide(m, OutlierRule{});
  EXPECT_EQ(named(v), (std::vector<std::string>{"rail local rank 1 by rail rings"}));
  EXPECT_EQ(v.findings.front().ranks, (std::vector<int>{1, 4, 7}));
  EXPECT_EQ(v.findings.front().hosts, (std::vector<std::string>{"node0", "node1", "node2"}));
}

TEST(Verdict, TwoSlowRanksAreBothNamedAndNoPair) {
  Measurements m;
  m.places = places(1, 8);
  m.pairs = all_pairs(m.places, [&](int a, int b) {
    const bool slow = a == 2 || b == 2 || a == 5 || b == 5;
    return slow ? 2.0 : healthy(m.places, a, b);
  });
  const Verdict v = decide(m, OutlierRule{});
  EXPECT_EQ(named(v), (std::vector<std::string>{"rank 2 by ranks over their intra-host pairs",
                                                "rank 5 by ranks over their intra-host pairs"}));
  EXPECT_EQ(figure(v, "intra-host pairs", "pair 2-5")->set_aside, "explained by rank 2, 5, named above");
}

TEST(Verdict, ARankWithOneSlowPairLeftIsNotBlamed) {
  // After rank 2 is named, rank 1 has one inter-host pair left, and it ran slow beside a pair
  // of rank 2's. Two inter-host pairs are left to compare (0-3 and 1-3): too few to tell
  // which is abnormal, so neither the pair nor rank 1 is named.
  Measurements m;
  m.places = places(2, 2);
  m.pairs = all_pairs(m.places, [&](int a, int b) {
    if (a == 2 || b == 2) return 0.35;
    return a == 1 && b == 3 ? 5.0 : 10.0;
  });
  const Verdict v = decide(m, OutlierRule{});
  std::set<std::string> who;
  for (const auto& f : v.findings) who.insert(f.label);
  EXPECT_EQ(who, (std::set<std::string>{"rank 2"}));
  // Without arrival figures rank 2 is accused by its pairs alone, but 95 % below the others:
  // contention beside other traffic does not explain that, and no recheck is needed.
  EXPECT_TRUE(suspects(v).empty());
  EXPECT_EQ(figure(v, "ranks over their inter-host pairs", "rank 2")->recheck, LocateRecheck::kDecisive);
  m.confirmation_done = true;
  EXPECT_EQ(named(decide(m, OutlierRule{})), (std::vector<std::string>{"rank 2 by ranks over their inter-host pairs"}));
}

TEST(Verdict, ARankModeratelyBelowIsRecheckedOnItsBestPairsBesideAControl) {
  // Rank 2 at half the others' bandwidth: what contention can do, so it is measured again on
  // its two best pairs, each beside the healthy pair closest to the median.
  Measurements m;
  m.places = places(1, 6);
  m.pairs = all_pairs(m.places, [&](int a, int b) {
    if (a == 2 || b == 2) return a == 0 || b == 0 ? 10.0 : (a == 1 || b == 1 ? 9.8 : 9.5);
    return healthy(m.places, a, b);
  });
  const Verdict v = decide(m, OutlierRule{});
  const auto s = suspects(v);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].ranks, (std::vector<int>{0, 2}));  // its best pairs
  EXPECT_EQ(s[1].ranks, (std::vector<int>{1, 2}));
  for (const auto& x : s) {
    ASSERT_EQ(x.control.size(), 2u);
    for (int r : x.control) EXPECT_NE(r, 2);
  }
  m.confirmation_done = true;
  m.rechecks = {{{0, 2}, 10.1, s[0].control, 20.0, 0.49}, {{1, 2}, 9.9, s[1].control, 20.1, 0.51}};
  EXPECT_EQ(figure(decide(m, OutlierRule{}), "ranks over their intra-host pairs", "rank 2")->recheck,
            LocateRecheck::kConfirmed);
  m.rechecks = {{{0, 2}, 19.0, s[0].control, 20.0, 0.05}, {{1, 2}, 19.5, s[1].control, 20.1, 0.03}};
  const Verdict cleared = decide(m, OutlierRule{});
  EXPECT_EQ(figure(cleared, "ranks over their intra-host pairs", "rank 2")->recheck, LocateRecheck::kNotConfirmed);
  EXPECT_TRUE(cleared.findings.empty());
}

TEST(Verdict, SlowPairsBetweenTwoHostsAreOneLink) {
  // Four hosts of two ranks; everything between node0 and node2 at a fifth: one link of six.
  Measurements m;
  m.places = places(4, 2);
  m.pairs = all_pairs(m.places, [&](int a, int b) {
    const bool link = (a / 2 == 0 && b / 2 == 2) || (a / 2 == 2 && b / 2 == 0);
    return link ? 1.0 : healthy(m.places, a, b);
  });
  const auto measured_alone = suspects(decide(m, OutlierRule{}));
  ASSERT_EQ(measured_alone.size(), 1u);  // the link's ranks in one ring, not its four pairs
  EXPECT_EQ(measured_alone[0].ranks, (std::vector<int>{0, 1, 4, 5}));
  ASSERT_EQ(measured_alone[0].control.size(), 4u);
  m.rechecks.push_back({measured_alone[0].ranks, 1.0, measured_alone[0].control, 5.0, 0.8});
  m.confirmation_done = true;
  const Verdict v = decide(m, OutlierRule{});
  ASSERT_EQ(named(v), (std::vector<std::string>{"link node0-node2 by links (host pairs)"}));
  EXPECT_EQ(v.findings[0].subject, "link");
  EXPECT_EQ(v.findings[0].hosts, (std::vector<std::string>{"node0", "node2"}));
  EXPECT_EQ(v.findings[0].ranks, (std::vector<int>{0, 1, 4, 5}));
  EXPECT_EQ(figure(v, "inter-host pairs", "pair 1-4")->set_aside, "explained by link node0-node2, named above");
  // Not slower than its control when measured alone: nothing is named.
  m.rechecks = {{measured_alone[0].ranks, 4.9, measured_alone[0].control, 5.0, 0.02}};
  EXPECT_TRUE(decide(m, OutlierRule{}).findings.empty());
}

// Three hosts of two ranks: the slow link's 4 pairs are a third of the 12 inter-host pairs and
// widen the MAD each is judged by (3 MADs, seen on the namespace cluster); as one link of
// three it stands alone.
TEST(Verdict, SlowLinkOfThreeHostsIsNamed) {
  Measurements m;
  m.places = places(3, 2);
  m.arrivals = punctual(6);
  const double inter[] = {0.34, 0.54, 0.56, 0.60, 0.47, 0.41, 0.38, 0.50};
  int k = 0;
  m.pairs = all_pairs(m.places, [&](int a, int b) {
    if (a / 2 == b / 2) return 3.0;
    if (a / 2 == 0 && b / 2 == 2) return 0.03 + 0.001 * (a + b);
    return inter[k++ % 8];
  });
  const Verdict before = decide(m, OutlierRule{});
  EXPECT_EQ(figure(before, "inter-host pairs", "pair 0-4")->set_aside, "explained by link node0-node2, named above");
  const auto s = suspects(before);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].ranks, (std::vector<int>{0, 1, 4, 5}));
  m.rechecks = {{s[0].ranks, 0.03, s[0].control, 0.5, 0.9}};
  m.confirmation_done = true;
  EXPECT_EQ(named(decide(m, OutlierRule{})), (std::vector<std::string>{"link node0-node2 by links (host pairs)"}));
}

// A slow host makes two of the three links slow: neither link is far below the other two, so
// no link is named for what the host did.
TEST(Verdict, SlowHostOfThreeIsNotTwoLinks) {
  Measurements m;
  m.places = places(3, 2);
  m.pairs = all_pairs(m.places, [&](int a, int b) {
    if (a / 2 == b / 2) return 3.0;
    return a / 2 == 1 || b / 2 == 1 ? 0.1 : 0.5;
  });
  const Verdict v = decide(m, OutlierRule{});
  for (const auto& f : v.findings) EXPECT_NE(f.subject, "link") << f.label;
  // Without arrival figures, ranks 2 and 3 are named by their pairs (the host's, 80 % below),
  // which explains both of its links; the link between the healthy hosts is no outlier.
  EXPECT_EQ(figure(v, "links (host pairs)", "link node0-node1")->set_aside, "explained by rank 2, 3, named above");
  const auto* healthy_link = figure(v, "links (host pairs)", "link node0-node2");
  ASSERT_NE(healthy_link, nullptr);
  EXPECT_FALSE(healthy_link->outlier);
}

// What four ranks sharing two cores produce: the pairs of rank 3 ran beside rank 2's pairs,
// whose waiting rank spins on a core, at half speed; alone they are as fast as the rest.
TEST(Verdict, RankSlowOnlyBesideOtherTrafficIsCleared) {
  Measurements m;
  m.places = places(1, 4);
  m.arrivals = punctual(4, 2);
  m.pairs = all_pairs(m.places, [](int a, int b) {
    if (a == 2 || b == 2) return 0.35;
    return a == 0 && b == 1 ? 9.9 : 5.1;
  });
  const Verdict before = decide(m, OutlierRule{});
  EXPECT_EQ(named(before),
            (std::vector<std::string>{"rank 2 by all_reduce arrival", "rank 2 by ranks over their intra-host pairs",
                                      "rank 3 by ranks over their intra-host pairs"}));
  EXPECT_EQ(suspect_ranks(before), (std::vector<std::vector<int>>{{0, 3}, {1, 3}}));
  for (const auto& x : suspects(before)) EXPECT_EQ(x.control, (std::vector<int>{0, 1}));
  m.confirmation_done = true;
  m.rechecks = {{{0, 3}, 9.7, {}, 0, 0}, {{1, 3}, 9.8, {}, 0, 0}};
  const Verdict after = decide(m, OutlierRule{});
  EXPECT_EQ(named(after),
            (std::vector<std::string>{"rank 2 by all_reduce arrival", "rank 2 by ranks over their intra-host pairs"}));
  const auto* r3 = figure(after, "ranks over their intra-host pairs", "rank 3");
  EXPECT_EQ(r3->recheck, LocateRecheck::kNotConfirmed);
  EXPECT_FALSE(r3->outlier);
  EXPECT_EQ(figure(after, "intra-host pairs", "pair 0-3")->set_aside, "");  // judged as a pair, not explained
  // Rechecks that are slow too keep rank 3 named.
  m.rechecks = {{{0, 3}, 5.0, {}, 0, 0}, {{1, 3}, 5.2, {}, 0, 0}};
  EXPECT_EQ(figure(decide(m, OutlierRule{}), "ranks over their intra-host pairs", "rank 3")->recheck,
            LocateRecheck::kConfirmed);
}

// Seen in the 4-rank test beside a loaded machine: once rank 2 is named, three ranks are left,
// and rank 3's two pairs ran at a third of pair 0-1. 61 % below two others is where the
// scheduler put rank 3 as often as a fault, so rank 3 is measured again rather than named.
Measurements rank_3_behind_after_rank_2() {
  Measurements m;
  m.places = places(1, 4);
  m.arrivals = punctual(4, 2);
  m.pairs = all_pairs(m.places, [](int a, int b) {
    if (a == 2 || b == 2) return 0.36;
    return a == 0 && b == 1 ? 7.96 : (a == 0 ? 2.10 : 2.69);
  });
  return m;
}

TEST(Verdict, FarBelowOnlyTwoOthersIsRecheckedNotDecisive) {
  Measurements m = rank_3_behind_after_rank_2();
  const Verdict v = decide(m, OutlierRule{});
  const auto* r3 = figure(v, "ranks over their intra-host pairs", "rank 3");
  ASSERT_NE(r3, nullptr);
  EXPECT_GE(r3->gap, OutlierRule{}.decisive_gap);
  EXPECT_EQ(r3->recheck, LocateRecheck::kNone);  // provisional: the confirmation measures it
  EXPECT_EQ(suspect_ranks(v), (std::vector<std::vector<int>>{{1, 3}, {0, 3}}));
  m.confirmation_done = true;
  EXPECT_EQ(figure(decide(m, OutlierRule{}), "ranks over their intra-host pairs", "rank 3")->recheck,
            LocateRecheck::kNotMeasured);
}

// A rank is confirmed when even its best pair was behind that pair's control every time: one
// pair far behind and the other close to its control is not a slow rank (the old rule, best
// figure alone against the controls' median, named rank 3 here).
TEST(Verdict, RankIsConfirmedOnlyWhenEachRecheckedPairStaysBehind) {
  Measurements m = rank_3_behind_after_rank_2();
  m.confirmation_done = true;
  m.rechecks = {{{0, 3}, 2.2, {0, 1}, 3.0, 0.27}, {{1, 3}, 2.5, {0, 1}, 7.9, 0.68}};
  const Verdict v = decide(m, OutlierRule{});
  const auto* cleared = figure(v, "ranks over their intra-host pairs", "rank 3");
  EXPECT_EQ(cleared->recheck, LocateRecheck::kNotConfirmed);
  EXPECT_FALSE(cleared->outlier);
  m.rechecks = {{{0, 3}, 2.2, {0, 1}, 7.5, 0.66}, {{1, 3}, 2.5, {0, 1}, 7.9, 0.68}};
  EXPECT_EQ(figure(decide(m, OutlierRule{}), "ranks over their intra-host pairs", "rank 3")->recheck,
            LocateRecheck::kConfirmed);
  // The budget held only the best pair (1-3, measured first): it decides alone.
  m.rechecks = {{{1, 3}, 2.5, {0, 1}, 7.9, 0.68}};
  EXPECT_EQ(figure(decide(m, OutlierRule{}), "ranks over their intra-host pairs", "rank 3")->recheck,
            LocateRecheck::kConfirmed);
  m.rechecks = {{{1, 3}, 7.5, {0, 1}, 7.9, 0.05}};
  EXPECT_EQ(figure(decide(m, OutlierRule{}), "ranks over their intra-host pairs", "rank 3")->recheck,
            LocateRecheck::kNotConfirmed);
}

// The 3x2 namespace cluster with h2 at a twentieth (a trial that named nothing): arrival sees
// no straggler, and ranks 2 and 3 hid each other over their inter-host pairs.
TEST(Verdict, SlowHostOfThreeIsNamedThoughItsRanksAreAlike) {
  Measurements m;
  m.places = places(3, 2);
  m.arrivals = punctual(6);
  // GB/s as measured, pair (a, b) at [a][b].
  const double gbps[6][6] = {{0, 2.38, 0.00706, 0.00727, 0.843, 0.426},
                             {0, 0, 0.00687, 0.00761, 0.365, 0.372},
                             {0, 0, 0, 3.22, 0.00727, 0.00681},
                             {0, 0, 0, 0, 0.00734, 0.00795},
                             {0, 0, 0, 0, 0, 2.87}};
  m.pairs = all_pairs(m.places, [&](int a, int b) { return gbps[a][b]; });
  // With ranks 2 and 3 named, four inter-host pairs are left and rank 1's two are at half the
  // others': a suspect, measured alone and found no slower than its control.
  const auto s = suspects(decide(m, OutlierRule{}));
  ASSERT_EQ(s.size(), 2u);
  for (const auto& x : s) EXPECT_NE(std::find(x.ranks.begin(), x.ranks.end(), 1), x.ranks.end());
  for (const auto& x : s) m.rechecks.push_back({x.ranks, 0.40, x.control, 0.42, 0.05});
  m.confirmation_done = true;
  const Verdict v = decide(m, OutlierRule{});
  // One finding, the host, with its ranks' findings as its evidence.
  ASSERT_EQ(v.findings.size(), 1u);
  EXPECT_EQ(v.findings[0].label, "host node1");
  EXPECT_EQ(named(v), (std::vector<std::string>{"host node1 by every rank of the host named",
                                                "rank 2 by ranks over their inter-host pairs",
                                                "rank 3 by ranks over their inter-host pairs"}));
  EXPECT_EQ(figure(v, "ranks over their inter-host pairs", "rank 3")->recheck, LocateRecheck::kDecisive);
}

TEST(Verdict, LeastGapIsBehindInEveryAlternationButAControlStall) {
  // Behind in two of three: not behind every time.
  EXPECT_NEAR(least_gap({0.5, 0.5, 0.9}, {1.0, 1.0, 1.0}), 0.1, 1e-12);
  // The control stalled once (a tenth of its median): that alternation is left out.
  EXPECT_NEAR(least_gap({0.10, 0.10, 0.11}, {0.94, 0.09, 1.0}), 0.89, 1e-12);
  EXPECT_DOUBLE_EQ(least_gap({}, {}), 0);
  EXPECT_DOUBLE_EQ(least_gap({0.5}, {}), 0);  // no control
}

TEST(Verdict, ThreeRanksOneSlow) {
  Measurements m;
  m.places = places(1, 3);
  m.arrivals = punctual(3, 1);
  m.pairs = all_pairs(m.places, [&](int a, int b) { return a == 1 || b == 1 ? 1.0 : 10.0; });
  const Verdict v = decide(m, OutlierRule{});
  ASSERT_EQ(v.findings.size(), 1u) << ::testing::PrintToString(named(v));
  EXPECT_EQ(v.findings[0].label, "rank 1");
  EXPECT_EQ(v.findings[0].evidence.size(), 2u) << ::testing::PrintToString(named(v));
}

// Every rank's CPU figures: `switches` each, and `busy` for the ranks given; steal unknown
// unless `steal` is given per rank.
std::vector<report::LocateCpu> cpu_of(int ranks, double switches, const std::map<int, double>& busy,
                                      const std::map<int, double>& steal = {}) {
  std::vector<report::LocateCpu> out;
  for (int r = 0; r < ranks; ++r) {
    const auto b = busy.find(r);
    const auto s = steal.find(r);
    out.push_back({.rank = r,
                   .involuntary_switches = b == busy.end() ? switches : b->second,
                   .steal_share = s == steal.end() ? std::numeric_limits<double>::quiet_NaN() : s->second});
  }
  return out;
}

TEST(Verdict, ANamedRankDescheduledFarMoreThanTheOthersIsCpuContention) {
  Measurements m;
  m.places = places(1, 4);
  m.arrivals = punctual(4, 2);
  m.pairs = all_pairs(m.places, [&](int a, int b) { return a == 2 || b == 2 ? 0.4 : healthy(m.places, a, b); });
  m.cpu = cpu_of(4, 40, {{2, 3412}});
  const Verdict v = decide(m, OutlierRule{});
  ASSERT_EQ(v.findings.size(), 1u);
  EXPECT_EQ(v.findings[0].cause,
            "descheduled 3412 times during the pairs (others: 40): CPU contention on its host, not the network");

  // The same slow rank, descheduled as often as the others: the network's (or the device's).
  m.cpu = cpu_of(4, 40, {});
  EXPECT_EQ(decide(m, OutlierRule{}).findings.at(0).cause, "");
  // Busy but not ten times the others, or ten times but only a few dozen preemptions: no cause.
  m.cpu = cpu_of(4, 400, {{2, 3412}});
  EXPECT_EQ(decide(m, OutlierRule{}).findings.at(0).cause, "");
  m.cpu = cpu_of(4, 2, {{2, 150}});
  EXPECT_EQ(decide(m, OutlierRule{}).findings.at(0).cause, "");
}

TEST(Verdict, ABusyRankThatIsNotSlowIsNotAFinding) {
  Measurements m;
  m.places = places(1, 4);
  m.arrivals = punctual(4);
  m.pairs = all_pairs(m.places, [&](int a, int b) { return healthy(m.places, a, b); });
  m.cpu = cpu_of(4, 40, {{1, 5000}});
  EXPECT_TRUE(decide(m, OutlierRule{}).findings.empty());
}

TEST(Verdict, AHostLosingItsCpuToStealIsCpuContention) {
  // Everything leaving node2 runs at a fifth, and node2's hypervisor took 30% of its CPU time
  // (the others 1%).
  Measurements m = slow_nic_on_node2();
  m.cpu = cpu_of(6, 40, {}, {{0, 0.01}, {1, 0.01}, {2, 0.01}, {3, 0.01}, {4, 0.30}, {5, 0.30}});
  const Verdict v = decide(m, OutlierRule{});
  ASSERT_EQ(v.findings.size(), 1u);
  EXPECT_EQ(v.findings[0].label, "host node2");
  EXPECT_EQ(v.findings[0].cause,
            "its host lost 30% of its CPU time to steal during the pairs (others: 1%): CPU contention on its host "
            "(the hypervisor), not the network");
}

TEST(Verdict, OneRankComparesNothing) {
  Measurements m;
  m.places = places(1, 1);
  m.arrivals = punctual(1);
  const Verdict v = decide(m, OutlierRule{});
  EXPECT_EQ(v.verdict, LocateVerdict::kNothingCompared);
  ASSERT_EQ(v.comparisons.size(), 1u);
  EXPECT_FALSE(v.comparisons[0].compared);
  EXPECT_FALSE(v.comparisons[0].note.empty());
}

TEST(Verdict, TwoRanksNameTheLateOne) {
  Measurements m;
  m.places = places(1, 2);
  m.arrivals = {{0.99, 3}, {0.05, 15000}};
  m.pairs = all_pairs(m.places, [](int, int) { return 3.0; });
  const Verdict v = decide(m, OutlierRule{});
  EXPECT_EQ(named(v), (std::vector<std::string>{"rank 1 by all_reduce arrival"}));
  // One pair cannot tell its two ranks apart.
  EXPECT_FALSE(figure(v, "intra-host pairs", "pair 0-1")->judged);
}

// --fabric: `hosts` hosts of one rank each, two hosts per leaf switch (s1, s2, ...).
std::vector<RankPlace> under_leaves(int hosts) {
  std::vector<RankPlace> out = places(hosts, 1);
  for (int h = 0; h < hosts; ++h) out[static_cast<std::size_t>(h)].leaf = "s" + std::to_string(h / 2 + 1);
  return out;
}

bool crosses(const std::vector<RankPlace>& where, int a, int b, const std::string& leaf) {
  const auto& la = where[static_cast<std::size_t>(a)].leaf;
  const auto& lb = where[static_cast<std::size_t>(b)].leaf;
  return la != lb && (la == leaf || lb == leaf);
}

constexpr const char* kUplinks = "switch uplinks (pairs across a leaf against inside it)";

// Six hosts under three leaves; everything leaving s3 runs at a third: one finding, the
// uplink, and none of its hosts, ranks, pairs or links.
TEST(Verdict, SlowUplinkIsNamedAsItsSwitch) {
  Measurements m;
  m.places = under_leaves(6);
  m.arrivals = punctual(6);
  m.pairs = all_pairs(m.places,
                      [&](int a, int b) { return crosses(m.places, a, b, "s3") ? 5.0 / 3 : healthy(m.places, a, b); });
  m.confirmation_done = true;
  const Verdict v = decide(m, OutlierRule{});
  ASSERT_EQ(v.findings.size(), 1u) << ::testing::PrintToString(named(v));
  EXPECT_EQ(v.findings[0].subject, "switch");
  EXPECT_EQ(v.findings[0].label, "uplink of switch s3");
  EXPECT_EQ(v.findings[0].hosts, (std::vector<std::string>{"node4", "node5"}));
  EXPECT_EQ(v.verdict, LocateVerdict::kOutlier);
  const auto* s1 = figure(v, kUplinks, "uplink of switch s1");
  ASSERT_NE(s1, nullptr);
  EXPECT_TRUE(s1->judged);
  EXPECT_FALSE(s1->outlier);
  // The pairs across it are set aside as explained; an uplink is not re-measured alone.
  EXPECT_FALSE(figure(v, "inter-host pairs", "pair 0-4")->judged);
  EXPECT_TRUE(suspects(v).empty());
}

// A slow host under a leaf slows its pairs inside the leaf as much as across it: the host is
// named, not the uplink.
TEST(Verdict, SlowHostUnderALeafIsNotItsUplink) {
  Measurements m;
  m.places = under_leaves(6);
  m.arrivals = punctual(6);
  m.pairs = all_pairs(m.places, [&](int a, int b) { return a == 4 || b == 4 ? 1.0 : healthy(m.places, a, b); });
  m.confirmation_done = true;
  const Verdict v = decide(m, OutlierRule{});
  for (const auto& f : v.findings) EXPECT_NE(f.subject, "switch") << f.label;
  EXPECT_FALSE(figure(v, kUplinks, "uplink of switch s3")->outlier);
  EXPECT_EQ(v.verdict, LocateVerdict::kOutlier);
}

// A leaf whose one pair inside ran three times as fast has a low share, but its pairs across
// run like everyone's: not an uplink.
TEST(Verdict, AFastPairInsideALeafIsNotASlowUplink) {
  Measurements m;
  m.places = under_leaves(6);
  m.arrivals = punctual(6);
  m.pairs = all_pairs(m.places, [&](int a, int b) { return a == 2 && b == 3 ? 15.0 : healthy(m.places, a, b); });
  m.confirmation_done = true;
  const Verdict v = decide(m, OutlierRule{});
  const auto* s2 = figure(v, kUplinks, "uplink of switch s2");
  ASSERT_NE(s2, nullptr);
  EXPECT_TRUE(s2->judged);
  EXPECT_LT(s2->value, 0.5);
  EXPECT_FALSE(s2->outlier);
  for (const auto& f : v.findings) EXPECT_NE(f.subject, "switch") << f.label;
  const auto uplinks = std::find_if(v.comparisons.begin(), v.comparisons.end(),
                                    [](const auto& c) { return c.name == kUplinks; });
  EXPECT_NE(uplinks->note.find("uplink of switch s2: a low share"), std::string::npos) << uplinks->note;
}

TEST(Verdict, HealthyLeavesNameNoUplink) {
  Measurements m;
  m.places = under_leaves(8);
  m.arrivals = punctual(8);
  m.pairs = all_pairs(m.places, [&](int a, int b) { return healthy(m.places, a, b); });
  const Verdict v = decide(m, OutlierRule{});
  EXPECT_EQ(v.verdict, LocateVerdict::kNoOutlier) << ::testing::PrintToString(named(v));
  const auto* s4 = figure(v, kUplinks, "uplink of switch s4");
  ASSERT_NE(s4, nullptr);
  EXPECT_TRUE(s4->judged);
}

// Two leaves: the pairs across them are one path, judged against the pairs inside them.
TEST(Verdict, SlowPathBetweenTwoLeavesNamesBothUplinks) {
  Measurements m;
  m.places = under_leaves(4);
  m.arrivals = punctual(4);
  m.pairs = all_pairs(m.places,
                      [&](int a, int b) { return crosses(m.places, a, b, "s1") ? 2.0 : healthy(m.places, a, b); });
  m.confirmation_done = true;
  const Verdict v = decide(m, OutlierRule{});
  ASSERT_EQ(v.findings.size(), 1u) << ::testing::PrintToString(named(v));
  EXPECT_EQ(v.findings[0].subject, "switch");
  EXPECT_EQ(v.findings[0].label, "uplinks between switch s1 and switch s2");
  EXPECT_NEAR(v.findings[0].value, 0.4, 0.02);
}

// Two leaves of two and three hosts, one host at a fifth: under either leaf it slows its own
// pairs inside and across alike, so the host is named, never the path between the leaves.
TEST(Verdict, SlowHostUnderOneOfTwoLeavesIsNotTheirUplinks) {
  for (const int slow : {0, 1, 2, 4}) {
    Measurements m;
    m.places = places(5, 1);
    for (int h = 0; h < 5; ++h) m.places[static_cast<std::size_t>(h)].leaf = h < 2 ? "s1" : "s2";
    m.arrivals = punctual(5);
    m.pairs = all_pairs(m.places, [&](int a, int b) { return a == slow || b == slow ? 1.0 : healthy(m.places, a, b); });
    m.confirmation_done = true;
    const Verdict v = decide(m, OutlierRule{});
    for (const auto& f : v.findings) EXPECT_NE(f.subject, "switch") << "slow host " << slow << ": " << f.label;
    ASSERT_EQ(v.findings.size(), 1u) << "slow host " << slow << ": " << ::testing::PrintToString(named(v));
    EXPECT_EQ(v.findings[0].hosts, (std::vector<std::string>{"node" + std::to_string(slow)})) << slow;
  }
}

// Two leaves of two hosts, whose one pair inside s1 ran three times as fast: the path across
// is no slower than the pairs inside s2, and is not named.
TEST(Verdict, AFastPairInsideOneOfTwoLeavesIsNotTheirUplinks) {
  Measurements m;
  m.places = under_leaves(4);
  m.arrivals = punctual(4);
  m.pairs = all_pairs(m.places, [&](int a, int b) { return a == 0 && b == 1 ? 15.0 : healthy(m.places, a, b); });
  m.confirmation_done = true;
  const Verdict v = decide(m, OutlierRule{});
  const auto* path = figure(v, kUplinks, "uplinks between switch s1 and switch s2");
  ASSERT_NE(path, nullptr);
  EXPECT_TRUE(path->judged);
  EXPECT_FALSE(path->outlier);
  for (const auto& f : v.findings) EXPECT_NE(f.subject, "switch") << f.label;
}

// A leaf with one host cannot tell its uplink from the host's own link: it is set aside, and
// without leaves (no --fabric) there is no uplink comparison at all.
TEST(Verdict, UplinksNeedTwoHostsUnderTheLeafAndAFabric) {
  Measurements m;
  m.places = under_leaves(5);
  m.arrivals = punctual(5);
  m.pairs = all_pairs(m.places, [&](int a, int b) { return healthy(m.places, a, b); });
  const Verdict v = decide(m, OutlierRule{});
  EXPECT_FALSE(figure(v, kUplinks, "uplink of switch s3")->judged);
  EXPECT_NE(figure(v, kUplinks, "uplink of switch s3")->set_aside.find("one host"), std::string::npos);
  m.places = places(5, 1);
  for (const auto& c : decide(m, OutlierRule{}).comparisons) EXPECT_NE(c.subject, "switch");
}

}  // namespace
}  // namespace collbench::engine::locate
