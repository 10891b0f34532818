#include "topo/index_set.hpp"

#include <algorithm>
#include <iterator>

#include "common/strings.hpp"
#include "common/units.hpp"

namespace collbench::topo {
namespace {

Result<std::uint32_t> parse_index(std::string_view text, std::string_view whole) {
  auto value = parse_uint(trim(text), IndexSet::kMaxIndex);
  if (!value.ok()) {
    return Status::error(ErrorCode::kUsage,
                         "bad index '" + std::string(text) + "' in list '" + std::string(whole) + "'");
  }
  return static_cast<std::uint32_t>(*value);
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

IndexSet::IndexSet(std::vector<std::uint32_t> indices) : indices_(std::move(indices)) {
  std::sort(indices_.begin(), indices_.end());
  indices_.erase(std::unique(indices_.begin(), indices_.end()), indices_.end());
}

Result<IndexSet> IndexSet::from_list(std::string_view text) {
  std::vector<std::uint32_t> out;
  if (trim(text).empty()) return IndexSet();
  for (std::string_view part : split(text, ',')) {
    const auto dash = part.find('-');
    COLLBENCH_ASSIGN_OR_RETURN(const std::uint32_t first, parse_index(part.substr(0, dash), text));
    std::uint32_t last = first;
    if (dash != std::string_view::npos) {
      COLLBENCH_ASSIGN_OR_RETURN(last, parse_index(part.substr(dash + 1), text));
    }
    if (last < first) {
      return Status::error(ErrorCode::kUsage, "descending range '" + std::string(part) + "'");
    }
    if (out.size() + (last - first) > kMaxIndex) {
      return Status::error(ErrorCode::kUsage, "list '" + std::string(text) + "' is too long");
    }
    for (std::uint32_t i = first; i <= last; ++i) out.push_back(i);
  }
  return IndexSet(std::move(out));
}

Result<IndexSet> IndexSet::from_mask(std::string_view text) {
  const std::vector<std::string_view> words = split(trim(text), ',');
  if (words.size() * 32 > kMaxIndex) return Status::error(ErrorCode::kUsage, "CPU mask too long");
  std::vector<std::uint32_t> out;
  std::uint32_t base = 0;
  for (auto it = words.rbegin(); it != words.rend(); ++it, base += 32) {
    std::string_view word = trim(*it);
    if (starts_with(word, "0x") || starts_with(word, "0X")) word.remove_prefix(2);
    if (word.empty() || word.size() > 8) {
      return Status::error(ErrorCode::kUsage,
                           "bad mask word '" + std::string(*it) + "' in '" + std::string(text) + "'");
    }
    std::uint32_t bits = 0;
    for (char c : word) {
      const int d = hex_digit(c);
      if (d < 0) return Status::error(ErrorCode::kUsage, "bad hex digit in mask '" + std::string(text) + "'");
      bits = (bits << 4) | static_cast<std::uint32_t>(d);
    }
    for (std::uint32_t bit = 0; bit < 32; ++bit) {
      if ((bits >> bit) & 1u) out.push_back(base + bit);
    }
  }
  return IndexSet(std::move(out));
}

std::string IndexSet::to_list() const {
  std::string out;
  for (std::size_t i = 0; i < indices_.size();) {
    std::size_t j = i;
    while (j + 1 < indices_.size() && indices_[j + 1] == indices_[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += std::to_string(indices_[i]);
    if (j > i) out += "-" + std::to_string(indices_[j]);
    i = j + 1;
  }
  return out;
}

std::vector<bool> IndexSet::to_bitset() const {
  std::vector<bool> bits(indices_.empty() ? 0 : indices_.back() + 1, false);
  for (std::uint32_t i : indices_) bits[i] = true;
  return bits;
}

bool IndexSet::contains(std::uint32_t index) const {
  return std::binary_search(indices_.begin(), indices_.end(), index);
}

bool IndexSet::intersects(const IndexSet& other) const { return !intersection(other).empty(); }

IndexSet IndexSet::intersection(const IndexSet& other) const {
  IndexSet out;
  std::set_intersection(indices_.begin(), indices_.end(), other.indices_.begin(), other.indices_.end(),
                        std::back_inserter(out.indices_));
  return out;
}

IndexSet IndexSet::union_with(const IndexSet& other) const {
  IndexSet out;
  std::set_union(indices_.begin(), indices_.end(), other.indices_.begin(), other.indices_.end(),
                 std::back_inserter(out.indices_));
  return out;
}

}  // namespace collbench::topo
