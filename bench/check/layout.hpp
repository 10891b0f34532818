// Where each element of a rank's output comes from, per collective: a few contiguous
// segments, each either the reduction of all inputs or a copy of one rank's input. The
// checker walks segments, so its inner loops have no per-element division.
#pragma once

#include <cstdint>

#include "bench/check/hd.hpp"
#include "bench/coll/collective.hpp"

namespace collbench::check {

struct Segment {
  enum class Source : std::uint8_t { kReduced, kInput } source = Source::kReduced;
  int src_rank = 0;                // for kInput
  std::uint64_t out_begin = 0;     // first element in the receive buffer
  std::uint64_t length = 0;
  std::uint64_t src_begin = 0;     // first index in the source's input (or reduction)
};

struct LayoutSpec {
  coll::Collective collective;
  int nranks;
  int root;
  std::uint64_t param;  // Counts::param: the per-rank block for partitioned collectives
  std::uint64_t recv;   // Counts::recv
};

// Number of segments in rank `rank`'s output (0 when its receive buffer holds nothing defined).
COLLBENCH_HD int segment_count(const LayoutSpec& s, int rank) {
  using coll::Collective;
  switch (s.collective) {
    case Collective::kAllGather:
    case Collective::kHypercube:
    case Collective::kAllToAll: return s.nranks;
    case Collective::kGather: return rank == s.root ? s.nranks : 0;
    case Collective::kReduce: return rank == s.root ? 1 : 0;
    default: return 1;
  }
}

COLLBENCH_HD Segment segment_at(const LayoutSpec& s, int rank, int index) {
  using coll::Collective;
  const auto r = static_cast<std::uint64_t>(rank);
  const auto q = static_cast<std::uint64_t>(index);
  const Segment::Source kIn = Segment::Source::kInput;
  switch (s.collective) {
    case Collective::kAllReduce:
    case Collective::kReduce: return {Segment::Source::kReduced, 0, 0, s.recv, 0};
    case Collective::kReduceScatter: return {Segment::Source::kReduced, 0, 0, s.recv, r * s.param};
    case Collective::kBroadcast: return {kIn, s.root, 0, s.recv, 0};
    case Collective::kSendRecv: return {kIn, (rank + s.nranks - 1) % s.nranks, 0, s.recv, 0};
    case Collective::kScatter: return {kIn, s.root, 0, s.recv, r * s.param};
    case Collective::kAllToAll: return {kIn, index, q * s.param, s.param, r * s.param};
    case Collective::kAllGather:
    case Collective::kHypercube:
    case Collective::kGather: return {kIn, index, q * s.param, s.param, 0};
  }
  return {Segment::Source::kReduced, 0, 0, 0, 0};
}

}  // namespace collbench::check
