#include "bench/cli/expect_file.hpp"

#include "common/file_io.hpp"
#include "report/documents/expect_json.hpp"

namespace collbench::cli {
namespace {

// The file is small; a larger one is surely not an expectations file.
constexpr std::uint64_t kMaxExpectBytes = std::uint64_t{1} << 20;

}  // namespace

Result<std::vector<report::Expectation>> agree_expectations(bootstrap::Bootstrap& boot, const std::string& path) {
  if (path.empty()) return std::vector<report::Expectation>();
  std::string shared;
  if (boot.rank() == 0) {
    auto text = read_text_file(path, kMaxExpectBytes);
    shared = text.ok() ? "ok:" + *text : "error:" + text.status().message();
  }
  COLLBENCH_ASSIGN_OR_RETURN(shared, bootstrap::broadcast_string(boot, shared));
  if (shared.rfind("ok:", 0) != 0) return Status::error(ErrorCode::kUsage, "--expect: " + shared.substr(6));
  auto expectations = report::parse_expectations(std::string_view(shared).substr(3));
  if (!expectations.ok()) {
    return Status::error(ErrorCode::kUsage, "--expect " + path + ": " + expectations.status().message());
  }
  return std::move(expectations).value();
}

}  // namespace collbench::cli
