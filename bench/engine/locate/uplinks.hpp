// The inter-host pairs of each leaf switch (locate --fabric), inside the leaf and across it:
// what the verdict's "switch uplinks" comparison judges (verdict.cpp, docs/locate.md). Pure.
//
// A leaf's figure is its uplink share: the upper quartile of its pairs across the leaf over
// the median of its pairs inside it. A pair runs at the pace of the slowest thing on its path,
// so a slow uplink slows every pair across its leaf and none inside it, while a slow host
// slows its pairs on both sides alike and leaves the share as it was. The upper quartile
// keeps the share of a healthy leaf high when some of its partners sit under a slow uplink;
// dividing by the leaf's own inside pairs keeps a fabric that is slower across by design
// (oversubscribed spines) alike for every leaf.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "bench/engine/locate/verdict.hpp"

namespace collbench::engine::locate {

struct LeafPairs {
  std::string leaf;
  std::vector<int> ranks;           // ranks on hosts under it, ascending
  std::vector<std::string> hosts;   // in rank order
  std::vector<double> inside_gbps;  // inter-host pairs with both ends under it
  std::vector<double> across_gbps;  // inter-host pairs with one end under it, the other under another leaf
};

// One per leaf that holds a rank, in order of its first rank; pairs touching a rank in `named`
// or a rank outside the fabric are left out.
std::vector<LeafPairs> leaf_pairs(const Measurements& m, const std::set<int>& named);

// Whether a pair went through the uplink of a leaf in `leaves`: its ends under different
// switches (or one outside the fabric), one of them in `leaves`.
bool through_uplink(const Measurements& m, const report::LocatePair& p, const std::set<std::string>& leaves);

// Measurements without the pairs that went through those uplinks: what the rank and link
// comparisons judge once an uplink explains them.
Measurements without_uplink_pairs(const Measurements& m, const std::set<std::string>& leaves);

}  // namespace collbench::engine::locate
