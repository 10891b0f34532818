// Format detection, bad input, and live discovery on the machine running the tests.
#include "topo/discover.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "topo/format.hpp"
#include "topo/json.hpp"
#include "tests/unit/topo/topo_test_util.hpp"

namespace collbench::topo {
namespace {

using testing::fixture;

TEST(Discover, FormatIsDetectedFromContent) {
  EXPECT_EQ(detect_format("<system version=\"1\"/>", "x").value(), FileFormat::kNcclXml);
  EXPECT_EQ(detect_format("<?xml version=\"1.0\"?>\n<topology version=\"2.0\">", "x").value(), FileFormat::kHwlocXml);
  EXPECT_EQ(detect_format("<topology>", "x").value(), FileFormat::kHwlocXml);  // hwloc 1.x
  EXPECT_EQ(detect_format("<root>", "x").value(), FileFormat::kHwlocXml);      // hwloc 0.9
  EXPECT_EQ(detect_format("  {\"schema\": 1}", "x").value(), FileFormat::kJson);
}

void expect_one_line_error(const std::string& path, ErrorCode code, const std::string& fragment) {
  auto t = load_topology_file(path);
  ASSERT_FALSE(t.ok()) << path;
  EXPECT_EQ(t.status().code(), code) << t.status().message();
  EXPECT_NE(t.status().message().find(fragment), std::string::npos) << t.status().message();
  EXPECT_EQ(t.status().message().find('\n'), std::string::npos) << t.status().message();
}

TEST(Discover, BadFilesGiveOneLineErrors) {
  expect_one_line_error(fixture("bad/does-not-exist.xml"), ErrorCode::kIo, "no such file");
  expect_one_line_error(fixture("bad"), ErrorCode::kIo, "it is a directory");
  expect_one_line_error(fixture("bad/empty.xml"), ErrorCode::kUsage, "empty file, not a topology");
  expect_one_line_error(fixture("bad/malformed.xml"), ErrorCode::kUsage,
                        "malformed XML at line 4: </cpu> does not close <pci>");
  expect_one_line_error(fixture("bad/truncated.xml"), ErrorCode::kUsage, "malformed XML");
  expect_one_line_error(fixture("bad/hwloc_v3.xml"), ErrorCode::kUsage,
                        "hwloc XML 3.0 needs hwloc >= 2.10 (or 3.x); this collbench uses hwloc ");
  expect_one_line_error(fixture("bad/nccl_v2.xml"), ErrorCode::kUsage, "version '2' is not supported");
  expect_one_line_error(fixture("bad/unknown_root.xml"), ErrorCode::kUsage, "root element <inventory>");
  expect_one_line_error(fixture("bad/truncated.json"), ErrorCode::kUsage, "not valid JSON");
  expect_one_line_error(fixture("bad/binary.bin"), ErrorCode::kUsage, "control character 0 is not allowed");
  // Well-formed, but hwloc 2.9 would crash on it.
  expect_one_line_error(fixture("bad/hwloc_missing_cpuset.xml"), ErrorCode::kUsage,
                        "not a usable hwloc XML at line 18: PU object with a cpuset but no complete_cpuset");
}

// Issue 16: an hwloc 1.x capture (two packages, eight cores, no NUMA nodeset) loads as hwloc 2.9
// makes it, with notes on what the format lacks.
TEST(Discover, HwlocV1CaptureLoadsWithNotes) {
  if (!hwloc_available()) GTEST_SKIP() << "built without hwloc";
  auto t = load_topology_file(fixture("corpus/8em64t-2p2ca2co-nonodesets.v1.xml"));
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_EQ(t->packages.size(), 2u);
  EXPECT_EQ(t->numa_nodes.size(), 1u);
  EXPECT_EQ(t->cpus.size(), 8u);
  EXPECT_EQ(t->nics.size(), 3u);
  EXPECT_EQ(t->tool_version.rfind("hwloc 1.x XML, read by hwloc 2.", 0), 0u) << t->tool_version;
  ASSERT_FALSE(t->notes.empty());
  EXPECT_NE(t->notes.front().find("no NUMA node; hwloc assumed one"), std::string::npos) << t->notes.front();
  EXPECT_NE(format_text(*t, analyze(*t)).find("Note: hwloc 1.x XML: the file has no NUMA node"), std::string::npos);
  auto back = topology_from_json(topology_to_json(*t));
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->notes, t->notes);
  // A 2.x capture has nothing to note.
  auto v2 = load_topology_file(fixture("corpus/24em64t-2n6c2t-pci.xml"));
  ASSERT_TRUE(v2.ok()) << v2.status().message();
  EXPECT_TRUE(v2->notes.empty());
}

// libxml2 reads UTF-16 files, so hwloc does and collbench must: the same topology as UTF-8.
TEST(Discover, Utf16HwlocXmlLoadsLikeItsUtf8Twin) {
  if (!hwloc_available()) GTEST_SKIP() << "built without hwloc";
  std::ifstream in(fixture("corpus/24em64t-2n6c2t-pci.xml"), std::ios::binary);
  const std::string utf8((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(utf8.empty());
  std::string utf16 = "\xFF\xFE";  // UTF-16LE; the fixture is ASCII
  for (const char c : utf8) {
    utf16 += c;
    utf16 += '\0';
  }
  auto a = parse_topology(utf8, "utf8.xml");
  auto b = parse_topology(utf16, "utf16.xml");
  ASSERT_TRUE(a.ok()) << a.status().message();
  ASSERT_TRUE(b.ok()) << b.status().message();
  EXPECT_EQ(b->cpus.size(), a->cpus.size());
  EXPECT_EQ(b->numa_nodes.size(), a->numa_nodes.size());
  EXPECT_EQ(b->nics.size(), a->nics.size());
  // Everything after the "Source:" line, which names the file.
  const auto body = [](const Topology& t) {
    const std::string text = format_text(t, analyze(t));
    return text.substr(text.find('\n', text.find("Source:")));
  };
  EXPECT_EQ(body(*b), body(*a));
}

// hwloc's verdict, in one line: the release that refused, and how to see hwloc's reason.
TEST(Discover, HwlocRefusalIsOneLine) {
  if (!hwloc_available()) GTEST_SKIP() << "built without hwloc";
  const std::string version = hwloc_version_string();
  EXPECT_EQ(version.rfind("2.", 0), 0u) << version;
  const std::string xml = testing::read_text(fixture("corpus/fakecpukinds.xml"));
  std::string bad = xml;
  bad.replace(bad.find("type=\"Core\""), 11, "type=\"Gizmo\"");
  auto t = parse_topology(bad, "gizmo.xml");
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), ErrorCode::kUsage);
  EXPECT_EQ(t.status().message(),
            "gizmo.xml: hwloc " + version + " refused this hwloc XML (HWLOC_XML_VERBOSE=1 shows hwloc's reason)");
  // hwloc picks its XML parser once per process, so the minimal parser's case is tested on the
  // binary (tests/integration/topo_conformance_test.cpp).
}

TEST(Discover, UnreadableFileIsAnIoError) {
  const std::string path = ::testing::TempDir() + "/collbench-unreadable.xml";
  { std::ofstream(path) << "<system version=\"1\"/>"; }
  std::filesystem::permissions(path, std::filesystem::perms::none);
  if (std::ifstream(path).good()) {
    std::filesystem::remove(path);
    GTEST_SKIP() << "running as root: permissions do not stop reading";
  }
  expect_one_line_error(path, ErrorCode::kIo, "cannot read topology file");
  std::filesystem::remove(path);
}

TEST(Discover, NoGpusIsAnExplicitEmptyResult) {
  auto t = load_topology_file(fixture("bad/no_gpus_nccl.xml"));
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_TRUE(t->gpus.empty());
  EXPECT_EQ(t->nics.size(), 1u);
  const Analysis a = analyze(*t);
  EXPECT_TRUE(a.affinity.empty());
  EXPECT_EQ(a.notes.front(), "no GPUs found");
}

TEST(Discover, HwlocXmlWithoutHwlocSaysSo) {
  if (hwloc_available()) GTEST_SKIP() << "built with hwloc";
  auto t = load_topology_file(fixture("consumer_board.xml"));
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), ErrorCode::kUnsupported);
  EXPECT_NE(t.status().message().find("built without hwloc"), std::string::npos);
}

TEST(Discover, JsonFilesLoadLikeXml) {
  auto xml = load_topology_file(fixture("nccl_degraded_link.xml"));
  ASSERT_TRUE(xml.ok());
  const std::string path = ::testing::TempDir() + "/collbench-topo.json";
  { std::ofstream(path) << topology_to_json(*xml); }
  auto json = load_topology_file(path);
  std::filesystem::remove(path);
  ASSERT_TRUE(json.ok()) << json.status().message();
  EXPECT_EQ(testing::smi_cells(*json, analyze(*json)), testing::smi_cells(*xml, analyze(*xml)));
}

// Every prefix and a few byte flips of every fixture: an error or a topology, never a crash.
TEST(Discover, DamagedFilesNeverCrash) {
  std::vector<std::string> files;
  for (const char* name : {"eight_gpu_two_socket.xml", "consumer_board.xml", "nvlink_ring.xml", "nccl_nvswitch.xml",
                           "nccl_degraded_link.xml"}) {
    files.push_back(fixture(name));
  }
  files.push_back(testing::shared_fixture_dir() + "/hwloc-nvidiaDGX2.xml");
  files.push_back(testing::shared_fixture_dir() + "/nccl-aws-p4d-24xl-topo.xml");
  int loaded = 0;
  for (const std::string& path : files) {
    if (!testing::file_exists(path)) continue;
    const std::string text = testing::read_text(path);
    if (text.find("<topology") != std::string::npos && !hwloc_available()) continue;
    ++loaded;
    for (std::size_t cut = 0; cut < text.size(); cut += 1 + text.size() / 97) {
      auto t = parse_topology(text.substr(0, cut), "cut");
      if (t.ok()) analyze(*t);
      else EXPECT_EQ(t.status().message().find('\n'), std::string::npos);
    }
    for (std::size_t at = 7; at < text.size(); at += 1 + text.size() / 31) {
      for (char c : {'"', '<', '>', '/', 'x', '\0'}) {
        std::string damaged = text;
        damaged[at] = c;
        auto t = parse_topology(damaged, "flip");
        if (t.ok()) format_text(*t, analyze(*t));
      }
    }
  }
  EXPECT_GT(loaded, 0);
}

// The PCI functions of NVIDIA display class this kernel lists: what live discovery must find.
std::size_t nvidia_gpus_in_sysfs() {
  std::size_t n = 0;
  std::error_code ec;
  for (const auto& dev : std::filesystem::directory_iterator("/sys/bus/pci/devices", ec)) {
    const std::string vendor = testing::read_text((dev.path() / "vendor").string());
    const std::string cls = testing::read_text((dev.path() / "class").string());
    if (vendor.rfind("0x10de", 0) == 0 && (cls.rfind("0x0300", 0) == 0 || cls.rfind("0x0302", 0) == 0)) ++n;
  }
  return n;
}

TEST(Discover, LiveMachine) {
  if (!hwloc_available()) GTEST_SKIP() << "built without hwloc";
  auto t = discover_live();
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_EQ(t->source, SourceKind::kLive);
  EXPECT_FALSE(t->host.empty());
  EXPECT_FALSE(t->cpus.empty());
  EXPECT_FALSE(t->numa_nodes.empty());
  // This VM has no GPU, so 0 here; on a GPU machine, every NVIDIA display function.
  EXPECT_EQ(t->gpus.size(), nvidia_gpus_in_sysfs());
  const Analysis a = analyze(*t);
  const std::string text = format_text(*t, a);
  EXPECT_NE(text.find("GPUs: " + std::to_string(t->gpus.size())), std::string::npos);
  if (t->gpus.empty()) {
    EXPECT_NE(text.find("  - no GPUs found\n"), std::string::npos) << text;
  }
  if (t->nvlink.source == NvLinkSource::kNone) {
    EXPECT_NE(t->nvlink.note.find("no NVLink info"), std::string::npos);
  }
}

}  // namespace
}  // namespace collbench::topo
