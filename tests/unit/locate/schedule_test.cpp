#include "bench/engine/locate/schedule.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <utility>

namespace collbench::engine::locate {
namespace {

// Every pair exactly once over the round set, no rank twice in a round, a < b, and for odd n
// exactly one bye per round and per rank.
void expect_round_set(const std::vector<Round>& rounds, int n) {
  std::set<std::pair<int, int>> seen;
  std::vector<int> byes(static_cast<std::size_t>(n), 0);
  for (const Round& round : rounds) {
    std::set<int> busy;
    EXPECT_EQ(round.size(), static_cast<std::size_t>(n / 2));
    for (const RankPair& p : round) {
      EXPECT_LT(p.a, p.b);
      EXPECT_GE(p.a, 0);
      EXPECT_LT(p.b, n);
      EXPECT_TRUE(busy.insert(p.a).second) << "rank " << p.a << " twice in a round (n=" << n << ")";
      EXPECT_TRUE(busy.insert(p.b).second) << "rank " << p.b << " twice in a round (n=" << n << ")";
      EXPECT_TRUE(seen.insert({p.a, p.b}).second) << "pair " << p.a << "-" << p.b << " twice (n=" << n << ")";
    }
    for (int r = 0; r < n; ++r) {
      if (!busy.contains(r)) ++byes[static_cast<std::size_t>(r)];
    }
  }
  EXPECT_EQ(seen.size(), static_cast<std::size_t>(n * (n - 1) / 2)) << "n=" << n;
  for (int r = 0; r < n; ++r) EXPECT_EQ(byes[static_cast<std::size_t>(r)], n % 2) << "rank " << r << " n=" << n;
}

TEST(RoundRobin, EveryPairExactlyOnceInDisjointRounds) {
  for (int n = 2; n <= 41; ++n) {
    const auto rounds = round_robin(n);
    EXPECT_EQ(static_cast<int>(rounds.size()), n % 2 == 0 ? n - 1 : n) << "n=" << n;
    expect_round_set(rounds, n);
  }
}

TEST(RoundRobin, FewerThanTwoRanksHaveNoRounds) {
  EXPECT_TRUE(round_robin(0).empty());
  EXPECT_TRUE(round_robin(1).empty());
}

TEST(RoundRobin, TwoAndThreeRanks) {
  EXPECT_EQ(round_robin(2), (std::vector<Round>{{{0, 1}}}));
  const auto three = round_robin(3);
  ASSERT_EQ(three.size(), 3u);
  for (const auto& round : three) EXPECT_EQ(round.size(), 1u);
}

TEST(RoundRobin, RelabelledPassesStayCompleteAndChangeNeighbours) {
  for (int n : {5, 6, 8, 9}) {
    const auto base = round_robin(n);
    for (int shift = 1; shift < 4; ++shift) expect_round_set(relabel(base, n, shift), n);
  }
  // With 6 ranks pair 2-5 runs beside other pairs once it is relabelled.
  const auto base = round_robin(6);
  const auto moved = relabel(base, 6, 1);
  const auto neighbours = [](const std::vector<Round>& rounds, RankPair pair) {
    for (const auto& round : rounds) {
      for (const auto& p : round) {
        if (p == pair) return round;
      }
    }
    return Round{};
  };
  EXPECT_NE(neighbours(base, {2, 5}), neighbours(moved, {2, 5}));
}

TEST(RoundRobin, PartnersAreMutual) {
  const auto rounds = round_robin(7);
  for (const auto& round : rounds) {
    int byes = 0;
    for (int r = 0; r < 7; ++r) {
      const int p = partner_in(round, r);
      if (p < 0) {
        ++byes;
        continue;
      }
      EXPECT_EQ(partner_in(round, p), r);
    }
    EXPECT_EQ(byes, 1);
  }
}

std::vector<RankPlace> two_hosts_of_three() {
  return {{"a", 0, ""}, {"a", 1, ""}, {"a", 2, ""}, {"b", 0, ""}, {"b", 1, ""}, {"b", 2, ""}};
}

TEST(Groups, HostsInOrderOfFirstAppearance) {
  const std::vector<RankPlace> places = {{"b", 0, ""}, {"a", 0, ""}, {"b", 1, ""}, {"a", 1, ""}};
  const auto groups = host_groups(places);
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].label, "b");
  EXPECT_EQ(groups[0].ranks, (std::vector<int>{0, 2}));
  EXPECT_EQ(groups[1].label, "a");
  EXPECT_EQ(groups[1].ranks, (std::vector<int>{1, 3}));
  EXPECT_EQ(groups[0].kind, GroupKind::kHost);
}

TEST(Groups, RailsByLocalRank) {
  const auto places = two_hosts_of_three();
  const auto rails = rail_groups(places);
  ASSERT_EQ(rails.size(), 3u);
  EXPECT_EQ(rails[0].label, "local rank 0");
  EXPECT_EQ(rails[0].ranks, (std::vector<int>{0, 3}));
  EXPECT_EQ(rails[2].ranks, (std::vector<int>{2, 5}));
  EXPECT_EQ(rails[2].kind, GroupKind::kRail);
}

TEST(Groups, UnevenHostsLeaveSingleRails) {
  const std::vector<RankPlace> places = {{"a", 0, ""}, {"a", 1, ""}, {"b", 0, ""}};
  const auto rails = measurable(rail_groups(places));
  ASSERT_EQ(rails.size(), 1u);
  EXPECT_EQ(rails[0].ranks, (std::vector<int>{0, 2}));
}

TEST(Rings, EveryMemberSendsToTheNextAndReceivesFromThePrevious) {
  const Group g{GroupKind::kHost, "h", {1, 4, 6, 9}};
  int at = 1;
  for (int step = 0; step < 4; ++step) {
    const RingPeers p = ring_peers(g, at);
    EXPECT_EQ(ring_peers(g, p.send).recv, at);
    at = p.send;
  }
  EXPECT_EQ(at, 1);  // around the ring and back
  EXPECT_EQ(ring_peers(g, 9).send, 1);
  EXPECT_EQ(ring_peers(g, 1).recv, 9);
}

TEST(Rings, PairsSingletonsAndStrangers) {
  const Group pair{GroupKind::kRail, "r", {2, 5}};
  EXPECT_EQ(ring_peers(pair, 2).send, 5);
  EXPECT_EQ(ring_peers(pair, 2).recv, 5);
  const Group alone{GroupKind::kHost, "h", {3}};
  EXPECT_EQ(ring_peers(alone, 3).send, -1);
  EXPECT_EQ(ring_peers(alone, 3).recv, -1);
  EXPECT_EQ(ring_peers(pair, 0).send, -1);
}

// `hosts` hosts of `per_host` ranks, host by host.
std::vector<RankPlace> grid(int hosts, int per_host) {
  std::vector<RankPlace> places;
  for (int h = 0; h < hosts; ++h) {
    for (int k = 0; k < per_host; ++k) places.push_back({"h" + std::to_string(h), k, ""});
  }
  return places;
}

TEST(PairSchedule, EveryPairUpToTheLimitThenSampled) {
  const PairSchedule small = choose_pair_schedule(grid(4, 8));  // 32 ranks: 31 rounds
  EXPECT_FALSE(small.sampled);
  EXPECT_EQ(small.rounds_per_pass, 31);
  EXPECT_EQ(pass_rounds(small, grid(4, 8), 1), relabel(round_robin(32), 32, 1));

  const PairSchedule wide = choose_pair_schedule(grid(1024, 8));
  EXPECT_TRUE(wide.sampled);
  EXPECT_EQ(wide.every_pair_rounds, 8191);
  EXPECT_EQ(wide.rounds_per_pass, 20);  // 2 x log2(1,024 hosts)
  EXPECT_EQ(choose_pair_schedule(grid(16, 8)).rounds_per_pass, 8);
  EXPECT_EQ(choose_pair_schedule(grid(5, 8)).rounds_per_pass, 5);    // no more than 5 hosts have rounds
  EXPECT_EQ(choose_pair_schedule(grid(1, 64)).rounds_per_pass, 12);  // one host: its ranks are paired
  EXPECT_FALSE(choose_pair_schedule(grid(4, 16)).sampled);           // 3 rounds of host pairs: too few to judge a rank
  EXPECT_EQ(choose_pair_schedule(grid(4, 16)).rounds_per_pass, 63);
}

TEST(PairSchedule, SampledRoundsPairTheSameRailOfDistinctHostsOncePerPass) {
  const std::vector<RankPlace> places = grid(37, 4);
  const auto rounds = sampled_rounds(places, 12, 7);
  ASSERT_EQ(rounds.size(), 12u);
  std::set<std::pair<std::string, std::string>> links;
  for (const Round& round : rounds) {
    std::set<int> busy;
    EXPECT_EQ(round.size(), 18u * 4u);  // 36 of 37 hosts, one sits out
    for (const RankPair& p : round) {
      EXPECT_LT(p.a, p.b);
      EXPECT_TRUE(busy.insert(p.a).second && busy.insert(p.b).second) << "a rank twice in a round";
      const RankPlace& x = places[static_cast<std::size_t>(p.a)];
      const RankPlace& y = places[static_cast<std::size_t>(p.b)];
      EXPECT_NE(x.host, y.host);
      EXPECT_EQ(x.local_rank, y.local_rank);
      if (x.local_rank == 0) {
        EXPECT_TRUE(links.insert({x.host, y.host}).second) << "hosts met twice in a pass";
      }
    }
  }
}

TEST(PairSchedule, PassesAreFreshDrawsTheSameOnEveryRank) {
  const std::vector<RankPlace> places = grid(64, 2);
  EXPECT_EQ(sampled_rounds(places, 12, 3), sampled_rounds(places, 12, 3));
  EXPECT_NE(sampled_rounds(places, 12, 3), sampled_rounds(places, 12, 4));
}

TEST(PairSchedule, UnevenHostsAndOneHost) {
  // Host a has three ranks, b one: only their first ranks have a counterpart.
  const std::vector<RankPlace> uneven = {{"a", 0, ""}, {"a", 1, ""}, {"a", 2, ""}, {"b", 0, ""}};
  const auto rounds = sampled_rounds(uneven, 8, 0);
  ASSERT_EQ(rounds.size(), 1u);
  EXPECT_EQ(rounds[0], (Round{{0, 3}}));

  // One host of 4 ranks among 5 of one: its ranks take turns, so more than one is measured.
  std::vector<RankPlace> big = grid(5, 1);
  for (int k = 1; k < 4; ++k) big.push_back({"h0", k, ""});
  std::set<int> measured;
  for (const Round& round : sampled_rounds(big, 8, 1)) {
    for (const RankPair& p : round) {
      for (int r : {p.a, p.b}) {
        if (big[static_cast<std::size_t>(r)].host == "h0") measured.insert(r);
      }
    }
  }
  EXPECT_GE(measured.size(), 3u);

  const auto one_host = sampled_rounds(grid(1, 40), 10, 5);
  ASSERT_EQ(one_host.size(), 10u);
  std::set<std::pair<int, int>> seen;
  for (const Round& round : one_host) {
    EXPECT_EQ(round.size(), 20u);
    for (const RankPair& p : round) EXPECT_TRUE(seen.insert({p.a, p.b}).second);
  }
  EXPECT_TRUE(sampled_rounds(grid(1, 1), 4, 0).empty());
}

// `hosts` hosts of `per_host` ranks under leaves of `per_leaf` hosts each ("s0", "s1", ...).
std::vector<RankPlace> leaves_grid(int hosts, int per_host, int per_leaf) {
  std::vector<RankPlace> places = grid(hosts, per_host);
  for (std::size_t r = 0; r < places.size(); ++r) {
    places[r].leaf = "s" + std::to_string(static_cast<int>(r) / per_host / per_leaf);
  }
  return places;
}

TEST(PairSchedule, WithAFabricRoundsAreInsideLeavesOrAcrossThem) {
  const std::vector<RankPlace> places = leaves_grid(64, 2, 8);  // 8 leaves of 8 hosts
  ASSERT_EQ(inside_leaf_rounds(places, 12), 6);
  const auto rounds = sampled_rounds(places, 12, 9);
  ASSERT_EQ(rounds.size(), 12u);
  int inside = 0;
  std::set<std::pair<std::string, std::string>> inside_links;
  std::map<std::string, std::set<std::string>> met;  // leaf -> the leaves it met across
  for (const Round& round : rounds) {
    ASSERT_FALSE(round.empty());
    std::set<int> busy;
    std::set<bool> kinds;  // a round is all inside or all across
    for (const RankPair& p : round) {
      EXPECT_TRUE(busy.insert(p.a).second && busy.insert(p.b).second) << "a rank twice in a round";
      const RankPlace& x = places[static_cast<std::size_t>(p.a)];
      const RankPlace& y = places[static_cast<std::size_t>(p.b)];
      EXPECT_NE(x.host, y.host);
      EXPECT_EQ(x.local_rank, y.local_rank);
      kinds.insert(x.leaf == y.leaf);
      if (x.leaf == y.leaf && x.local_rank == 0) {
        EXPECT_TRUE(inside_links.insert({x.host, y.host}).second) << "hosts met twice inside a leaf";
      }
      if (x.leaf != y.leaf) {
        met[x.leaf].insert(y.leaf);
        met[y.leaf].insert(x.leaf);
      }
    }
    ASSERT_EQ(kinds.size(), 1u);
    if (*kinds.begin()) {
      ++inside;
      EXPECT_EQ(round.size(), 64u);  // every host of every leaf: 4 pairs per leaf x 2 rails x 8 leaves
    }
  }
  EXPECT_EQ(inside, 6);
  ASSERT_EQ(met.size(), 8u);
  for (const auto& [leaf, others] : met) EXPECT_EQ(others.size(), 6u) << leaf;  // one leaf per round across
  EXPECT_TRUE(rounds.front().size() == 64u) << "the kinds interleave from the first round";
  EXPECT_NE(sampled_rounds(places, 12, 9), sampled_rounds(places, 12, 10));
  EXPECT_EQ(sampled_rounds(places, 12, 9), rounds);
}

TEST(PairSchedule, SmallLeavesAtScaleStillGetPairsInside) {
  // 1,024 hosts under leaves of 4: by chance a leaf would see under one pair inside per pass.
  const std::vector<RankPlace> places = leaves_grid(1024, 1, 4);
  const PairSchedule s = choose_pair_schedule(places);
  ASSERT_TRUE(s.sampled);
  EXPECT_EQ(inside_leaf_rounds(places, s.rounds_per_pass), 3);  // a leaf of 4 has 3 rounds of pairs
  std::map<std::string, int> inside;
  for (const Round& round : pass_rounds(s, places, 0)) {
    for (const RankPair& p : round) {
      const RankPlace& x = places[static_cast<std::size_t>(p.a)];
      if (x.leaf == places[static_cast<std::size_t>(p.b)].leaf) ++inside[x.leaf];
    }
  }
  ASSERT_EQ(inside.size(), 256u);
  for (const auto& [leaf, count] : inside) EXPECT_EQ(count, 6) << leaf;  // every host pair of the leaf
  EXPECT_EQ(inside_leaf_rounds(leaves_grid(1024, 8, 32), 20), 10);
  EXPECT_EQ(inside_leaf_rounds(grid(1024, 8), 20), 0);  // no fabric: random host pairs
}

TEST(PairSchedule, UnevenLeavesAndHostsOutsideTheFabric) {
  // Leaf s0 with 5 hosts, leaf s1 with 2, and 6 hosts the fabric does not know.
  std::vector<RankPlace> places = grid(13, 2);
  for (std::size_t r = 0; r < places.size(); ++r) {
    const int host = static_cast<int>(r) / 2;
    places[r].leaf = host < 5 ? "s0" : host < 7 ? "s1" : "";
  }
  const auto rounds = sampled_rounds(places, 8, 2);
  ASSERT_EQ(rounds.size(), 8u);
  std::set<std::string> measured;
  for (const Round& round : rounds) {
    std::set<int> busy;
    for (const RankPair& p : round) {
      EXPECT_TRUE(busy.insert(p.a).second && busy.insert(p.b).second);
      measured.insert(places[static_cast<std::size_t>(p.a)].host);
      measured.insert(places[static_cast<std::size_t>(p.b)].host);
    }
  }
  EXPECT_EQ(measured.size(), 13u) << "every host in a pair during the pass";
  // One leaf and nothing else is no fabric to choose from: the rounds are the flat ones.
  std::vector<RankPlace> one_leaf = grid(9, 1);
  for (RankPlace& p : one_leaf) p.leaf = "s0";
  EXPECT_EQ(inside_leaf_rounds(one_leaf, 8), 0);
  EXPECT_EQ(sampled_rounds(one_leaf, 8, 4), sampled_rounds(grid(9, 1), 8, 4));
}

TEST(RoundRobin, OneRoundAloneIsThatRoundOfTheWhole) {
  for (int n : {2, 5, 8, 13}) {
    const auto all = round_robin(n);
    for (int r = 0; r < static_cast<int>(all.size()); ++r)
      EXPECT_EQ(round_robin_round(n, r), all[static_cast<std::size_t>(r)]);
    EXPECT_TRUE(round_robin_round(n, static_cast<int>(all.size())).empty());
  }
}

}  // namespace
}  // namespace collbench::engine::locate
