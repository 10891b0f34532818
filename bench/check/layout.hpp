// Where each element of a rank's output comes from, per collective (its traits' Layout): a few
// contiguous segments, each either the reduction of all inputs or a copy of one rank's input.
// The checkers walk segments, so their inner loops have no per-element division. Host code:
// the device checker computes segments on the host and hands each to a kernel.
#pragma once

#include <cstdint>

#include "bench/coll/collective.hpp"

namespace collbench::check {

struct Segment {
  enum class Source : std::uint8_t { kReduced, kInput } source = Source::kReduced;
  int src_rank = 0;             // for kInput
  std::uint64_t out_begin = 0;  // first element in the receive buffer
  std::uint64_t length = 0;
  std::uint64_t src_begin = 0;  // first index in the source's input (or reduction)
};

struct LayoutSpec {
  coll::Collective collective{};
  int nranks = 0;
  int root = 0;
  std::uint64_t param = 0;  // Counts::param: the per-rank block for partitioned collectives
  std::uint64_t recv = 0;   // Counts::recv
  coll::PeerCounts peers;   // Counts::peers: per-peer blocks (alltoallv)
};

// Number of segments in rank `rank`'s output (0 when its receive buffer holds nothing defined).
int segment_count(const LayoutSpec& s, int rank);

// Segment `index` of rank `rank`'s output, index < segment_count(s, rank).
Segment segment_at(const LayoutSpec& s, int rank, int index);

}  // namespace collbench::check
