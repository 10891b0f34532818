// Conformance of `collbench topo -i` with hwloc's own tools on real captures: every file that
// hwloc loads (lstopo and hwloc-info agree), collbench loads too, and the two agree on NUMA nodes,
// PCI devices and CPUs; a file hwloc refuses gives one line and exit 2. The corpus is
// tests/fixtures/topo/corpus (hwloc's own test captures, written by hwloc 1.x and 2.x, and 3.0
// ones; SOURCES.md) plus the captures in ../shared/topology-fixtures, read in place (NCCL dumps,
// which hwloc cannot read, must load in collbench).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "tests/integration/harness.hpp"

namespace collbench::testing {
namespace {

namespace fs = std::filesystem;

std::string shared_dir() {
  const char* env = std::getenv("COLLBENCH_TOPOLOGY_FIXTURES");
  return env != nullptr && *env != '\0' ? env : COLLBENCH_SHARED_FIXTURES_DIR;
}

std::vector<std::string> corpus() {
  std::vector<std::string> files;
  for (const std::string& dir : {std::string(COLLBENCH_FIXTURES_DIR) + "/topo/corpus", shared_dir()}) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
      if (entry.path().extension() == ".xml") files.push_back(entry.path().string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

// lstopo-no-graphics where only the no-graphics package is installed.
std::string lstopo() {
  for (const char* name : {"lstopo-no-graphics", "lstopo"}) {
    if (run_process({"sh", "-c", std::string("command -v ") + name}, 10).exit_code == 0) return name;
  }
  return "";
}

// "Special depth -3:  2 NUMANode (type #13)" -> 2; 0 when hwloc-info lists none.
int hwloc_count(const std::string& info, const std::string& type) {
  const std::regex line(":\\s+(\\d+) " + type + " \\(type");
  std::smatch m;
  return std::regex_search(info, m, line) ? std::stoi(m[1].str()) : 0;
}

// "0-7,16-23" -> 16.
int list_size(const std::string& list) {
  int n = 0;
  std::size_t pos = 0;
  while (pos < list.size()) {
    std::size_t end = list.find(',', pos);
    if (end == std::string::npos) end = list.size();
    const std::string item = list.substr(pos, end - pos);
    const auto dash = item.find('-');
    n += dash == std::string::npos ? 1 : std::stoi(item.substr(dash + 1)) - std::stoi(item.substr(0, dash)) + 1;
    pos = end + 1;
  }
  return n;
}

bool is_nccl(const std::string& path) { return read_file(path).find("<system") != std::string::npos; }

bool is_hwloc_v1(const std::string& path) {
  const std::string text = read_file(path);
  return text.find("<topology>") != std::string::npos;
}

TEST(TopoConformance, CorpusIsThere) {
  const std::vector<std::string> files = corpus();
  EXPECT_GE(files.size(), 19u);  // the committed corpus alone
  int v1 = 0, refused = 0;
  for (const std::string& f : files) {
    v1 += is_hwloc_v1(f);
    refused += read_file(f).find("<topology version=\"3.") != std::string::npos;
  }
  EXPECT_GE(v1, 5);
  EXPECT_GE(refused, 2);
}

TEST(TopoConformance, WhatHwlocLoadsCollbenchLoads) {
  const std::string ls = lstopo();
  if (ls.empty()) GTEST_SKIP() << "hwloc's lstopo is not installed";
  int compared = 0;
  for (const std::string& file : corpus()) {
    SCOPED_TRACE(file);
    const Outcome cb = run_process(collbench({"topo", "-i", file, "--format", "json"}), 60);
    if (is_nccl(file)) {
      // NCCL's own format: hwloc has no reader for it, collbench must.
      ASSERT_EQ(cb.exit_code, 0) << cb.err;
      EXPECT_FALSE(nlohmann::json::parse(cb.out).at("gpus").empty());
      continue;
    }
    const Outcome xml = run_process({ls, "-i", file, "--of", "xml", "-"}, 60);
    const Outcome info = run_process({"hwloc-info", "--disallowed", "--filter", "all:all", "-i", file}, 60);
    EXPECT_EQ(xml.exit_code == 0, info.exit_code == 0) << "lstopo and hwloc-info disagree: " << xml.err << info.err;
    if (xml.exit_code != 0) {
      // hwloc refuses it: one line, exit 2, nothing on stdout.
      EXPECT_EQ(cb.exit_code, 2) << cb.err;
      EXPECT_TRUE(cb.out.empty());
      EXPECT_EQ(std::count(cb.err.begin(), cb.err.end(), '\n'), 1) << cb.err;
      if (read_file(file).find("<topology version=\"3.0\"") != std::string::npos) {
        EXPECT_NE(cb.err.find("needs hwloc >= 2.10 (or 3.x)"), std::string::npos) << cb.err;
        EXPECT_NE(cb.err.find("--export-xml-flags v2"), std::string::npos) << cb.err;
      }
      continue;
    }
    ASSERT_EQ(cb.exit_code, 0) << "hwloc loads it, collbench refused: " << cb.err;
    const nlohmann::json doc = nlohmann::json::parse(cb.out);
    EXPECT_EQ(static_cast<int>(doc.at("numa_nodes").size()), hwloc_count(info.out, "NUMANode")) << info.out;
    int devices = 0;
    for (const auto& node : doc.at("pci")) devices += node.at("kind") == "device";
    EXPECT_EQ(devices, hwloc_count(info.out, "PCIDev")) << info.out;
    // collbench reports the complete cpuset, offline CPUs included; hwloc-info counts PU objects.
    EXPECT_GE(list_size(doc.at("cpus").get<std::string>()), hwloc_count(info.out, "PU")) << info.out;
    ++compared;
  }
  EXPECT_GE(compared, 15);
}

// An hwloc 1.x capture prints its matrix, says what the format lacks, and names its writer.
TEST(TopoConformance, HwlocV1CapturesPrintTheirMatrix) {
  int v1 = 0;
  for (const std::string& file : corpus()) {
    if (!is_hwloc_v1(file)) continue;
    SCOPED_TRACE(file);
    ++v1;
    const Outcome text = run_process(collbench({"topo", "-i", file}), 60);
    ASSERT_EQ(text.exit_code, 0) << text.err;
    EXPECT_NE(text.out.find("(hwloc 1.x XML"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("read by hwloc 2."), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("Legend:"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("NUMA nodes:"), std::string::npos) << text.out;
  }
  EXPECT_GE(v1, 5);
  // The capture of issue 16: 8 cores in two packages, no NUMA nodeset, three NICs.
  const std::string nonodesets = std::string(COLLBENCH_FIXTURES_DIR) + "/topo/corpus/8em64t-2p2ca2co-nonodesets.v1.xml";
  const Outcome text = run_process(collbench({"topo", "-i", nonodesets}), 60);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("Packages: 2, NUMA nodes: 1, CPUs: 8"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("Note: hwloc 1.x XML: the file has no NUMA node; hwloc assumed one"), std::string::npos);
  EXPECT_NE(text.out.find("NIC0  X     PHB   PHB"), std::string::npos) << text.out;
  const Outcome json = run_process(collbench({"topo", "-i", nonodesets, "--format", "json"}), 60);
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_FALSE(nlohmann::json::parse(json.out).at("notes").empty());
}

// Without libhwloc-plugins hwloc falls back to its minimal XML parser, which refuses a valid file
// with a comment in it; the one line says what to install.
TEST(TopoConformance, MinimalParserRefusalSaysWhatToInstall) {
  const std::string source = std::string(COLLBENCH_FIXTURES_DIR) + "/topo/corpus/fakecpukinds.xml";
  const std::string text = read_file(source);
  const std::string path = scratch_dir("topo_conformance_minimal") + "/commented.xml";
  {
    std::ofstream out(path);
    out << text.substr(0, text.find("<topology")) << "<!-- a comment -->\n" << text.substr(text.find("<topology"));
  }
  const Outcome libxml = run_process(collbench({"topo", "-i", path, "--format", "json"}), 60);
  if (libxml.exit_code != 0) GTEST_SKIP() << "hwloc's libxml2 plugin is not installed here: " << libxml.err;
  const Outcome minimal = run_process(collbench({"topo", "-i", path, "--format", "json"}), 60,
                                      {"HWLOC_LIBXML_IMPORT=0"});
  EXPECT_EQ(minimal.exit_code, 2) << minimal.err;
  EXPECT_EQ(std::count(minimal.err.begin(), minimal.err.end(), '\n'), 1) << minimal.err;
  EXPECT_NE(minimal.err.find("HWLOC_XML_VERBOSE=1 shows hwloc's reason"), std::string::npos) << minimal.err;
  EXPECT_NE(minimal.err.find("install libhwloc-plugins"), std::string::npos) << minimal.err;
}

}  // namespace
}  // namespace collbench::testing
