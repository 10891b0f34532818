// The switch tree in JSON: topology.yaml's shape written as JSON (YAML's subset), or its tree
// alone. Keys as topology.yaml names them: "switch", "children", "nodes", "link_speed".
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "topo/fabric.hpp"
#include "topo/hostlist.hpp"

namespace collbench::topo {
namespace {

using Json = nlohmann::json;

Status bad(const std::string& why) { return Status::error(ErrorCode::kUsage, why); }

// A hostlist expression or an array of them; `left`: what the file may still expand to.
Result<std::vector<std::string>> names_of(const Json& j, const std::string& where, HostlistBudget& left) {
  std::vector<std::string> out;
  const auto add = [&](const Json& item) -> Status {
    // The type, not the value: a malformed file's value may be deep or large.
    if (!item.is_string()) return bad(where + ": expected a hostlist string, found " + std::string(item.type_name()));
    auto names = expand_hostlist_within(item.get<std::string>(), left);
    if (!names.ok()) return names.status().with_context(where);
    out.insert(out.end(), names->begin(), names->end());
    return ok_status();
  };
  if (j.is_array()) {
    for (const Json& item : j) COLLBENCH_RETURN_IF_ERROR(add(item));
  } else {
    COLLBENCH_RETURN_IF_ERROR(add(j));
  }
  return out;
}

Result<FabricSwitch> switch_from(const Json& j, std::size_t index, HostlistBudget& left) {
  const std::string where = "switches[" + std::to_string(index) + "]";
  if (!j.is_object()) return bad(where + ": expected an object");
  const auto name = j.find("switch");
  if (name == j.end() || !name->is_string()) return bad(where + ": \"switch\" (its name, a string) is missing");
  FabricSwitch s;
  s.name = name->get<std::string>();
  if (const auto it = j.find("nodes"); it != j.end()) {
    COLLBENCH_ASSIGN_OR_RETURN(s.hosts, names_of(*it, where + ".nodes", left));
  }
  if (const auto it = j.find("children"); it != j.end()) {
    COLLBENCH_ASSIGN_OR_RETURN(s.switches, names_of(*it, where + ".children", left));
  }
  if (const auto it = j.find("link_speed"); it != j.end() && !it->is_null()) {
    if (!it->is_string() && !it->is_number()) {
      return bad(where + ".link_speed: expected a string or a number, found " + std::string(it->type_name()));
    }
    s.link_speed = it->is_string() ? it->get<std::string>() : it->dump();
  }
  return s;
}

// topology.yaml's list: the first topology with cluster_default true, else the first with a tree.
Result<const Json*> tree_of(const Json& doc) {
  if (doc.is_object()) return doc.contains("tree") ? &doc.at("tree") : &doc;
  if (!doc.is_array()) return bad("expected an object or a list of topologies");
  const Json* chosen = nullptr;
  for (const Json& t : doc) {
    if (!t.is_object() || !t.contains("tree")) continue;
    if (chosen == nullptr) chosen = &t.at("tree");
    const auto is_default = t.find("cluster_default");
    if (is_default != t.end() && *is_default == true) return &t.at("tree");
  }
  if (chosen == nullptr) return bad("no topology in the list has a \"tree\"");
  return chosen;
}

}  // namespace

Result<Fabric> parse_fabric_json(std::string_view text, HostlistBudget budget) {
  const Json doc = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return bad("not valid JSON");
  COLLBENCH_ASSIGN_OR_RETURN(const Json* tree, tree_of(doc));
  const auto list = tree->find("switches");
  if (list == tree->end() || !list->is_array()) return bad("\"switches\" (a list) is missing");
  if (list->empty()) return bad("\"switches\" is empty: no switch defined");
  std::vector<FabricSwitch> switches;
  for (std::size_t i = 0; i < list->size(); ++i) {
    COLLBENCH_ASSIGN_OR_RETURN(FabricSwitch s, switch_from((*list)[i], i, budget));
    switches.push_back(std::move(s));
  }
  return Fabric::from_switches(std::move(switches));
}

}  // namespace collbench::topo
