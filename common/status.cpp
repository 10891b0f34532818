#include "common/status.hpp"

#include <string_view>

namespace collbench {
namespace {

// The build maps the source root away (-fmacro-prefix-map); other builds get the file name only.
std::string short_path(std::string_view file) {
  if (file.empty() || file.front() != '/') return std::string(file);
  const auto slash = file.rfind('/');
  return std::string(file.substr(slash + 1));
}

}  // namespace

std::string_view error_code_name(ErrorCode code) {
  switch (code) {
    case ErrorCode::kOk: return "ok";
    case ErrorCode::kInternal: return "internal error";
    case ErrorCode::kUsage: return "usage error";
    case ErrorCode::kComm: return "communication library error";
    case ErrorCode::kTimeout: return "timeout";
    case ErrorCode::kUnsupported: return "unsupported";
    case ErrorCode::kInterrupted: return "interrupted";
    case ErrorCode::kWrongData: return "wrong data";
    case ErrorCode::kLaunch: return "launch error";
    case ErrorCode::kIo: return "I/O error";
    case ErrorCode::kRegression: return "regression";
    case ErrorCode::kMismatch: return "mismatch";
    case ErrorCode::kOutlier: return "outlier";
    case ErrorCode::kBelowExpectation: return "below_expectation";
  }
  return "unknown error";
}

Status Status::error(ErrorCode code, std::string message, SourceLocation where) {
  Status s;
  s.code_ = code == ErrorCode::kOk ? ErrorCode::kInternal : code;
  s.message_ = std::move(message);
  s.where_ = short_path(where.file_name()) + ":" + std::to_string(where.line());
  return s;
}

Status Status::with_context(std::string_view context) && {
  if (!ok()) message_ = std::string(context) + ": " + message_;
  return std::move(*this);
}

Status Status::with_context(std::string_view context) const& {
  Status copy = *this;
  return std::move(copy).with_context(context);
}

}  // namespace collbench
