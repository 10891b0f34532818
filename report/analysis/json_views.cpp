#include "report/analysis/json_views.hpp"

namespace collbench::report {

Json group_json(const GroupKey& key) {
  return {{"collective", key.collective}, {"dtype", key.dtype}, {"op", key.op}, {"root", key.root}};
}

Json series_key_json(const SeriesKey& key) {
  Json j = group_json(key.group);
  j["placement"] = to_string(key.placement);
  return j;
}

Json figures_json(const SeriesFigures& f) {
  Json reference = Json::array();
  for (const auto& v : f.at_reference) {
    reference.push_back({{"size_bytes", v.size_bytes},
                         {"busbw_gbps", v.busbw_gbps ? real(*v.busbw_gbps) : Json(nullptr)},
                         {"interpolated", v.interpolated}});
  }
  return {{"series", series_key_json(f.key)},
          {"sizes", f.sizes},
          {"peak_busbw_gbps", real(f.peak_busbw_gbps)},
          {"peak_size_bytes", f.peak_size_bytes},
          {"reference", reference},
          {"half_peak_size_bytes", f.half_peak_size_bytes ? Json(*f.half_peak_size_bytes) : Json(nullptr)},
          {"smallest_size_bytes", f.smallest_size_bytes},
          {"smallest_time_us", real(f.smallest_time_us)},
          {"mean_busbw_gbps", real(f.mean_busbw_gbps)},
          {"percent_of_link", f.percent_of_link ? real(*f.percent_of_link) : Json(nullptr)}};
}

}  // namespace collbench::report
