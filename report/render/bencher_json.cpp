#include "report/render/bencher_json.hpp"

#include <cmath>
#include <optional>

#include "report/documents/json_internal.hpp"
#include "report/render/tracker_points.hpp"

namespace collbench::report {
namespace {

constexpr double kNanosecondsPerMicrosecond = 1e3;
constexpr double kPicosecondsPerNanosecond = 1e3;

// Microseconds to nanoseconds, rounded to the picosecond: 11.9117 us is written 11911.7, not
// 11911.699999999999, and nothing a timer resolves is lost.
double nanoseconds(double us) {
  return std::round(us * kNanosecondsPerMicrosecond * kPicosecondsPerNanosecond) / kPicosecondsPerNanosecond;
}

struct Bounds {
  double lower = 0;
  double upper = 0;
};

std::optional<Bounds> bounds(const std::optional<TrackerBand>& band, double TrackerBand::*low,
                             double TrackerBand::*high, double (*convert)(double)) {
  if (!band) return std::nullopt;
  return Bounds{.lower = convert((*band).*low), .upper = convert((*band).*high)};
}

double as_is(double v) { return v; }

// One BMF metric; lower_value and upper_value are optional in BMF and left out without a band.
Json metric(double value, const std::optional<Bounds>& b) {
  Json j = {{"value", value}};
  if (b) {
    j["lower_value"] = b->lower;
    j["upper_value"] = b->upper;
  }
  return j;
}

Json measures(const TrackerPoint& p) {
  const auto& b = p.band;
  using T = TrackerBand;
  return {{"busbw", metric(p.m.busbw_gbps, bounds(b, &T::busbw_low_gbps, &T::busbw_high_gbps, &as_is))},
          {"algbw", metric(p.m.algbw_gbps, bounds(b, &T::algbw_low_gbps, &T::algbw_high_gbps, &as_is))},
          {"latency", metric(nanoseconds(p.m.time_us), bounds(b, &T::time_low_us, &T::time_high_us, &nanoseconds))}};
}

}  // namespace

std::string bencher_json_text(const RunDocument& document) {
  Json j = Json::object();
  for (const auto& p : tracker_points(document)) j[p.name] = measures(p);
  return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace collbench::report
