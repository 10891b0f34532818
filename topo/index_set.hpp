// A set of small non-negative indices (CPUs, NUMA nodes), kept sorted. Written as a Linux list
// ("0-3,8") for people and tools such as numactl and mpirun --cpu-set.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.hpp"

namespace collbench::topo {

class IndexSet {
 public:
  // The largest index accepted from text: bounds the memory a malformed input can claim.
  static constexpr std::uint32_t kMaxIndex = 1u << 20;

  IndexSet() = default;
  // Any order, duplicates allowed.
  explicit IndexSet(std::vector<std::uint32_t> indices);

  // "0-3,8,10-11"; empty text is the empty set.
  static Result<IndexSet> from_list(std::string_view text);
  // Comma-separated 32-bit hex words, most significant first, as in NCCL's "affinity" and the
  // kernel's cpumap ("00000000,0000ffff,ffffffff"); an optional "0x" per word is accepted.
  static Result<IndexSet> from_mask(std::string_view text);

  std::string to_list() const;
  // bit i set when index i is in the set; size is largest index + 1.
  std::vector<bool> to_bitset() const;
  const std::vector<std::uint32_t>& indices() const { return indices_; }

  bool empty() const { return indices_.empty(); }
  std::size_t size() const { return indices_.size(); }
  bool contains(std::uint32_t index) const;
  bool intersects(const IndexSet& other) const;
  IndexSet intersection(const IndexSet& other) const;
  IndexSet union_with(const IndexSet& other) const;

  friend bool operator==(const IndexSet&, const IndexSet&) = default;

 private:
  std::vector<std::uint32_t> indices_;
};

}  // namespace collbench::topo
