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

LocateFinding make_finding(std::string subject, std::string label, std::vector<int> ranks,
                           std::vector<std::string> hosts, const LocateEvidence& first) {
  return {.subject = std::move(subject),
          .label = std::move(label),
          .ranks = std::move(ranks),
          .hosts = std::move(hosts),
          .comparison = first.comparison,
          .metric = first.metric,
          .unit = first.unit,
          .value = first.value,
          .reference = first.reference,
          .distance_mads = first.distance_mads,
          .gap = first.gap,
          .evidence = {first},
          .cause = {}};
}

}  // namespace collbench::report
