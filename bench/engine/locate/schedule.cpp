#include "bench/engine/locate/schedule.hpp"

#include <algorithm>
#include <cmath>

namespace collbench::engine::locate {

namespace {

// Rounds in the circle method for n ranks: odd n gets a phantom rank, whoever meets it sits
// the round out.
int circle_rounds(int n) { return n < 2 ? 0 : (n % 2 == 0 ? n - 1 : n); }

// splitmix64: a small generator whose sequence is fixed by its seed on every platform.
std::uint64_t next_draw(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// 0..n-1 in an order fixed by the seed (Fisher-Yates).
std::vector<int> shuffled(int n, std::uint64_t seed) {
  std::vector<int> order(static_cast<std::size_t>(std::max(n, 0)));
  for (int i = 0; i < n; ++i) order[static_cast<std::size_t>(i)] = i;
  std::uint64_t state = seed;
  for (std::size_t i = order.size(); i > 1; --i) {
    std::swap(order[i - 1], order[next_draw(state) % i]);
  }
  return order;
}

}  // namespace

Round round_robin_round(int n, int r) {
  Round round;
  if (r < 0 || r >= circle_rounds(n)) return round;
  const int m = n % 2 == 0 ? n : n + 1;
  const int ring = m - 1;  // ranks 0..m-2 turn around a circle, rank m-1 stays put
  const auto add = [&](int x, int y) {
    if (x < n && y < n) round.push_back({std::min(x, y), std::max(x, y)});
  };
  add(r, m - 1);
  for (int k = 1; k < m / 2; ++k) add((r + k) % ring, (r - k + ring) % ring);
  return round;
}

std::vector<Round> round_robin(int n) {
  std::vector<Round> rounds;
  rounds.reserve(static_cast<std::size_t>(circle_rounds(n)));
  for (int r = 0; r < circle_rounds(n); ++r) rounds.push_back(round_robin_round(n, r));
  return rounds;
}

std::vector<Round> relabel(const std::vector<Round>& rounds, int n, int shift) {
  std::vector<Round> out = rounds;
  for (auto& round : out) {
    for (auto& p : round) {
      const int a = (p.a + shift) % n;
      const int b = (p.b + shift) % n;
      p = {std::min(a, b), std::max(a, b)};
    }
  }
  return out;
}

int partner_in(const Round& round, int rank) {
  for (const auto& p : round) {
    if (p.a == rank) return p.b;
    if (p.b == rank) return p.a;
  }
  return -1;
}

const char* to_string(GroupKind kind) { return kind == GroupKind::kHost ? "host" : "rail"; }

std::vector<Group> host_groups(std::span<const RankPlace> places) {
  std::vector<Group> groups;
  for (std::size_t r = 0; r < places.size(); ++r) {
    auto it = std::find_if(groups.begin(), groups.end(), [&](const Group& g) { return g.label == places[r].host; });
    if (it == groups.end()) it = groups.insert(groups.end(), Group{GroupKind::kHost, places[r].host, {}});
    it->ranks.push_back(static_cast<int>(r));
  }
  return groups;
}

std::vector<Group> rail_groups(std::span<const RankPlace> places) {
  std::vector<Group> groups;
  for (std::size_t r = 0; r < places.size(); ++r) {
    const std::string label = "local rank " + std::to_string(places[r].local_rank);
    auto it = std::find_if(groups.begin(), groups.end(), [&](const Group& g) { return g.label == label; });
    if (it == groups.end()) it = groups.insert(groups.end(), Group{GroupKind::kRail, label, {}});
    it->ranks.push_back(static_cast<int>(r));
  }
  std::sort(groups.begin(), groups.end(), [&](const Group& x, const Group& y) {
    return places[static_cast<std::size_t>(x.ranks.front())].local_rank <
           places[static_cast<std::size_t>(y.ranks.front())].local_rank;
  });
  return groups;
}

RingPeers ring_peers(const Group& group, int rank) {
  const auto it = std::find(group.ranks.begin(), group.ranks.end(), rank);
  const auto size = static_cast<std::ptrdiff_t>(group.ranks.size());
  if (it == group.ranks.end() || size < 2) return {};
  const std::ptrdiff_t i = it - group.ranks.begin();
  return {group.ranks[static_cast<std::size_t>((i + 1) % size)],
          group.ranks[static_cast<std::size_t>((i + size - 1) % size)]};
}

std::vector<Group> measurable(std::vector<Group> groups) {
  std::erase_if(groups, [](const Group& g) { return g.ranks.size() < 2; });
  return groups;
}

PairSchedule choose_pair_schedule(std::span<const RankPlace> places) {
  const int n = static_cast<int>(places.size());
  PairSchedule s{.sampled = false, .rounds_per_pass = circle_rounds(n), .every_pair_rounds = circle_rounds(n)};
  if (s.every_pair_rounds <= kMaxExhaustiveRounds) return s;
  // Enough rounds that each host meets several others, growing with log2 of the hosts (the
  // adaptive part is the confirmation of suspects, and the passes the budget holds).
  const int hosts = std::max(1, static_cast<int>(host_groups(places).size()));
  const int units = hosts >= 2 ? hosts : n;  // one host: its ranks are paired instead
  // Two to four hosts have one to three rounds of host pairs: too few pairs per rank to judge
  // it by, so they keep every pair, as many rounds as the budget holds.
  if (units < kMinSampledHosts) return s;
  const int wanted = std::max(8, 2 * static_cast<int>(std::ceil(std::log2(static_cast<double>(units)))));
  s.sampled = true;
  s.rounds_per_pass = std::min(wanted, circle_rounds(units));
  return s;
}

std::vector<Round> pass_rounds(const PairSchedule& schedule, std::span<const RankPlace> places, int pass) {
  const int n = static_cast<int>(places.size());
  if (!schedule.sampled) return relabel(round_robin(n), n, pass);
  return sampled_rounds(places, schedule.rounds_per_pass, static_cast<std::uint64_t>(pass));
}

namespace {

// The units that sampled rounds pair: the hosts, or with one host its ranks, each a unit.
std::vector<Group> sampling_units(std::span<const RankPlace> places) {
  std::vector<Group> hosts = host_groups(places);
  if (hosts.size() < 2) {
    hosts.clear();
    for (int r = 0; r < static_cast<int>(places.size()); ++r) hosts.push_back({GroupKind::kHost, "", {r}});
  }
  return hosts;
}

// The rank pairs of one host pair in round `r`: the k-th rank of one meets the k-th of the
// other. Hosts of unequal size have no rails to align: the larger one's ranks take turns,
// round by round, so that every one of them is measured over a pass.
void add_host_pair(Round& round, const Group* x, const Group* y, int r) {
  if (x->ranks.size() < y->ranks.size()) std::swap(x, y);
  const std::size_t turn = x->ranks.size() == y->ranks.size() ? 0 : static_cast<std::size_t>(r);
  for (std::size_t k = 0; k < y->ranks.size(); ++k) {
    const int a = x->ranks[(k + turn) % x->ranks.size()];
    const int b = y->ranks[k];
    round.push_back({std::min(a, b), std::max(a, b)});
  }
}

void sort_round(Round& round) {
  std::sort(round.begin(), round.end(), [](const RankPair& p, const RankPair& q) { return p.a < q.a; });
}

// The units under each leaf switch (units outside the fabric together, as one more group), in
// order of first appearance. One entry when the places name no leaf, or one leaf only.
std::vector<std::vector<int>> units_by_leaf(std::span<const RankPlace> places, const std::vector<Group>& units) {
  std::vector<std::string> names;
  std::vector<std::vector<int>> leaves;
  for (int u = 0; u < static_cast<int>(units.size()); ++u) {
    const std::string& leaf = places[static_cast<std::size_t>(units[static_cast<std::size_t>(u)].ranks.front())].leaf;
    auto it = std::find(names.begin(), names.end(), leaf);
    if (it == names.end()) {
      names.push_back(leaf);
      leaves.emplace_back();
      it = names.end() - 1;
    }
    leaves[static_cast<std::size_t>(it - names.begin())].push_back(u);
  }
  return leaves;
}

// Rounds of host pairs inside each leaf: round `r` of a round-robin over each leaf's units
// (shuffled), all leaves at once; a leaf with fewer rounds than asked repeats its own.
Round inside_round(const std::vector<Group>& units, const std::vector<std::vector<int>>& leaves, int r) {
  Round round;
  for (const std::vector<int>& leaf : leaves) {
    const int size = static_cast<int>(leaf.size());
    if (size < 2) continue;
    for (const RankPair& hp : round_robin_round(size, r % circle_rounds(size))) {
      add_host_pair(round, &units[static_cast<std::size_t>(leaf[static_cast<std::size_t>(hp.a)])],
                    &units[static_cast<std::size_t>(leaf[static_cast<std::size_t>(hp.b)])], r);
    }
  }
  sort_round(round);
  return round;
}

// A round of host pairs across leaves: round `r` of a round-robin over the leaves (shuffled)
// sets each leaf against one other, and the j-th unit of the smaller side meets the
// (j + r)-th of the other, so that a leaf pair that meets again (few leaves) meets with other
// partners. A leaf left over by an odd count sits the round out.
Round across_round(const std::vector<Group>& units, const std::vector<std::vector<int>>& leaves, int r) {
  Round round;
  const int count = static_cast<int>(leaves.size());
  if (count < 2) return round;
  for (const RankPair& lp : round_robin_round(count, r % circle_rounds(count))) {
    const std::vector<int>* small = &leaves[static_cast<std::size_t>(lp.a)];
    const std::vector<int>* large = &leaves[static_cast<std::size_t>(lp.b)];
    if (small->size() > large->size()) std::swap(small, large);
    for (std::size_t j = 0; j < small->size(); ++j) {
      const int other = (*large)[(j + static_cast<std::size_t>(r)) % large->size()];
      add_host_pair(round, &units[static_cast<std::size_t>((*small)[j])], &units[static_cast<std::size_t>(other)], r);
    }
  }
  sort_round(round);
  return round;
}

// The leaves and each leaf's units in an order fixed by the seed.
std::vector<std::vector<int>> shuffled_leaves(std::vector<std::vector<int>> leaves, std::uint64_t seed) {
  std::uint64_t state = seed;
  for (std::vector<int>& leaf : leaves) {
    const std::vector<int> order = shuffled(static_cast<int>(leaf.size()), next_draw(state));
    std::vector<int> mixed;
    mixed.reserve(leaf.size());
    for (const int i : order) mixed.push_back(leaf[static_cast<std::size_t>(i)]);
    leaf = std::move(mixed);
  }
  const std::vector<int> order = shuffled(static_cast<int>(leaves.size()), next_draw(state));
  std::vector<std::vector<int>> mixed;
  mixed.reserve(leaves.size());
  for (const int i : order) mixed.push_back(std::move(leaves[static_cast<std::size_t>(i)]));
  return mixed;
}

// How many of `count` rounds pair hosts inside their leaves: half, or as many as the largest
// leaf has (a leaf of one host has none).
int inside_rounds(const std::vector<std::vector<int>>& leaves, int count) {
  int most = 0;
  for (const auto& leaf : leaves) most = std::max(most, circle_rounds(static_cast<int>(leaf.size())));
  return std::min(count / 2, most);
}

std::vector<Round> fabric_rounds(const std::vector<Group>& units, const std::vector<std::vector<int>>& by_leaf,
                                 int count, std::uint64_t seed) {
  const std::vector<std::vector<int>> leaves = shuffled_leaves(by_leaf, seed);
  const int inside = inside_rounds(leaves, count);
  std::vector<Round> rounds;
  int taken = 0;  // inside rounds so far; the two kinds alternate in proportion
  for (int i = 0; i < count; ++i) {
    if (taken < inside && taken * count <= i * inside) {
      rounds.push_back(inside_round(units, leaves, taken++));
    } else {
      rounds.push_back(across_round(units, leaves, i - taken));
    }
  }
  return rounds;
}

}  // namespace

int inside_leaf_rounds(std::span<const RankPlace> places, int count) {
  const std::vector<Group> units = sampling_units(places);
  const std::vector<std::vector<int>> leaves = units_by_leaf(places, units);
  return leaves.size() < 2 ? 0 : inside_rounds(leaves, std::min(count, circle_rounds(static_cast<int>(units.size()))));
}

std::vector<Round> sampled_rounds(std::span<const RankPlace> places, int count, std::uint64_t seed) {
  const std::vector<Group> units = sampling_units(places);
  const int n_units = static_cast<int>(units.size());
  count = std::min(count, circle_rounds(n_units));
  const std::vector<std::vector<int>> leaves = units_by_leaf(places, units);
  if (leaves.size() >= 2) return fabric_rounds(units, leaves, count, seed);
  const std::vector<int> order = shuffled(n_units, seed);
  std::vector<Round> rounds;
  for (int r = 0; r < count; ++r) {
    Round round;
    for (const RankPair& hp : round_robin_round(n_units, r)) {
      add_host_pair(round, &units[static_cast<std::size_t>(order[static_cast<std::size_t>(hp.a)])],
                    &units[static_cast<std::size_t>(order[static_cast<std::size_t>(hp.b)])], r);
    }
    sort_round(round);
    rounds.push_back(std::move(round));
  }
  return rounds;
}

std::vector<RingPeers> peers_of(const Round& round, int n) {
  std::vector<RingPeers> peers(static_cast<std::size_t>(n));
  for (const RankPair& p : round) {
    peers[static_cast<std::size_t>(p.a)] = {p.b, p.b};
    peers[static_cast<std::size_t>(p.b)] = {p.a, p.a};
  }
  return peers;
}

std::vector<RingPeers> peers_of(std::span<const Group> groups, int n) {
  std::vector<RingPeers> peers(static_cast<std::size_t>(n));
  for (const Group& g : groups) {
    for (const int r : g.ranks) {
      const RingPeers p = ring_peers(g, r);
      if (p.send >= 0) peers[static_cast<std::size_t>(r)] = p;
    }
  }
  return peers;
}

}  // namespace collbench::engine::locate
