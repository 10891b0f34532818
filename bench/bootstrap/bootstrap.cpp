#include "bench/bootstrap/bootstrap.hpp"

#include <array>
#include <cstdint>
#include <cstring>

namespace collbench::bootstrap {

Result<std::vector<std::string>> allgather_strings(Bootstrap& boot, std::string_view mine) {
  const auto n = static_cast<std::size_t>(boot.size());
  std::array<double, 1> longest = {static_cast<double>(mine.size())};
  COLLBENCH_RETURN_IF_ERROR(boot.allreduce(longest, ReduceOp::kMax));
  const auto width = static_cast<std::size_t>(longest[0]) + sizeof(std::uint64_t);

  std::vector<std::byte> slot(width);
  const std::uint64_t length = mine.size();
  std::memcpy(slot.data(), &length, sizeof length);
  std::memcpy(slot.data() + sizeof length, mine.data(), mine.size());
  std::vector<std::byte> all(width * n);
  COLLBENCH_RETURN_IF_ERROR(boot.allgather(slot, all));

  std::vector<std::string> out(n);
  for (std::size_t r = 0; r < n; ++r) {
    const std::byte* p = all.data() + r * width;
    std::uint64_t len = 0;
    std::memcpy(&len, p, sizeof len);
    if (len > width - sizeof len) return Status::error(ErrorCode::kInternal, "corrupt allgather_strings slot");
    out[r].assign(reinterpret_cast<const char*>(p + sizeof len), len);
  }
  return out;
}

Result<std::string> broadcast_string(Bootstrap& boot, std::string value) {
  std::array<double, 1> length = {boot.rank() == 0 ? static_cast<double>(value.size()) : 0.0};
  COLLBENCH_RETURN_IF_ERROR(boot.allreduce(length, ReduceOp::kMax));
  value.resize(static_cast<std::size_t>(length[0]));
  COLLBENCH_RETURN_IF_ERROR(boot.broadcast(std::as_writable_bytes(std::span(value.data(), value.size())), 0));
  return value;
}

}  // namespace collbench::bootstrap
