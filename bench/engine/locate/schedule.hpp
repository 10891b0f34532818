// Who measures with whom: the rounds of disjoint pairs of the pair phase, and the split
// groups (hosts, rails) of the group phase. Pure functions of the rank count and placement.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace collbench::engine::locate {

struct RankPair {
  int a = 0;  // a < b
  int b = 0;
  friend bool operator==(const RankPair&, const RankPair&) = default;
};
using Round = std::vector<RankPair>;

// Rounds of disjoint pairs in which every pair of n ranks meets exactly once (the circle
// method of round-robin tournaments): n - 1 rounds for even n; n rounds for odd n, each
// leaving one rank out. Empty for n < 2.
std::vector<Round> round_robin(int n);

// The same rounds with every rank r renamed (r + shift) mod n (shift >= 0): still every pair
// once, but most pairs now run beside other pairs, so that a repeated pass does not simply
// repeat the contention of the first (with 4 ranks no schedule can: there are only 3 rounds).
std::vector<Round> relabel(const std::vector<Round>& rounds, int n, int shift);

// Round `r` (0 <= r < rounds) of round_robin(n) alone, without making the others.
Round round_robin_round(int n, int r);

// The partner of `rank` in `round`, or -1 when it sits the round out.
int partner_in(const Round& round, int rank);

// Where a rank runs, as the verdict names it.
struct RankPlace {
  std::string host;
  int local_rank = 0;
  std::string leaf;  // the switch its host is cabled to (locate --fabric); empty when unknown
};

enum class GroupKind { kHost, kRail };
const char* to_string(GroupKind kind);  // "host", "rail"

struct Group {
  GroupKind kind = GroupKind::kHost;
  std::string label;       // the host name, or "local rank 3"
  std::vector<int> ranks;  // ascending
};

// All ranks of each host, hosts in order of first appearance.
std::vector<Group> host_groups(std::span<const RankPlace> places);
// The ranks with the same local rank on every host ("rails": GPU k and its NIC on each host),
// by local rank.
std::vector<Group> rail_groups(std::span<const RankPlace> places);

// A ring over a group's ranks: whom `rank` sends to and receives from. -1 for both when the
// rank is not a member or the group has one rank; a group of two exchanges with one peer.
struct RingPeers {
  int send = -1;
  int recv = -1;
};
RingPeers ring_peers(const Group& group, int rank);

// Whom every rank exchanges with in one round of pairs, or in rings over groups (a rank in
// several groups takes its ring in the last): one entry per rank of an `n`-rank job, send and
// receive -1 for a rank that sits out.
std::vector<RingPeers> peers_of(const Round& round, int n);
std::vector<RingPeers> peers_of(std::span<const Group> groups, int n);

// The groups of one kind that a ring can measure (two ranks or more).
std::vector<Group> measurable(std::vector<Group> groups);

// Whom the pair phase sets against whom. Up to kMaxExhaustiveRounds rounds every pair meets
// (round_robin); a larger job would need N - 1 rounds for N ranks (8,191 at 1,024 hosts x 8),
// so with kMinSampledHosts hosts or more (or one host) it samples: each pass is
// `rounds_per_pass` rounds of random host pairs (sampled_rounds), a fresh draw per pass. A slow
// host is then in all of its pairs and each of its partners in one of theirs, which is what the
// verdict's upper quartile per rank and median per link need.
constexpr int kMaxExhaustiveRounds = 31;
constexpr int kMinSampledHosts = 5;  // fewer hosts (but not one) keep every pair
struct PairSchedule {
  bool sampled = false;
  int rounds_per_pass = 0;    // what one pass measures
  int every_pair_rounds = 0;  // what meeting every pair would take (round_robin)
};
PairSchedule choose_pair_schedule(std::span<const RankPlace> places);

// The rounds of pass `pass` (0, 1, ...): round_robin relabelled by `pass`, or a fresh sample.
std::vector<Round> pass_rounds(const PairSchedule& schedule, std::span<const RankPlace> places, int pass);

// Sampled rounds: `count` rounds of a round-robin over the hosts, the hosts first shuffled
// by a generator seeded with `seed` (the same on every rank), so that a host never meets the
// same host twice in one pass. In each host pair the k-th rank of one host meets the k-th of
// the other (rail-aligned, as cross-host traffic runs); between hosts of unequal size the
// larger one's ranks take turns round by round, the rest sit the round out, as does a host
// left over by an odd count. With one host, the ranks are shuffled
// and paired instead. At most as many rounds as there are (hosts - 1, or hosts when odd).
//
// When the places name two leaf switches or more (locate --fabric; hosts outside the fabric
// count as one more leaf), the rounds are chosen from the fabric instead of by chance, as
// the "switch uplinks" comparison needs pairs on both sides of every leaf's uplink: up to
// half of them pair hosts inside each leaf (a round of a round-robin within every leaf at
// once; inside_leaf_rounds says how many), the others set every leaf against another one
// (a round-robin over the leaves) and pair their hosts across the uplinks, the two kinds
// interleaved. Leaves and hosts are shuffled by the seed. Hosts meet again within a pass
// only when their leaf has fewer inside rounds than asked, or when few leaves meet again.
std::vector<Round> sampled_rounds(std::span<const RankPlace> places, int count, std::uint64_t seed);
// How many of sampled_rounds' `count` rounds pair hosts inside their leaves (0 without two
// leaves): half, or fewer when the largest leaf has fewer rounds of pairs.
int inside_leaf_rounds(std::span<const RankPlace> places, int count);

}  // namespace collbench::engine::locate
