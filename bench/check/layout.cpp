#include "bench/check/layout.hpp"

namespace collbench::check {

using coll::Layout;

int segment_count(const LayoutSpec& s, int rank) {
  switch (coll::traits(s.collective).layout) {
    case Layout::kReduced:
    case Layout::kReducedBlock:
    case Layout::kRootInput:
    case Layout::kPreviousInput:
    case Layout::kRootBlock: return 1;
    case Layout::kRootReduced: return rank == s.root ? 1 : 0;
    case Layout::kEveryInput:
    case Layout::kBlockOfEach:
    case Layout::kPeerBlockOfEach: return s.nranks;
    case Layout::kRootEveryInput: return rank == s.root ? s.nranks : 0;
  }
  return 0;
}

Segment segment_at(const LayoutSpec& s, int rank, int index) {
  const auto r = static_cast<std::uint64_t>(rank);
  const auto q = static_cast<std::uint64_t>(index);
  constexpr Segment::Source kIn = Segment::Source::kInput;
  constexpr Segment::Source kReduced = Segment::Source::kReduced;
  switch (coll::traits(s.collective).layout) {
    case Layout::kReduced:
    case Layout::kRootReduced: return {kReduced, 0, 0, s.recv, 0};
    case Layout::kReducedBlock: return {kReduced, 0, 0, s.recv, r * s.param};
    case Layout::kRootInput: return {kIn, s.root, 0, s.recv, 0};
    case Layout::kPreviousInput: return {kIn, (rank + s.nranks - 1) % s.nranks, 0, s.recv, 0};
    case Layout::kRootBlock: return {kIn, s.root, 0, s.recv, r * s.param};
    case Layout::kBlockOfEach: return {kIn, index, q * s.param, s.param, r * s.param};
    case Layout::kEveryInput:
    case Layout::kRootEveryInput: return {kIn, index, q * s.param, s.param, 0};
    case Layout::kPeerBlockOfEach:
      // Block `index` comes from rank `index`: what it sends this rank, taken from where this
      // rank's block sits in its packed send buffer.
      return {kIn, index, coll::recv_offset(s.peers, rank, index), coll::peer_count(s.peers, index, rank),
              coll::send_offset(s.peers, index, rank)};
  }
  return {kReduced, 0, 0, 0, 0};
}

}  // namespace collbench::check
