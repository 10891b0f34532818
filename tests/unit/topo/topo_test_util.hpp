// Helpers shared by the topo tests: fixture paths, loading, and the nvidia-smi matrix as cells.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "topo/analysis.hpp"
#include "topo/discover.hpp"
#include "topo/hwloc_source.hpp"
#include "topo/topology.hpp"

namespace collbench::topo::testing {

inline std::string fixture(const std::string& name) { return std::string(COLLBENCH_FIXTURES_DIR) + "/topo/" + name; }

// The third-party captures, read in place; COLLBENCH_TOPOLOGY_FIXTURES overrides the build's path.
inline std::string shared_fixture_dir() {
  const char* env = std::getenv("COLLBENCH_TOPOLOGY_FIXTURES");
  return env != nullptr && *env != '\0' ? env : COLLBENCH_SHARED_FIXTURES_DIR;
}

// A fixture's topology; a load failure fails the test and gives an empty topology.
inline Topology load_fixture(const std::string& name) {
  auto t = load_topology_file(fixture(name));
  EXPECT_TRUE(t.ok()) << t.status().message();
  return t.ok() ? *t : Topology{};
}

inline bool file_exists(const std::string& path) { return std::ifstream(path).good(); }

inline std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The smi class of every GPU/NIC pair, GPUs first: cells[i][j] for labels GPU0.. NIC0..
inline std::vector<std::vector<std::string>> smi_cells(const Topology& topo, const Analysis& a) {
  const std::size_t g = topo.gpus.size(), n = topo.nics.size();
  std::vector<std::vector<std::string>> cells(g + n, std::vector<std::string>(g + n));
  for (std::size_t i = 0; i < g; ++i) {
    for (std::size_t j = 0; j < g; ++j) cells[i][j] = smi_name(a.paths.gpu_gpu[i][j]);
    for (std::size_t j = 0; j < n; ++j) cells[i][g + j] = cells[g + j][i] = smi_name(a.paths.gpu_nic[i][j]);
  }
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) cells[g + i][g + j] = smi_name(a.paths.nic_nic[i][j]);
  }
  return cells;
}

// The same read from an expected-matrix file: one row per line, cells separated by spaces,
// the first line and the first column are labels.
inline std::vector<std::vector<std::string>> matrix_file(const std::string& path) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(read_text(path));
  std::string line;
  bool header = true;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (header) {
      header = false;
      continue;
    }
    std::istringstream cells(line);
    std::vector<std::string> row;
    std::string cell;
    cells >> cell;  // the row label
    while (cells >> cell) row.push_back(cell);
    rows.push_back(row);
  }
  return rows;
}

}  // namespace collbench::topo::testing
