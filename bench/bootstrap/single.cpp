#include "bench/bootstrap/single.hpp"

#include <cstdlib>
#include <cstring>

namespace collbench::bootstrap {

Status SingleBootstrap::allgather(std::span<const std::byte> mine, std::span<std::byte> all) {
  if (all.size() != mine.size()) return Status::error(ErrorCode::kInternal, "allgather: receive size mismatch");
  if (!mine.empty()) std::memcpy(all.data(), mine.data(), mine.size());
  return ok_status();
}

void SingleBootstrap::abort(int exit_code) { std::_Exit(exit_code); }

}  // namespace collbench::bootstrap
