#include "bench/cli/wiring/expect_file.hpp"

#include <algorithm>
#include <filesystem>

#include "common/file_io.hpp"
#include "report/documents/expect_json.hpp"
#include "report/references.hpp"

namespace collbench::cli {
namespace {

// The file is small; a larger one is surely not an expectations file.
constexpr std::uint64_t kMaxExpectBytes = std::uint64_t{1} << 20;

// A path names a file; a bare word ("auto", "h200-8x:85") a published reference.
bool names_reference(const std::string& spec) {
  std::error_code ec;
  return spec.find('/') == std::string::npos && spec.find(".json") == std::string::npos &&
         !std::filesystem::exists(spec, ec);
}

Result<std::vector<report::Expectation>> from_reference(bootstrap::Bootstrap& boot, const std::string& spec,
                                                        const std::string& device_name, const std::string& host) {
  COLLBENCH_ASSIGN_OR_RETURN(const report::ReferenceChoice choice, report::parse_reference_choice(spec));
  // Every rank takes part, and every rank gets the same lists: they all decide alike.
  COLLBENCH_ASSIGN_OR_RETURN(const auto devices, bootstrap::allgather_strings(boot, device_name));
  COLLBENCH_ASSIGN_OR_RETURN(const auto hosts, bootstrap::allgather_strings(boot, host));
  std::vector<std::string> distinct = hosts;
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  const report::PublishedReference* reference = nullptr;
  if (choice.name == "auto") {
    reference = report::match_reference(devices, static_cast<int>(distinct.size()));
    if (reference == nullptr) {
      return Status::error(ErrorCode::kUsage, "--expect auto: no published reference matches this job (" +
                                                  std::to_string(devices.size()) + " ranks on " +
                                                  std::to_string(distinct.size()) + " host(s), rank 0 on " +
                                                  devices.front() + "); references: auto, " +
                                                  report::reference_names() + " (docs/health.md); or give a file");
    }
  } else {
    reference = report::find_reference(choice.name);
    if (reference == nullptr) {
      return Status::error(ErrorCode::kUsage, "--expect " + spec +
                                                  ": no such file, and no published reference of that "
                                                  "name (references: auto, " +
                                                  report::reference_names() + ")");
    }
  }
  return report::expectations_from(*reference, choice.percent);
}

}  // namespace

Result<std::vector<report::Expectation>> agree_expectations(bootstrap::Bootstrap& boot, const std::string& spec,
                                                            const std::string& device_name, const std::string& host) {
  if (spec.empty()) return std::vector<report::Expectation>();
  std::string shared;
  if (boot.rank() == 0) {
    if (names_reference(spec)) {
      shared = "reference:";
    } else {
      auto text = read_text_file(spec, kMaxExpectBytes);
      shared = text.ok() ? "ok:" + *text : "error:" + text.status().message();
    }
  }
  COLLBENCH_ASSIGN_OR_RETURN(shared, bootstrap::broadcast_string(boot, shared));
  if (shared == "reference:") return from_reference(boot, spec, device_name, host);
  if (shared.rfind("ok:", 0) != 0) return Status::error(ErrorCode::kUsage, "--expect: " + shared.substr(6));
  auto expectations = report::parse_expectations(std::string_view(shared).substr(3));
  if (!expectations.ok()) {
    return Status::error(ErrorCode::kUsage, "--expect " + spec + ": " + expectations.status().message());
  }
  return std::move(expectations).value();
}

}  // namespace collbench::cli
