#include "bench/engine/locate/schedule.hpp"

#include <algorithm>

namespace collbench::engine::locate {

std::vector<Round> round_robin(int n) {
  std::vector<Round> rounds;
  if (n < 2) return rounds;
  // Odd n gets a phantom rank; whoever meets it sits the round out.
  const int m = n % 2 == 0 ? n : n + 1;
  const int ring = m - 1;  // ranks 0..m-2 turn around a circle, rank m-1 stays put
  for (int r = 0; r < ring; ++r) {
    Round round;
    const auto add = [&](int x, int y) {
      if (x < n && y < n) round.push_back({std::min(x, y), std::max(x, y)});
    };
    add(r, m - 1);
    for (int k = 1; k < m / 2; ++k) add((r + k) % ring, (r - k + ring) % ring);
    rounds.push_back(std::move(round));
  }
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
