#include "report/expect_record.hpp"

namespace collbench::report {

const char* to_string(ExpectBound b) {
  switch (b) {
    case ExpectBound::kMinBusbw: return "min_busbw_gbps";
    case ExpectBound::kMinAlgbw: return "min_algbw_gbps";
    case ExpectBound::kMaxTime: return "max_time_us";
  }
  return "min_busbw_gbps";
}

const char* to_string(ExpectPlacement p) {
  switch (p) {
    case ExpectPlacement::kBoth: return "both";
    case ExpectPlacement::kOutOfPlace: return "out_of_place";
    case ExpectPlacement::kInPlace: return "in_place";
  }
  return "both";
}

}  // namespace collbench::report
