#include "bench/cli/wiring/output_path.hpp"

#include "report/documents/atomic_file.hpp"

namespace collbench::cli {

Result<std::string> agree_output_path(bootstrap::Bootstrap& boot, const std::string& requested, bool force) {
  if (requested.empty()) return std::string();
  std::string decision;
  if (boot.rank() == 0) {
    auto path = report::choose_output_path(requested, force);
    Status writable = path.ok() ? report::check_writable(*path) : path.status();
    decision = writable.ok() ? "ok:" + *path : "error:" + writable.message();
  }
  COLLBENCH_ASSIGN_OR_RETURN(decision, bootstrap::broadcast_string(boot, decision));
  if (decision.rfind("ok:", 0) == 0) return decision.substr(3);
  return Status::error(ErrorCode::kUsage, "-J/--output_file " + requested + ": " + decision.substr(6));
}

Result<std::string> agree_nccl_tests_json_path(bootstrap::Bootstrap& boot, const std::string& requested, bool force,
                                               const std::string& flag) {
  if (requested.empty()) return std::string();
  std::string decision;
  if (boot.rank() == 0) {
    auto path = report::choose_nccl_tests_output_path(requested, force);
    Status writable = path.ok() ? report::check_writable(*path) : path.status();
    decision = writable.ok() ? "ok:" + *path : "error:" + writable.message();
  }
  COLLBENCH_ASSIGN_OR_RETURN(decision, bootstrap::broadcast_string(boot, decision));
  if (decision.rfind("ok:", 0) == 0) return decision.substr(3);
  return Status::error(ErrorCode::kUsage, flag + " " + requested + ": " + decision.substr(6));
}

Result<std::string> agree_metrics_path(bootstrap::Bootstrap& boot, const std::string& requested) {
  if (requested.empty()) return std::string();
  std::string decision;
  if (boot.rank() == 0) {
    const Status writable = report::check_writable(requested);
    decision = writable.ok() ? "ok:" + requested : "error:" + writable.message();
  }
  COLLBENCH_ASSIGN_OR_RETURN(decision, bootstrap::broadcast_string(boot, decision));
  if (decision.rfind("ok:", 0) == 0) return decision.substr(3);
  return Status::error(ErrorCode::kUsage, "--metrics " + requested + ": " + decision.substr(6));
}

}  // namespace collbench::cli
