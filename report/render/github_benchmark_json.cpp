#include "report/render/github_benchmark_json.hpp"

#include <cstddef>
#include <optional>
#include <vector>

#include "report/documents/json_internal.hpp"
#include "report/format/number_format.hpp"
#include "report/render/tracker_points.hpp"

namespace collbench::report {
namespace {

// Hosts named in the tooltip; a large job lists the first few and its count.
constexpr std::size_t kHostsNamed = 4;

struct Quantity {
  const char* unit = "";
  double value = 0;
  std::optional<std::string> range;
};

std::string span(double low, double high) { return format_general(low) + " .. " + format_general(high); }

Quantity quantity_of(const TrackerPoint& p, GithubBenchmarkQuantity which) {
  const auto& b = p.band;
  switch (which) {
    case GithubBenchmarkQuantity::kBusbw:
      return {.unit = "GB/s",
              .value = p.m.busbw_gbps,
              .range = b ? std::optional{span(b->busbw_low_gbps, b->busbw_high_gbps)} : std::nullopt};
    case GithubBenchmarkQuantity::kTime:
      return {.unit = "us",
              .value = p.m.time_us,
              .range = b ? std::optional{span(b->time_low_us, b->time_high_us)} : std::nullopt};
  }
  return {};  // unreachable: every quantity is handled above
}

std::string hosts_words(const std::vector<std::string>& hosts) {
  std::string text;
  for (std::size_t i = 0; i < hosts.size() && i < kHostsNamed; ++i) text += (i == 0 ? "" : ", ") + hosts[i];
  if (hosts.size() > kHostsNamed) text += ", ... (" + std::to_string(hosts.size()) + " hosts)";
  return text;
}

// The tooltip: what the point is, its other figures, and the setup it ran on.
std::string extra_of(const TrackerPoint& p, const RunContext& c) {
  const Measurement& m = p.m;
  std::string text = "size " + std::to_string(p.size_bytes) + " B, " + std::to_string(m.iterations) + " iterations";
  if (!m.checked) text += ", results not checked";
  text += "\ntime " + format_general(m.time_us) + " us, algbw " + format_general(m.algbw_gbps) + " GB/s, busbw " +
          format_general(m.busbw_gbps) + " GB/s";
  text += "\n" + std::to_string(c.nranks) + (c.nranks == 1 ? " rank on " : " ranks on ") + hosts_words(c.hosts) + ", " +
          c.memory + " memory";
  text += "\n" + c.backend_library + " (backend " + c.backend + ", bootstrap " + c.bootstrap + ")";
  text += "\ncollbench " + c.tool_version + " " + c.git_commit + ", run " + c.start_time;
  return text;
}

Json entry(const TrackerPoint& p, const RunContext& c, GithubBenchmarkQuantity which) {
  const Quantity q = quantity_of(p, which);
  Json j = {{"name", p.name}, {"unit", q.unit}, {"value", q.value}};
  if (q.range) j["range"] = *q.range;
  j["extra"] = extra_of(p, c);
  return j;
}

}  // namespace

std::string github_benchmark_json_text(const RunDocument& document, GithubBenchmarkQuantity quantity) {
  Json entries = Json::array();
  for (const auto& p : tracker_points(document)) entries.push_back(entry(p, document.context, quantity));
  return entries.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace collbench::report
