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
  const Status s = check(std::string("<object type=\"Machine\" ") + kSets + "><object type=\"PU\" " + kSets +
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

TEST(HwlocXmlCheck, InfiniteBitmapsAreValid) {
  EXPECT_TRUE(check("<object type=\"Machine\" cpuset=\"0xf...f,0x00000001\" complete_cpuset=\"0xf...f\" "
                    "nodeset=\"0x1\" complete_nodeset=\"0x1\"/>")
                  .ok());
  // hwloc writes a zero word as nothing between commas.
  EXPECT_TRUE(check("<object type=\"Machine\" cpuset=\"0x00000001,,0x00010000\" complete_cpuset=\"0x1\" "
                    "nodeset=\"0x1\" complete_nodeset=\"0x1\"/>")
                  .ok());
}

}  // namespace
}  // namespace collbench::topo
