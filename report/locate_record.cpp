#include "report/locate_record.hpp"

namespace collbench::report {

const char* to_string(LocateRecheck r) {
  switch (r) {
    case LocateRecheck::kNone: return "";
    case LocateRecheck::kConfirmed: return "confirmed";
    case LocateRecheck::kNotConfirmed: return "not_confirmed";
    case LocateRecheck::kNotMeasured: return "not_measured";
    case LocateRecheck::kDecisive: return "decisive";
  }
  return "";
}

const char* to_string(LocateVerdict v) {
  switch (v) {
    case LocateVerdict::kNoOutlier: return "no_outlier";
    case LocateVerdict::kOutlier: return "outlier";
    case LocateVerdict::kNothingCompared: return "nothing_compared";
  }
  return "nothing_compared";
}

}  // namespace collbench::report
