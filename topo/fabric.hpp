// The switch tree between hosts, as sites already write it for Slurm: topology.conf
// ("SwitchName=s3 Nodes=node[01-16]", "SwitchName=spine Switches=s[0-7]") or the same tree in
// JSON, either topology.yaml's shape ([{"topology": "t", "tree": {"switches": [{"switch": "s3",
// "nodes": "node[01-16]"}]}}]) or its tree alone ({"switches": [...]}); "nodes" and
// "children" are hostlist expressions or arrays of names. `collbench locate --fabric` reads it
// to compare each leaf's hosts inside the leaf and across it (docs/locate.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/status.hpp"
#include "topo/hostlist.hpp"

namespace collbench::topo {

struct FabricSwitch {
  std::string name;
  std::vector<std::string> hosts;     // hosts cabled to this switch (a leaf's)
  std::vector<std::string> switches;  // switches below it
  std::string link_speed;             // LinkSpeed= as written (the site's own unit); may be empty
  std::string parent;                 // the switch above it; empty for a top switch
};

class Fabric {
 public:
  Fabric() = default;  // no switches: every host in one flat group

  // Checks the tree: names unique and non-empty, every switch named as a child defined, no
  // loops. A host under two switches, or a switch under two parents, keeps the first and
  // leaves a note (Slurm accepts both).
  static Result<Fabric> from_switches(std::vector<FabricSwitch> switches);

  bool empty() const { return switches_.empty(); }
  const std::vector<FabricSwitch>& switches() const { return switches_; }
  const std::vector<std::string>& notes() const { return notes_; }
  const FabricSwitch* find(std::string_view name) const;
  // The switch a host is cabled to (its leaf): by its exact name, else by its short name (up
  // to the first '.', as Slurm's node names are short and gethostname() may not be); nullptr
  // when the fabric does not list it.
  const FabricSwitch* leaf_of(std::string_view host) const;

 private:
  std::vector<FabricSwitch> switches_;
  std::unordered_map<std::string, std::size_t> by_name_;
  std::unordered_map<std::string, std::size_t> leaf_by_host_;
  std::vector<std::string> notes_;
};

// topology.conf: key=value words, keys case-insensitive, '#' starts a comment, a trailing '\'
// continues the line. SwitchName= lines define switches (Nodes=, Switches=, LinkSpeed=);
// BlockName= lines (topology/block) are leaves without a parent; other lines and keys are
// ignored, as Slurm's own later keys may appear. A file that defines no switch is an error.
// Errors in one line's words name the line; errors in the tree (an undefined child, a loop)
// name the switches. `budget` bounds the host and switch names of the whole file together
// (memory a malformed file can claim; a million names by default, more than any fabric Slurm
// runs).
Result<Fabric> parse_slurm_topology(std::string_view text, HostlistBudget budget = {});
// JSON errors name the switch's index ("switches[3].nodes: ..."); an empty list is an error.
Result<Fabric> parse_fabric_json(std::string_view text, HostlistBudget budget = {});
// JSON when the first non-blank character is '{' or '[', topology.conf otherwise.
Result<Fabric> parse_fabric_text(std::string_view text);
// The most a fabric file may hold: a topology.conf of a million hosts is a few MiB.
inline constexpr std::uint64_t kMaxFabricFileBytes = std::uint64_t{64} << 20;
// read_text_file then parse_fabric_text. Errors (a missing or unreadable file, a malformed
// one) are read_text_file's or kUsage, prefixed with the path.
Result<Fabric> read_fabric_file(const std::string& path);

}  // namespace collbench::topo
