// The pre-check refuses only what hwloc 2.9 cannot survive, and nothing that hwloc reads.
#include "topo/hwloc_xml_check.hpp"

#include <gtest/gtest.h>

#include "topo/hwloc_type_name.hpp"

namespace collbench::topo {
namespace {

constexpr const char* kSets = R"(cpuset="0x1" complete_cpuset="0x1" nodeset="0x1" complete_nodeset="0x1")";

std::string machine(const std::string& inner) {
  return std::string("<object type=\"Machine\" ") + kSets + ">" + inner + "</object>";
}
std::string pu(unsigned index = 0) {
  return "<object type=\"PU\" os_index=\"" + std::to_string(index) + "\" " + kSets + "/>";
}

Status check(const std::string& body, const std::string& root = "<topology version=\"2.0\">") {
  auto xml = parse_xml(root + body + "</topology>");
  EXPECT_TRUE(xml.ok()) << xml.status().message();
  return xml.ok() ? check_hwloc_xml(*xml, "t.xml") : xml.status();
}
Status check_v1(const std::string& body) { return check(body, "<topology>"); }

void expect_refused(const Status& s, const std::string& fragment, const std::string& input) {
  EXPECT_EQ(s.code(), ErrorCode::kUsage) << input;
  EXPECT_NE(s.message().find(fragment), std::string::npos) << s.message();
  EXPECT_EQ(s.message().find('\n'), std::string::npos) << s.message();
}

TEST(HwlocXmlCheck, ReadsTypeNamesTheWayHwlocDoes) {
  EXPECT_EQ(hwloc_xml_type("Socket", false), HwlocXmlType::kPackage);
  EXPECT_EQ(hwloc_xml_type("node", false), HwlocXmlType::kNumaNode);
  EXPECT_EQ(hwloc_xml_type("NUMANode", false), HwlocXmlType::kNumaNode);
  EXPECT_EQ(hwloc_xml_type("L2d", false), HwlocXmlType::kCache);
  EXPECT_EQ(hwloc_xml_type("L1iCache", false), HwlocXmlType::kCache);
  EXPECT_EQ(hwloc_xml_type("Cache", false), HwlocXmlType::kCache);  // hwloc 1.x, with a depth attribute
  EXPECT_EQ(hwloc_xml_type("pu", false), HwlocXmlType::kPu);
  EXPECT_EQ(hwloc_xml_type("Group0", false), HwlocXmlType::kGroup);
  EXPECT_EQ(hwloc_xml_type("Tile", false), HwlocXmlType::kGroup);
  EXPECT_EQ(hwloc_xml_type("coproc", false), HwlocXmlType::kOsDevice);  // "co" is not "core"
  EXPECT_EQ(hwloc_xml_type("System", true), HwlocXmlType::kMachine);
  EXPECT_EQ(hwloc_xml_type("System", false), std::nullopt);  // hwloc: only at the root
  EXPECT_EQ(hwloc_xml_type("L6", false), std::nullopt);
  EXPECT_EQ(hwloc_xml_type("Gizmo", false), std::nullopt);
  EXPECT_EQ(hwloc_xml_type("P", false), std::nullopt);  // too short a prefix
}

// Odd but valid: hwloc 2.9 loads each of these, so the check must let them through.
TEST(HwlocXmlCheck, LetsThroughWhatHwlocReads) {
  const std::string numa = std::string("<object type=\"NUMANode\" os_index=\"0\" ") + kSets + "/>";
  const std::string v2[] = {
      machine(numa + pu()),
      machine(numa + pu() + "<object type=\"Bridge\"><object type=\"PCIDev\"/></object>") +
          "<distances2 nbobjs=\"1\"/>",
      // A matrix it does not fill, small enough for hwloc to allocate and then refuse.
      machine(numa + pu()) + "<distances2 type=\"NUMANode\" nbobjs=\"5792\" kind=\"5\" indexing=\"os\">"
                             "<u64values length=\"3\">1 2</u64values></distances2>",
      // Type aliases hwloc accepts.
      machine(numa + "<object type=\"Socket\" " + kSets + ">" + pu() + "</object>"),
      machine(numa + "<object type=\"L2d\" depth=\"2\" cache_type=\"1\" " + kSets + ">" + pu() + "</object>"),
      // hwloc checks types, parents and sets itself, and refuses cleanly.
      machine(numa + pu() + "<object type=\"Gizmo\"/>"),
      machine(numa + "<object os_index=\"3\"/>"),
      machine(numa + pu()) + machine(numa + pu()),
      "",
      machine("<object type=\"PU\" os_index=\"0\" cpuset=\"0x1\" complete_cpuset=\"0x1\"/>"),  // no nodesets at all
      machine(numa + "<object type=\"OSDev\" osdev_type=\"9\"/><object type=\"Bridge\" bridge_type=\"2-1\"/>"),
      // A root cpuset outside complete_cpuset, with PUs: hwloc fixes it up.
      "<object type=\"Machine\" cpuset=\"0x1\" complete_cpuset=\"0x2\" nodeset=\"0x1\" complete_nodeset=\"0x1\">" +
          pu() + "</object>",
      // Special children hwloc imports, and what follows the child objects (hwloc refuses it, no leak).
      machine("<info name=\"a\" value=\"b\">text</info><userdata length=\"1\">x</userdata>" + numa + pu()),
      machine(numa + pu() + "<info name=\"a\" value=\"b\"/>"),
      machine("<object type=\"Package\" " + std::string(kSets) + "><info name=\"a\" bogus=\"\"/>" + pu() + "</object>"),
      // Only the root's allowed sets are parsed.
      machine(std::string("<object type=\"PU\" os_index=\"0\" allowed_cpuset=\",0x1\" ") + kSets + "/>"),
      // The root's failures are freed with the topology.
      std::string("<object type=\"Machine\" ") + kSets + "><userdata length=\"9\">x</userdata></object>",
      std::string("<object type=\"Machine\" cpuset=\"0x00000001,,0x00010000\" complete_cpuset=\"0xf...f\" ") +
          "nodeset=\"0x1\" complete_nodeset=\"0x1\"/>",
      machine(numa + pu()) + "<cpukind cpuset=\"0x1\"/><memattr name=\"x\"><memattr_value initiator_cpuset=\"0x1\"/>"
                             "</memattr>",
      // White space between elements is no stop for hwloc; the PU before a comment is read.
      std::string("<object type=\"Machine\" cpuset=\"0x1\" complete_cpuset=\"0x2\" nodeset=\"0x1\" ") +
          "complete_nodeset=\"0x1\"> \n\t<object type=\"PU\" os_index=\"0\" cpuset=\"0x1\" complete_cpuset=\"0x1\"/>"
          "<!-- c --></object>",
      // hwloc stops at an unknown tag after the root object.
      machine(numa + pu()) + "<future/><distances2 nbobjs=\"70000\"/>",
  };
  for (const std::string& body : v2) {
    const Status s = check(body);
    EXPECT_TRUE(s.ok()) << body << ": " << s.message();
  }
  const std::string v1[] = {
      // hwloc 1.x: no nodesets (hwloc adds a NUMA node), "Cache" with a depth, online_cpuset.
      "<object type=\"Machine\" cpuset=\"0x3\" complete_cpuset=\"0x3\" online_cpuset=\"0x3\">"
      "<object type=\"Socket\" cpuset=\"0x3\" complete_cpuset=\"0x3\"><object type=\"Cache\" depth=\"2\" "
      "cpuset=\"0x3\" complete_cpuset=\"0x3\"><object type=\"PU\" os_index=\"0\" cpuset=\"0x1\" "
      "complete_cpuset=\"0x1\"/></object></object></object>",
      // Its distances, as hwloc 1.x wrote them.
      "<object type=\"Machine\" cpuset=\"0x3\" complete_cpuset=\"0x3\"><distances nbobjs=\"2\" relative_depth=\"1\" "
      "latency_base=\"10.0\"><latency value=\"1\"/><latency value=\"2\"/><latency value=\"2\"/><latency value=\"1\"/>"
      "</distances></object>",
      // A NUMA node root with all its sets.
      std::string("<object type=\"NUMANode\" os_index=\"0\" ") + kSets + ">" + pu() + "</object>",
      // hwloc 1.x checks the sets of other objects itself.
      "<object type=\"Machine\" cpuset=\"0x1\" nodeset=\"0x1\"/>",
  };
  for (const std::string& body : v1) {
    const Status s = check_v1(body);
    EXPECT_TRUE(s.ok()) << body << ": " << s.message();
  }
}

TEST(HwlocXmlCheck, RefusesWhatHwlocCannotSurvive) {
  const std::string numa = std::string("<object type=\"NUMANode\" os_index=\"0\" ") + kSets + "/>";
  const struct {
    std::string body;
    std::string message;
  } v2[] = {
      // hwloc PR #783: complete sets used without a check.
      {"<object type=\"Machine\" cpuset=\"0x1\" nodeset=\"0x1\" complete_nodeset=\"0x1\"/>",
       "line 1: Machine object with a cpuset but no complete_cpuset: hwloc 2.9 crashes on it (hwloc PR #783)"},
      {machine(numa + "<object type=\"PU\" os_index=\"1\" cpuset=\"0x2\" nodeset=\"0x1\" complete_nodeset=\"0x1\"/>"),
       "PU object with a cpuset but no complete_cpuset"},
      {machine("<object type=\"node\" os_index=\"0\" cpuset=\"0x1\" complete_cpuset=\"0x1\" nodeset=\"0x1\"/>"),
       "node object with a nodeset but no complete_nodeset"},
      // The assert in hwloc_bitmap_sscanf.
      {"<object type=\"Machine\" cpuset=\",,0x3\" complete_cpuset=\"0x3\" nodeset=\"0x1\" complete_nodeset=\"0x1\"/>",
       "cpuset ',,0x3' starts with a comma"},
      {std::string("<object type=\"Machine\" allowed_nodeset=\",0x1\" ") + kSets + "/>",
       "allowed_nodeset ',0x1' starts with a comma"},
      {machine(numa + pu()) + "<cpukind cpuset=\",0x1\"/>", "cpuset ',0x1' starts with a comma"},
      {machine(numa + pu()) + "<memattr name=\"x\"><memattr_value initiator_cpuset=\",0x1\"/></memattr>",
       "initiator_cpuset ',0x1' starts with a comma"},
      // hwloc PR #782.
      {machine(numa + pu()) + "<distances2 nbobjs=\"65536\"/>", "nbobjs 65536 is above 65535"},
      {machine(numa + pu()) + "<support name=\"x\"/><distances2hetero nbobjs=\"4294967295\"/>",
       "nbobjs 4294967295 is above 65535"},
      // Found by fuzzing in CI: 65535^2 values of 8 bytes, allocated before hwloc counts them.
      {machine(numa + pu()) + "<distances2 type=\"NUMANode\" nbobjs=\"65535\" kind=\"5\" indexing=\"os\">"
                              "<u64values length=\"3\">1 2</u64values><u64values length=\"1\"> 3 </u64values>"
                              "</distances2>",
       "<distances2> nbobjs 65535 with 3 values: hwloc 2.9 would first allocate a 32767 MiB matrix"},
      {machine(numa + pu()) + "<distances2hetero nbobjs=\"5793\"/>",
       "<distances2hetero> nbobjs 5793 with 0 values: hwloc 2.9 would first allocate a 256 MiB matrix"},
      // hwloc PR #781: a special child hwloc fails on, before the object is inserted.
      {machine(numa + "<object type=\"Package\" " + kSets + "><info name=\"a\" bogus=\"b\"/>" + pu() + "</object>"),
       "<info> with an attribute other than name and value: hwloc 2.9 leaks the object (hwloc PR #781)"},
      {machine(numa + "<object type=\"Package\" " + kSets + "><page_type size=\"4096\"/>" + pu() + "</object>"),
       "<page_type> inside an object other than a NUMANode"},
      {machine("<object type=\"NUMANode\" os_index=\"0\" " + std::string(kSets) +
               "><page_type size=\"1\" huge=\"1\"/></object>" + pu()),
       "<page_type> with an attribute other than size and count"},
      {machine(numa + "<object type=\"Core\" " + kSets + "><userdata length=\"5\">x</userdata>" + pu() + "</object>"),
       "<userdata> whose content is not 5 characters long"},
      {machine(numa + "<object type=\"Core\" " + kSets + "><distances nbobjs=\"1\"/>" + pu() + "</object>"),
       "<distances> is not a child hwloc imports there"},
      // Found by fuzzing: hwloc removes the emptied root, then reads it.
      {"<object type=\"Machine\" cpuset=\"0x1\" complete_cpuset=\"0x2\" nodeset=\"0x1\" complete_nodeset=\"0x1\"/>",
       "root cpuset '0x1' shares no CPU with complete_cpuset '0x2' and hwloc reads no PU"},
      // Found by fuzzing: hwloc's libxml2 import stops at text or a comment, so the PU after it
      // is never read and the root is emptied the same way.
      {"<object type=\"Machine\" cpuset=\"0x1\" complete_cpuset=\"0x2\" nodeset=\"0x1\" complete_nodeset=\"0x1\">"
       "x<object type=\"PU\" os_index=\"0\" cpuset=\"0x1\" complete_cpuset=\"0x1\"/></object>",
       "and hwloc reads no PU"},
      {"<object type=\"Machine\" cpuset=\"0x1\" complete_cpuset=\"0x2\" nodeset=\"0x1\" complete_nodeset=\"0x1\">"
       "<object type=\"Package\"><!-- c --><object type=\"PU\" os_index=\"0\" cpuset=\"0x1\" "
       "complete_cpuset=\"0x1\"/></object></object>",
       "and hwloc reads no PU"},
      // Found by fuzzing: text hwloc_bitmap_sscanf() cannot read leaves the set empty, the same crash.
      {"<object type=\"Machine\" cpuset=\"0x1\" complete_cpuset=\"0x00000002```\" nodeset=\"0x1\" "
       "complete_nodeset=\"0x1\"/>",
       "root cpuset '0x1' shares no CPU with complete_cpuset '0x00000002```'"},
      {"<object type=\"Machine\" cpuset=\"0x1\" complete_cpuset=\"0x1,\" nodeset=\"0x1\" complete_nodeset=\"0x1\"/>",
       "root cpuset '0x1' shares no CPU with complete_cpuset '0x1,'"},
      // Found by fuzzing: a root without a type is hwloc's Machine, with the same crash.
      {"<object cpuset=\"0x1\" nodeset=\"0x1\" complete_nodeset=\"0x1\"/>",
       "Machine object with a cpuset but no complete_cpuset"},
      // Memory: hwloc sizes bitmaps by the index.
      {machine("<object type=\"NUMANode\" " + std::string(kSets) + "/>" + pu()), "NUMANode without os_index"},
      {machine(numa + pu(4000000000u)), "PU os_index 4000000000"},
      {machine(numa + "<object type=\"PU\" os_index=\"-1\" " + kSets + "/>"), "PU os_index -1"},
  };
  for (const auto& c : v2) expect_refused(check(c.body), c.message, c.body);

  const struct {
    std::string body;
    std::string message;
  } v1[] = {
      {"<object type=\"NUMANode\" os_index=\"0\" cpuset=\"0x1\" complete_cpuset=\"0x1\" nodeset=\"0x1\"/>",
       "hwloc 1.x root NUMANode without complete_nodeset: hwloc 2.9 uses it after freeing it"},
      {"<object type=\"Machine\" cpuset=\"0x3\" complete_cpuset=\"0x3\"><distances nbobjs=\"2147483648\" "
       "relative_depth=\"1\" latency_base=\"10\"><latency value=\"1\"/></distances></object>",
       "nbobjs 2147483648 is 2^31 or more"},
      // Found by fuzzing: a matrix of 227783308^2 floats, allocated before hwloc counts the values.
      {"<object type=\"Machine\" cpuset=\"0x3\" complete_cpuset=\"0x3\"><distances nbobjs=\"0227783308\" "
       "relative_depth=\"1\" latency_base=\"10\"><latency value=\"1\"/></distances></object>",
       "nbobjs 0227783308 with 1 latencies: hwloc 2.9 would first allocate a"},
      {"<object type=\"Machine\" cpuset=\"0x3\" complete_cpuset=\"0x3\"><object type=\"Socket\" cpuset=\"0x3\" "
       "complete_cpuset=\"0x3\"><distances nbobjs=\"2\" relative_depth=\"1\" latency_base=\"10\"><latency value=\"1\"/>"
       "</distances></object></object>",
       "<distances> with fewer than 2x2 latency children"},
      // Found by fuzzing, and lstopo 2.9 crashes the same: a 1.x NUMA node without complete_cpuset.
      {"<object type=\"Machine\" cpuset=\"0x1\" complete_cpuset=\"0x1\" nodeset=\"0x1\" complete_nodeset=\"0x1\">"
       "<object type=\"NUMANode\" os_index=\"0\" cpuset=\"0x1\" nodeset=\"0x1\" complete_nodeset=\"0x1\"/></object>",
       "hwloc 1.x NUMANode without complete_cpuset"},
      {"<object type=\"Machine\" cpuset=\"0x1\" complete_cpuset=\"0x1\" nodeset=\"0x1\" complete_nodeset=\"0x1\">"
       "<object type=\"NUMANode\" os_index=\"0\" nodeset=\"0x1\" complete_nodeset=\"0x1\"/></object>",
       "hwloc 1.x NUMANode without complete_cpuset"},
  };
  for (const auto& c : v1) expect_refused(check_v1(c.body), c.message, c.body);
}

// Debian's hwloc imports through libxml2: it crashes on a DOCTYPE without a system id (hwloc
// PR #786), and libxml2 leaks on an encoding it cannot convert.
TEST(HwlocXmlCheck, PrologChecksOnlyWhatCrashesOrLeaks) {
  const std::string root = "<topology version=\"2.0\"/>";
  for (const std::string ok :
       {"", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n",
        "<?xml version='1.0' encoding='utf-8'?><!-- c -->\n<!DOCTYPE topology SYSTEM \"hwloc2.dtd\">\n",
        "<?xml version=\"1.0\"?><!DOCTYPE topology SYSTEM 'hwloc.dtd'>", "<!DOCTYPE topology SYSTEM \"\">",
        "<!DOCTYPE topology SYSTEM \"hwloc2.dtd\" [<!ENTITY e \"x\">]>",
        "<!DOCTYPE topology PUBLIC \"-//x\" \"hwloc.dtd\">"}) {
    const Status s = check_hwloc_xml_prolog(ok + root, "t.xml");
    EXPECT_TRUE(s.ok()) << ok << ": " << s.message();
  }
  const struct {
    std::string prolog;
    std::string message;
  } cases[] = {
      {"<?xml version=\"1.0\" encoding=\"UTF-0\"?>", "encoding 'UTF-0' is unknown to iconv"},
      {"<!DOCTYPE topology>", "a DOCTYPE without a system id"},
      {"<?xml version=\"1.0\"?><!-- c -->\n<!DOCTYPE topology>", "a DOCTYPE without a system id"},
      {"<!DOCTYPE topology [<!ENTITY e \"SYSTEM\">]>", "a DOCTYPE without a system id"},
  };
  for (const auto& c : cases) expect_refused(check_hwloc_xml_prolog(c.prolog + root, "t.xml"), c.message, c.prolog);
}

TEST(HwlocXmlCheck, FormatVersionAsHwlocReadsIt) {
  const auto major = [](const std::string& text) { return hwloc_xml_major(parse_xml(text).value()); };
  EXPECT_EQ(major("<topology/>"), 1);
  EXPECT_EQ(major("<topology version=\"2.0\"/>"), 2);
  EXPECT_EQ(major("<topology version=\"3.0\"/>"), 3);
  EXPECT_EQ(major("<topology version=\"3\"/>"), 1);  // hwloc wants "M.m", else it reads 1.x
  EXPECT_EQ(major("<root/>"), 0);
}

}  // namespace
}  // namespace collbench::topo
