#include "topo/hwloc_xml_check.hpp"

#include <gtest/gtest.h>

namespace collbench::topo {
namespace {

constexpr const char* kSets =
    R"(cpuset="0x1" complete_cpuset="0x1" nodeset="0x1" complete_nodeset="0x1")";

Status check(const std::string& body) {
  auto root = parse_xml("<topology version=\"2.0\">" + body + "</topology>");
  EXPECT_TRUE(root.ok()) << root.status().message();
  return root.ok() ? check_hwloc_xml(*root, "t.xml") : root.status();
}

TEST(HwlocXmlCheck, AcceptsCpuAndIoObjects) {
  const Status s = check(std::string("<object type=\"Machine\" ") + kSets + "><object type=\"PU\" os_index=\"0\" " + kSets +
                         "/><object type=\"Bridge\"><object type=\"PCIDev\"/></object></object>"
                         "<distances2 nbobjs=\"1\"/><support name=\"x\"/>");
  EXPECT_TRUE(s.ok()) << s.message();
}

TEST(HwlocXmlCheck, RejectsWhatHwlocCannotSurvive) {
  const struct {
    std::string body;
    std::string message;
  } cases[] = {
      {"<object type=\"Machine\" cpuset=\"0x1\" nodeset=\"0x1\" complete_nodeset=\"0x1\"/>",
       "Machine object without complete_cpuset"},
      {std::string("<object type=\"Machine\" ") + kSets + "><object " + kSets + "/></object>", "<object> without a type"},
      {std::string("<object type=\"Machine\" ") + kSets + "><object type=\"Gizmo\"/></object>", "unknown object type 'Gizmo'"},
      {"<object type=\"Machine\" cpuset=\"0xzz\" complete_cpuset=\"0x1\" nodeset=\"0x1\" complete_nodeset=\"0x1\"/>",
       "bad cpuset '0xzz'"},
      {std::string("<object type=\"Machine\" ") + kSets + " allowed_cpuset=\"1\"/>", "bad allowed_cpuset '1'"},
      {std::string("<object type=\"Machine\" ") + kSets + " allowed_nodeset=\",\"/>", "bad allowed_nodeset ','"},
      // Found by fuzzing: hwloc 2.9 crashes loading a root whose cpuset is not within complete_cpuset.
      {"<object type=\"Machine\" cpuset=\"0x1\" complete_cpuset=\"0x2\" nodeset=\"0x1\" complete_nodeset=\"0x1\"/>",
       "cpuset '0x1' is not within complete_cpuset '0x2'"},
      {"<object type=\"Machine\" cpuset=\"0xf...f\" complete_cpuset=\"0xffffffff\" nodeset=\"0x1\" "
       "complete_nodeset=\"0x1\"/>",
       "cpuset '0xf...f' is not within complete_cpuset '0xffffffff'"},
      {"<object type=\"Machine\" cpuset=\"0x1\" complete_cpuset=\"0x1\" nodeset=\"0x1,,0x0\" "
       "complete_nodeset=\"0x1\"/>",
       "nodeset '0x1,,0x0' is not within complete_nodeset '0x1'"},
      // Found by fuzzing: hwloc 2.9's bitmap parser asserts (aborts) on a leading empty word.
      {"<object type=\"Machine\" cpuset=\",,0x00000003\" complete_cpuset=\"0x3\" nodeset=\"0x1\" "
       "complete_nodeset=\"0x1\"/>",
       "bad cpuset ',,0x00000003'"},
      // Found by fuzzing: hwloc 2.9 allocates a 512 MiB bitmap for a PU or NUMA node numbered
      // near 2^32, or without a number.
      {std::string("<object type=\"Machine\" ") + kSets + "><object type=\"NUMANode\" " + kSets + "/></object>",
       "NUMANode object without os_index"},
      {std::string("<object type=\"Machine\" ") + kSets + "><object type=\"PU\" os_index=\"4000000000\" " + kSets +
           "/></object>",
       "PU os_index '4000000000' is not a number below 1048576"},
      // Found by fuzzing: hwloc copies these into C enums unchecked; reading one is undefined.
      {std::string("<object type=\"Machine\" ") + kSets + "><object type=\"OSDev\" osdev_type=\"9\"/></object>",
       "osdev_type '9' is not an hwloc 2.x OS device type"},
      {std::string("<object type=\"Machine\" ") + kSets + "><object type=\"Bridge\" bridge_type=\"2-1\"/></object>",
       "bridge_type '2-1' is not an hwloc 2.x bridge type"},
      {"", "exactly one top-level <object> (found 0)"},
      {std::string("<object type=\"Machine\" ") + kSets + "/><object type=\"Machine\" " + kSets + "/>",
       "exactly one top-level <object> (found 2)"},
  };
  for (const auto& c : cases) {
    const Status s = check(c.body);
    EXPECT_EQ(s.code(), ErrorCode::kUsage) << c.body;
    EXPECT_NE(s.message().find(c.message), std::string::npos) << s.message();
  }
}

// Found by fuzzing: hwloc 2.9 leaks the object whose <info> or other special child it fails to
// import (hwloc PR #781). Only what hwloc imports may appear before an object's child objects.
TEST(HwlocXmlCheck, RejectsObjectChildrenHwlocWouldLeakOn) {
  const std::string machine = std::string("<object type=\"Machine\" ") + kSets + ">";
  const std::string numa = std::string("<object type=\"NUMANode\" os_index=\"0\" ") + kSets + ">";
  const struct {
    std::string body;
    std::string message;
  } cases[] = {
      {machine + "<info name=\"a\" bogus=\"b\"/></object>", "<info> with an unknown attribute 'bogus'"},
      {machine + "<info name=\"a\" value=\"b\">text</info></object>", "<info> with content"},
      {machine + "<object type=\"PU\" os_index=\"0\" " + kSets + "/><info name=\"a\" value=\"b\"/></object>",
       "<info> after the child objects of a Machine"},
      {machine + "<object type=\"Package\" " + kSets + "><page_type size=\"4096\"/></object></object>",
       "<page_type> inside a Package object is not supported"},
      {machine + numa + "<page_type size=\"4096\" count=\"1\" huge=\"1\"/></object></object>",
       "<page_type> with an unknown attribute 'huge'"},
      {machine + "<userdata length=\"1\">x</userdata></object>", "<userdata> inside a Machine object is not supported"},
  };
  for (const auto& c : cases) {
    const Status s = check(c.body);
    EXPECT_EQ(s.code(), ErrorCode::kUsage) << c.body;
    EXPECT_NE(s.message().find(c.message), std::string::npos) << s.message();
  }
  // What hwloc writes itself stays valid.
  const Status s = check(machine + "<info name=\"HostName\" value=\"n\"/><page_type size=\"4096\" count=\"0\"/>" +
                         numa + "<page_type size=\"2097152\" count=\"4\"/></object></object>");
  EXPECT_TRUE(s.ok()) << s.message();
}

// Found by fuzzing: Debian's hwloc imports through libxml2, and hwloc 2.9 crashes there on a DOCTYPE
// without a system id (hwloc PR #786) and leaks on an encoding libxml2 does not know.
TEST(HwlocXmlCheck, PrologAsHwlocWritesIt) {
  const std::string root = "<topology version=\"2.0\"/>";
  for (const std::string ok : {"", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n",
                               "<?xml version='1.0' encoding='utf-8'?><!-- c -->\n<!DOCTYPE topology SYSTEM \"hwloc2.dtd\">\n",
                               "<?xml version=\"1.0\"?><!DOCTYPE topology SYSTEM 'hwloc.dtd'>"}) {
    const Status s = check_hwloc_xml_prolog(ok + root, "t.xml");
    EXPECT_TRUE(s.ok()) << ok << ": " << s.message();
  }
  const struct {
    std::string prolog;
    std::string message;
  } cases[] = {
      {"<?xml version=\"1.0\" encoding=\"UTF-0\"?>", "encoding 'UTF-0'"},
      {"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>", "encoding 'ISO-8859-1'"},
      {"<!DOCTYPE topology>", "a DOCTYPE needs a system id"},
      {"<?xml version=\"1.0\"?><!-- c -->\n<!DOCTYPE topology>", "a DOCTYPE needs a system id"},
      {"<!DOCTYPE topology SYSTEM \"\">", "a DOCTYPE needs a system id"},
      {"<!DOCTYPE topology SYSTEM \"hwloc2.dtd\" [<!ENTITY e \"x\">]>", "no internal subset"},
  };
  for (const auto& c : cases) {
    const Status s = check_hwloc_xml_prolog(c.prolog + root, "t.xml");
    EXPECT_EQ(s.code(), ErrorCode::kUsage) << c.prolog;
    EXPECT_NE(s.message().find(c.message), std::string::npos) << s.message();
  }
}

TEST(HwlocXmlCheck, InfiniteBitmapsAreValid) {
  EXPECT_TRUE(check("<object type=\"Machine\" cpuset=\"0xf...f,0x00000001\" complete_cpuset=\"0xf...f\" "
                    "nodeset=\"0x1\" complete_nodeset=\"0x1\"/>")
                  .ok());
  // hwloc writes a zero word as nothing between commas.
  EXPECT_TRUE(check("<object type=\"Machine\" cpuset=\"0x00000001,,0x00010000\" complete_cpuset=\"0x1,0x0,0xffffffff\" "
                    "nodeset=\"0x1\" complete_nodeset=\"0x1\"/>")
                  .ok());
}

}  // namespace
}  // namespace collbench::topo
