#include "bench/cli/wiring/error_line.hpp"

#include <iostream>

#include "common/exit_code.hpp"

namespace collbench::cli {

int report_error(const Status& status, const std::string& who) {
  const bool regression = status.code() == ErrorCode::kRegression;
  std::string line = "collbench: " + who + (who.empty() ? "" : ": ") + (regression ? "regression: " : "error: ") +
                     status.message();
  // Where the error was raised helps with bugs and library failures, not with verdicts.
  const bool located = status.code() == ErrorCode::kInternal || status.code() == ErrorCode::kComm;
  if (located && !status.where().empty()) line += " [" + status.where() + "]";
  std::cerr << line << std::endl;
  return static_cast<int>(exit_code_for(status));
}

int print_result(const CommandResult& result) {
  if (result.status.ok()) return 0;
  if (!result.printable || result.printed) return static_cast<int>(exit_code_for(result.status));
  // A usage error is the same on every rank and only rank 0 prints it: no rank prefix.
  if (result.status.code() == ErrorCode::kUsage || result.nranks <= 1) return report_error(result.status, "");
  return report_error(result.status, "rank " + std::to_string(result.rank) + " on " + result.host);
}

CommandResult speak_then_leave(bootstrap::Bootstrap& boot, CommandResult result) {
  if (boot.size() <= 1) return result;
  if (!result.status.ok() && result.printable) {
    (void)print_result(result);
    result.printed = true;
  }
  // A rank that cannot reach the others has nothing to wait for.
  (void)boot.barrier();
  return result;
}

}  // namespace collbench::cli
