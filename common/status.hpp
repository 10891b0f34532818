// Errors as values: Status carries a code, a one-line message and where it was raised.
// Only the top level prints a Status and turns it into an exit code (common/exit_code.hpp).
#pragma once

#include <cassert>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "common/source_location.hpp"

namespace collbench {

enum class ErrorCode {
  kOk = 0,
  kInternal,          // a bug in collbench
  kUsage,             // bad command line or input value
  kComm,              // the communication library (MPI, NCCL, CUDA) failed
  kTimeout,           // a collective, barrier or rendezvous did not finish in time
  kUnsupported,       // the build or the machine cannot do what was asked
  kInterrupted,       // SIGINT/SIGTERM
  kWrongData,         // the collective produced wrong elements
  kLaunch,            // ranks could not find each other (launcher, rendezvous)
  kIo,                // a file could not be read or written
  kRegression,        // compare found a slower result
  kMismatch,          // hosts that should be identical are not (topology acceptance)
  kOutlier,           // locate found a host, rank or pair far slower than the rest
  kBelowExpectation,  // a result fell short of what was expected (--expect, NCCL_TESTS_MIN_BW)
};

std::string_view error_code_name(ErrorCode code);

class [[nodiscard]] Status {
 public:
  Status() = default;

  static Status error(ErrorCode code, std::string message, SourceLocation where = SourceLocation::current());

  bool ok() const { return code_ == ErrorCode::kOk; }
  ErrorCode code() const { return code_; }
  const std::string& message() const { return message_; }
  // "file.cpp:123", relative to the repository root; empty for OK.
  const std::string& where() const { return where_; }

  // Prefixes the message with context ("while X: <message>"), keeping code and origin.
  Status with_context(std::string_view context) &&;
  Status with_context(std::string_view context) const&;

 private:
  ErrorCode code_ = ErrorCode::kOk;
  std::string message_;
  std::string where_;
};

inline Status ok_status() { return Status(); }

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}         // NOLINT(google-explicit-constructor)
  Result(Status status) : status_(std::move(status)) {  // NOLINT(google-explicit-constructor)
    assert(!status_.ok() && "a Result is built from a value or from an error");
  }

  bool ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }

  T& value() & { return *value_; }
  const T& value() const& { return *value_; }
  T&& value() && { return std::move(*value_); }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }
  T& operator*() & { return *value_; }
  const T& operator*() const& { return *value_; }

 private:
  std::optional<T> value_;
  Status status_;
};

}  // namespace collbench

#define COLLBENCH_CONCAT_INNER(a, b) a##b
#define COLLBENCH_CONCAT(a, b) COLLBENCH_CONCAT_INNER(a, b)

// Returns the Status of `expr` from the enclosing function when it is an error.
#define COLLBENCH_RETURN_IF_ERROR(expr)                    \
  do {                                                     \
    ::collbench::Status collbench_status_ = (expr);        \
    if (!collbench_status_.ok()) return collbench_status_; \
  } while (false)

// `lhs = value of expr`, or returns its error from the enclosing function.
#define COLLBENCH_ASSIGN_OR_RETURN(lhs, expr) \
  COLLBENCH_ASSIGN_OR_RETURN_IMPL(COLLBENCH_CONCAT(collbench_result_, __LINE__), lhs, expr)
// NOLINTBEGIN(bugprone-macro-parentheses): tmp names a variable and lhs may be a declaration ("const auto x")
#define COLLBENCH_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                                    \
  if (!tmp.ok()) return tmp.status();                   \
  lhs = std::move(tmp).value()
// NOLINTEND(bugprone-macro-parentheses)
