#include "bench/bootstrap/single.hpp"

#include <cstdlib>
#include <cstring>
#include <memory>

#include "bench/bootstrap/bootstrap_entry.hpp"

namespace collbench::bootstrap {

Status SingleBootstrap::allgather(std::span<const std::byte> mine, std::span<std::byte> all) {
  if (all.size() != mine.size()) return Status::error(ErrorCode::kInternal, "allgather: receive size mismatch");
  if (!mine.empty()) std::memcpy(all.data(), mine.data(), mine.size());
  return ok_status();
}

void SingleBootstrap::abort(int exit_code) { std::_Exit(exit_code); }

const BootstrapEntry& single_bootstrap_entry() {
  static const BootstrapEntry entry{"single", "one rank, no launcher (auto: when no launcher variable is set)",
                                    [](const BootstrapSetup&) -> Result<std::unique_ptr<Bootstrap>> {
                                      return std::unique_ptr<Bootstrap>(std::make_unique<SingleBootstrap>());
                                    }};
  return entry;
}

}  // namespace collbench::bootstrap
