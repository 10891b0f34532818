#include "topo/format.hpp"

#include <gtest/gtest.h>

#include "common/strings.hpp"
#include "common/text_table.hpp"
#include "tests/unit/topo/topo_test_util.hpp"

namespace collbench::topo {
namespace {

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// topo's tables are common's text tables (tests/unit/common/text_table_test.cpp): pinned here too,
// since nvidia-smi-like layouts are what scripts parse.
TEST(FormatText, RenderTablePadsColumns) {
  EXPECT_EQ(render_text_table({{"", "GPU0", "NIC0"}, {"GPU0", "X", "PIX"}, {"NIC10", "PIX", "X"}}),
            "       GPU0  NIC0\n"
            "GPU0   X     PIX\n"
            "NIC10  PIX   X\n");
}

TEST(FormatText, MatrixLegendAndTables) {
  const Topology t = testing::load_fixture("nccl_nvswitch.xml");
  const std::string text = format_text(t, analyze(t));
  EXPECT_NE(text.find("      GPU0  GPU1  GPU2  GPU3  NIC0  NIC1  CPU Affinity  NUMA Affinity\n"
                      "GPU0  X     NV18  NV18  NV18  PIX   NODE  0-15          0\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("NIC0  PIX   PIX   NODE  NODE  X     NODE\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  NV#  = Connection traversing a bonded set of # NVLinks\n"), std::string::npos);
  EXPECT_NE(text.find("NIC Legend:\n\n  NIC0: mlx5_0\n  NIC1: mlx5_1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("NCCL path types:"), std::string::npos);
  EXPECT_NE(text.find("  GPU3  NVL   NVL   NVL   LOC   PHB   PIX\n"), std::string::npos) << text;
  EXPECT_NE(text.find("GPU affinity and nearest NIC:"), std::string::npos);
  EXPECT_NE(text.find("  NIC1  mlx5_1  infiniband  0000:42:00.0  0     32 GT/s x16 (63.02 GB/s)  1: 400 Gb/s"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  GPU2: numactl --physcpubind=0-15 --membind=0 <command>\n"), std::string::npos);
  EXPECT_NE(text.find("  all GPUs: mpirun --map-by ppr:4:numa --bind-to numa <command>\n"), std::string::npos);
  for (std::string_view line : split(text, '\n')) {
    EXPECT_TRUE(line.empty() || line.back() != ' ') << "trailing space: '" << line << "'";
  }
}

TEST(FormatText, NoGpusIsSaidPlainly) {
  auto t = parse_topology("<system version=\"1\"><cpu numaid=\"0\" affinity=\"f\"/></system>", "empty.xml");
  ASSERT_TRUE(t.ok());
  const std::string text = format_text(*t, analyze(*t));
  EXPECT_NE(text.find("GPUs: 0, NICs: 0"), std::string::npos) << text;
  EXPECT_NE(text.find("No GPUs and no NICs found."), std::string::npos) << text;
  EXPECT_NE(text.find("  - no GPUs found\n"), std::string::npos) << text;
}

TEST(FormatDot, GraphHighlightsGpusAndNics) {
  const Topology t = testing::load_fixture("nccl_nvswitch.xml");
  const std::string dot = format_dot(t, analyze(t));
  EXPECT_EQ(dot.rfind("graph topology {", 0), 0u);
  EXPECT_EQ(dot.substr(dot.size() - 2), "}\n");
  EXPECT_EQ(count(dot, "fillcolor=\"#76b900\""), 4u);  // GPUs
  EXPECT_EQ(count(dot, "fillcolor=\"#1f77b4\""), 2u);  // NICs
  EXPECT_EQ(count(dot, "subgraph cluster_"), 1u);
  // All pairs through NVSwitch: one switch node, one edge per GPU, no 6 pair edges.
  EXPECT_EQ(count(dot, "nvswitch -- pci"), 4u);
  EXPECT_EQ(count(dot, "[label=\"NV18\""), 4u);
  EXPECT_NE(dot.find("label=\"NUMA 0\\nCPUs 0-15\""), std::string::npos) << dot;
  EXPECT_EQ(count(dot, "{"), count(dot, "}"));
}

TEST(FormatDot, DirectNvlinksAndOmittedDevices) {
  if (!hwloc_available()) GTEST_SKIP() << "built without hwloc";
  const Topology ring = testing::load_fixture("nvlink_ring.xml");
  const std::string dot = format_dot(ring, analyze(ring));
  EXPECT_EQ(count(dot, "[label=\"NV2\""), 2u);
  EXPECT_EQ(count(dot, "[label=\"NV1\""), 2u);
  EXPECT_EQ(dot.find("nvswitch"), std::string::npos);

  const Topology board = testing::load_fixture("consumer_board.xml");
  const std::string dot2 = format_dot(board, analyze(board));
  EXPECT_NE(dot2.find("(2 other PCI objects not shown)"), std::string::npos) << dot2;  // the BMC display path
  EXPECT_NE(dot2.find("HostBridge\\n0000:[00-0f]"), std::string::npos);
}

}  // namespace
}  // namespace collbench::topo
