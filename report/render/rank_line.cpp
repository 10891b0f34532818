#include "report/render/rank_line.hpp"

#include <charconv>
#include <system_error>

#include "common/strings.hpp"
#include "common/text_table.hpp"
#include "report/format/number_format.hpp"

namespace collbench::report {

int device_index(std::string_view device) {
  const auto colon = device.find(':');
  if (colon == std::string_view::npos) return -1;
  int index = -1;
  const auto digits = device.substr(colon + 1);
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
  if (ec != std::errc() || end != digits.data() + digits.size()) return -1;
  return index;
}

std::string bus_field(const RankInfo& rank) {
  if (rank.pci_bus_id.empty()) {
    const std::string kind = rank.device.substr(0, rank.device.find(':'));
    return kind.empty() ? "-" : kind;
  }
  std::string id = to_lower(rank.pci_bus_id);
  const auto last_colon = id.rfind(':');
  const auto dot = id.rfind('.');
  if (dot != std::string::npos && last_colon != std::string::npos && dot > last_colon) id.resize(dot);
  const auto first_colon = id.find(':');
  if (first_colon != std::string::npos && first_colon > 4 && first_colon != last_colon) {
    id.erase(0, first_colon - 4);
  }
  return id;
}

std::string format_rank_line(const RankInfo& rank) {
  return "#  Rank " + pad(format_int(rank.rank), 2, Align::kRight) + " Group  0 Pid " +
         pad(format_int(rank.pid), 6, Align::kRight) + " on " + pad(rank.host, 10, Align::kRight) + " device " +
         pad(format_int(device_index(rank.device)), 2, Align::kRight) + " [" + bus_field(rank) + "] " +
         rank.device_name;
}

}  // namespace collbench::report
