// topology.conf (Slurm's topology/tree and topology/block plugins) into a Fabric.
#include <string>
#include <vector>

#include "common/strings.hpp"
#include "topo/fabric.hpp"
#include "topo/hostlist.hpp"

namespace collbench::topo {
namespace {

struct Line {
  int number = 0;  // of its first physical line
  std::string text;
};

// Comments dropped, continuations ('\' at the end) joined.
std::vector<Line> logical_lines(std::string_view text) {
  std::vector<Line> lines;
  bool continued = false;
  int number = 0;
  for (std::string_view raw : split(text, '\n')) {
    ++number;
    std::string_view body = raw.substr(0, raw.find('#'));
    if (!body.empty() && body.back() == '\r') body.remove_suffix(1);
    const bool continues = !trim(body).empty() && trim(body).back() == '\\';
    if (continues) body = trim(body).substr(0, trim(body).size() - 1);
    if (!continued) lines.push_back({number, ""});
    lines.back().text += " " + std::string(body);
    continued = continues;
  }
  return lines;
}

std::vector<std::string_view> words(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t at = 0;
  while (at < text.size()) {
    const auto start = text.find_first_not_of(" \t\r", at);
    if (start == std::string_view::npos) break;
    const auto end = text.find_first_of(" \t\r", start);
    out.push_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    at = end == std::string_view::npos ? text.size() : end;
  }
  return out;
}

Status line_error(const Line& line, const std::string& why) {
  return Status::error(ErrorCode::kUsage, "line " + std::to_string(line.number) + ": " + why);
}

// One line's switch, or an empty name for a line that defines none (BlockSizes=, blank).
// `left`: what the file may still expand to.
Result<FabricSwitch> parse_line(const Line& line, HostlistBudget& left) {
  FabricSwitch s;
  for (const std::string_view word : words(line.text)) {
    const auto eq = word.find('=');
    if (eq == std::string_view::npos || eq == 0) {
      return line_error(line, "'" + std::string(word) + "' is not Key=Value");
    }
    const std::string key = to_lower(word.substr(0, eq));
    const std::string_view value = word.substr(eq + 1);
    if (key == "switchname" || key == "blockname") {
      s.name = std::string(value);
    } else if (key == "nodes" || key == "switches") {
      auto names = expand_hostlist_within(value, left);
      if (!names.ok()) return line_error(line, names.status().message());
      auto& into = key == "nodes" ? s.hosts : s.switches;
      into.insert(into.end(), names->begin(), names->end());
    } else if (key == "linkspeed") {
      s.link_speed = std::string(value);
    }
  }
  if (s.name.empty() && (!s.hosts.empty() || !s.switches.empty())) {
    return line_error(line, "Nodes= or Switches= without SwitchName=");
  }
  return s;
}

}  // namespace

Result<Fabric> parse_slurm_topology(std::string_view text, HostlistBudget budget) {
  std::vector<FabricSwitch> switches;
  for (const Line& line : logical_lines(text)) {
    COLLBENCH_ASSIGN_OR_RETURN(FabricSwitch s, parse_line(line, budget));
    if (!s.name.empty()) switches.push_back(std::move(s));
  }
  if (switches.empty())
    return Status::error(ErrorCode::kUsage, "no switch defined (no SwitchName= or BlockName= line)");
  return Fabric::from_switches(std::move(switches));
}

}  // namespace collbench::topo
