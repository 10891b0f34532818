#include "topo/fabric.hpp"

#include <utility>

#include "common/file_io.hpp"
#include "common/strings.hpp"

namespace collbench::topo {
namespace {

std::string short_name(std::string_view host) { return std::string(host.substr(0, host.find('.'))); }

Status undefined_child(const FabricSwitch& parent, const std::string& child) {
  return Status::error(ErrorCode::kUsage, "switch '" + child + "', below switch '" + parent.name + "', is not defined");
}

// Every switch reaches a top switch. Each walk up the parents stops at a switch an earlier walk
// cleared, so the whole check is linear in the switches (a deep chain stays cheap).
Status check_no_loops(const std::vector<FabricSwitch>& switches,
                      const std::unordered_map<std::string, std::size_t>& by_name) {
  enum class Mark : unsigned char { kUnseen, kOnPath, kCleared };
  std::vector<Mark> mark(switches.size(), Mark::kUnseen);
  std::vector<std::size_t> path;
  for (std::size_t start = 0; start < switches.size(); ++start) {
    path.clear();
    for (std::size_t at = start; mark[at] != Mark::kCleared;) {
      if (mark[at] == Mark::kOnPath) {
        return Status::error(ErrorCode::kUsage, "switches form a loop through '" + switches[at].name + "'");
      }
      mark[at] = Mark::kOnPath;
      path.push_back(at);
      if (switches[at].parent.empty()) break;
      at = by_name.at(switches[at].parent);
    }
    for (const std::size_t i : path) mark[i] = Mark::kCleared;
  }
  return ok_status();
}

}  // namespace

Result<Fabric> Fabric::from_switches(std::vector<FabricSwitch> switches) {
  Fabric f;
  for (std::size_t i = 0; i < switches.size(); ++i) {
    if (switches[i].name.empty()) return Status::error(ErrorCode::kUsage, "a switch without a name");
    if (!f.by_name_.emplace(switches[i].name, i).second) {
      return Status::error(ErrorCode::kUsage, "switch '" + switches[i].name + "' is defined twice");
    }
  }
  for (FabricSwitch& s : switches) s.parent.clear();
  for (const FabricSwitch& s : switches) {
    for (const std::string& child : s.switches) {
      const auto it = f.by_name_.find(child);
      if (it == f.by_name_.end()) return undefined_child(s, child);
      std::string& parent = switches[it->second].parent;
      if (parent.empty()) {
        parent = s.name;
      } else if (parent != s.name) {
        f.notes_.push_back("switch '" + child + "' is below both '" + parent + "' and '" + s.name + "': '" + parent +
                           "' kept");
      }
    }
  }
  COLLBENCH_RETURN_IF_ERROR(check_no_loops(switches, f.by_name_));
  for (std::size_t i = 0; i < switches.size(); ++i) {
    for (const std::string& host : switches[i].hosts) {
      const auto [it, added] = f.leaf_by_host_.emplace(host, i);
      if (!added && it->second != i) {
        f.notes_.push_back("host '" + host + "' is below both '" + switches[it->second].name + "' and '" +
                           switches[i].name + "': '" + switches[it->second].name + "' kept");
      }
    }
  }
  f.switches_ = std::move(switches);
  return f;
}

const FabricSwitch* Fabric::find(std::string_view name) const {
  const auto it = by_name_.find(std::string(name));
  return it == by_name_.end() ? nullptr : &switches_[it->second];
}

const FabricSwitch* Fabric::leaf_of(std::string_view host) const {
  auto it = leaf_by_host_.find(std::string(host));
  if (it == leaf_by_host_.end()) it = leaf_by_host_.find(short_name(host));
  return it == leaf_by_host_.end() ? nullptr : &switches_[it->second];
}

Result<Fabric> parse_fabric_text(std::string_view text) {
  const std::string_view body = trim(text);
  return !body.empty() && (body.front() == '{' || body.front() == '[') ? parse_fabric_json(text)
                                                                       : parse_slurm_topology(text);
}

Result<Fabric> read_fabric_file(const std::string& path) {
  auto text = read_text_file(path, kMaxFabricFileBytes);
  if (!text.ok()) return text.status().with_context("fabric file '" + path + "'");
  auto fabric = parse_fabric_text(*text);
  if (!fabric.ok()) return fabric.status().with_context("fabric file '" + path + "'");
  return fabric;
}

}  // namespace collbench::topo
