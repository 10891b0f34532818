#include "common/exit_code.hpp"

#include <array>
#include <string>

namespace collbench {
namespace {

constexpr std::array kDocs = {
    ExitCodeDoc{ExitCode::kOk, "success: every check passed"},
    ExitCodeDoc{ExitCode::kInternal, "internal error (a bug in collbench)"},
    ExitCodeDoc{ExitCode::kUsage, "bad usage: invalid flag, value or input file; nothing was written"},
    ExitCodeDoc{ExitCode::kComm, "communication library error (MPI, NCCL or CUDA)"},
    ExitCodeDoc{
        ExitCode::kTimeout,
        "timeout: a collective, barrier or rendezvous did not finish within -T, or a rank left the job mid-way"},
    ExitCodeDoc{ExitCode::kUnsupported, "not supported by this build or machine"},
    ExitCodeDoc{ExitCode::kInterrupted, "interrupted by SIGINT/SIGTERM; finished results were written"},
    ExitCodeDoc{ExitCode::kWrongData, "wrong data: at least one element of one rank's result was wrong"},
    ExitCodeDoc{ExitCode::kLaunch, "launch error: ranks could not find each other or disagree on the job"},
    ExitCodeDoc{ExitCode::kIo, "I/O error while reading or writing a file"},
    ExitCodeDoc{ExitCode::kRegression,
                "compare: a result regressed beyond the threshold; history: the newest run regressed"},
    ExitCodeDoc{ExitCode::kMismatch, "topo, health: hosts that should match differ (missing device, slower link, ...)"},
    ExitCodeDoc{ExitCode::kOutlier,
                "locate: an outlier was found (a host, rank, pair or rail far slower than the rest)"},
    ExitCodeDoc{ExitCode::kBelowExpectation,
                "below expectation: a result missed its expected figure (--expect, health, NCCL_TESTS_MIN_BW)"},
};

}  // namespace

ExitCode exit_code_for(const Status& status) {
  switch (status.code()) {
    case ErrorCode::kOk: return ExitCode::kOk;
    case ErrorCode::kInternal: return ExitCode::kInternal;
    case ErrorCode::kUsage: return ExitCode::kUsage;
    case ErrorCode::kComm: return ExitCode::kComm;
    case ErrorCode::kTimeout: return ExitCode::kTimeout;
    case ErrorCode::kUnsupported: return ExitCode::kUnsupported;
    case ErrorCode::kInterrupted: return ExitCode::kInterrupted;
    case ErrorCode::kWrongData: return ExitCode::kWrongData;
    case ErrorCode::kLaunch: return ExitCode::kLaunch;
    case ErrorCode::kIo: return ExitCode::kIo;
    case ErrorCode::kRegression: return ExitCode::kRegression;
    case ErrorCode::kMismatch: return ExitCode::kMismatch;
    case ErrorCode::kOutlier: return ExitCode::kOutlier;
    case ErrorCode::kBelowExpectation: return ExitCode::kBelowExpectation;
  }
  return ExitCode::kInternal;
}

std::span<const ExitCodeDoc> exit_code_docs() { return kDocs; }

std::string exit_code_help() {
  std::string text = "Exit codes:\n";
  for (const auto& doc : kDocs) {
    const int n = static_cast<int>(doc.code);
    text += (n < 10 ? "   " : "  ") + std::to_string(n) + "  " + std::string(doc.meaning) + "\n";
  }
  return text;
}

}  // namespace collbench
