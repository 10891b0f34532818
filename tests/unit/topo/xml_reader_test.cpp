#include "topo/xml_reader.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>

namespace collbench::topo {
namespace {

TEST(XmlReader, ElementsAttributesAndText) {
  auto root = parse_xml(
      "<?xml version=\"1.0\"?>\n<!DOCTYPE t SYSTEM \"t.dtd\">\n<!-- c -->\n"
      "<a x=\"1\" y='two'>\n  <b/>\n  <c z=\"&lt;&amp;&#65;&#x42;\">text &gt; more<![CDATA[<raw>]]></c>\n</a>\n<!-- end -->\n");
  ASSERT_TRUE(root.ok()) << root.status().message();
  EXPECT_EQ(root->name, "a");
  EXPECT_EQ(root->attribute_or("x", ""), "1");
  EXPECT_EQ(root->attribute_or("y", ""), "two");
  EXPECT_EQ(root->attribute("missing"), nullptr);
  ASSERT_EQ(root->children.size(), 2u);
  EXPECT_EQ(root->children[0].name, "b");
  EXPECT_EQ(root->children[1].attribute_or("z", ""), "<&AB");
  EXPECT_EQ(root->children[1].text, "text > more<raw>");
  EXPECT_EQ(root->children[1].line, 6);
}

TEST(XmlReader, CommentsBetweenElementsAreSkipped) {
  auto root = parse_xml("<s><c a=\"1\"/> <!-- between --> <c a=\"2\"/></s>");
  ASSERT_TRUE(root.ok());
  EXPECT_EQ(root->children.size(), 2u);
}

TEST(XmlReader, Utf8ByteOrderMarkIsAccepted) { EXPECT_TRUE(parse_xml("\xEF\xBB\xBF<a/>").ok()); }

// What hwloc's libxml2 import stops at: anything but elements and raw white space.
TEST(XmlReader, OtherContentIsMarkedWhereItBegins) {
  const auto first_other = [](const std::string& xml) {
    auto root = parse_xml(xml);
    EXPECT_TRUE(root.ok()) << xml;
    return root.ok() ? root->children_before_other_content : 0;
  };
  EXPECT_EQ(first_other("<a> <b/>\n\t<c/> </a>"), SIZE_MAX);
  EXPECT_EQ(first_other("<a><b/>x<c/></a>"), 1u);
  EXPECT_EQ(first_other("<a><b/><!-- c --><c/></a>"), 1u);
  EXPECT_EQ(first_other("<a><?pi x?><b/></a>"), 0u);
  EXPECT_EQ(first_other("<a><b/><c/><![CDATA[ ]]></a>"), 2u);
  EXPECT_EQ(first_other("<a><b/>&#32;<c/></a>"), 1u);  // a reference, even to a space
  auto nested = parse_xml("<a><b>x<c/></b><d/></a>");
  ASSERT_TRUE(nested.ok());
  EXPECT_EQ(nested->children_before_other_content, SIZE_MAX);
  EXPECT_EQ(nested->children[0].children_before_other_content, 0u);
}

// XML 1.0 Appendix F: how libxml2 tells UTF-16 and UTF-32 documents, with or without a mark.
TEST(XmlReader, WideEncodingsBecomeUtf8) {
  using namespace std::string_literals;
  const std::pair<std::string, const char*> cases[] = {
      {"\xFF\xFE<\0?\0x\0?\0>\0<\0a\0/\0>\0"s, "UTF-16LE with a mark"},
      {"\xFE\xFF\0<\0?\0x\0?\0>\0<\0a\0/\0>"s, "UTF-16BE with a mark"},
      {"<\0?\0x\0?\0>\0<\0a\0/\0>\0"s, "UTF-16LE without"},
      {"\0<\0?\0x\0?\0>\0<\0a\0/\0>"s, "UTF-16BE without"},
      {"\xFF\xFE\0\0<\0\0\0?\0\0\0x\0\0\0?\0\0\0>\0\0\0<\0\0\0a\0\0\0/\0\0\0>\0\0\0"s, "UTF-32LE with a mark"},
  };
  for (const auto& [bytes, what] : cases) {
    auto text = wide_xml_as_utf8(bytes);
    ASSERT_TRUE(text.ok()) << what << ": " << text.status().message();
    ASSERT_TRUE(text->has_value()) << what;
    EXPECT_EQ(**text, "<?x?><a/>") << what;
  }
  // UTF-8 and ASCII stay as they are.
  for (const std::string same : {"<a/>", "\xEF\xBB\xBF<a/>", "", "<"}) {
    auto text = wide_xml_as_utf8(same);
    ASSERT_TRUE(text.ok());
    EXPECT_FALSE(text->has_value()) << same;
  }
  // A lone high surrogate is not UTF-16.
  auto bad = wide_xml_as_utf8("\xFF\xFE<\0\0\xD8"s);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), ErrorCode::kUsage);
  EXPECT_NE(bad.status().message().find("not valid UTF-16LE at byte 2"), std::string::npos) << bad.status().message();
}

void expect_error(const std::string& xml, const std::string& fragment) {
  auto root = parse_xml(xml);
  ASSERT_FALSE(root.ok()) << xml;
  EXPECT_EQ(root.status().code(), ErrorCode::kUsage);
  EXPECT_NE(root.status().message().find(fragment), std::string::npos) << root.status().message();
}

TEST(XmlReader, MalformedInputGivesLineAndReason) {
  expect_error("<a>\n<b>\n</a>", "line 3: </a> does not close <b>");
  expect_error("<a x=1/>", "expected a quoted attribute value");
  expect_error("<a x=\"1\" x=\"2\"/>", "duplicate attribute x");
  expect_error("<a>", "unexpected end of file inside <a>");
  expect_error("<a/><b/>", "unexpected content after the root element");
  expect_error("<a>&nbsp;</a>", "unknown entity &nbsp;");
  expect_error("<a x=\"<\"/>", "'<' inside an attribute value");
  expect_error("", "expected the root element");
  expect_error("just text", "expected the root element");
  expect_error("<!-- never closed", "unterminated comment");
  expect_error("</a>", "expected the root element");
  expect_error("<a x=\"1\"y=\"2\"/>", "expected whitespace");
  expect_error("<a>&#0;</a>", "bad character reference");
  expect_error(std::string("<a>\0</a>", 8), "line 1: control character 0 is not allowed in XML");
  expect_error("<a>\n\n\x01</a>", "line 3: control character 1");
}

TEST(XmlReader, DepthAndSizeAreBounded) {
  std::string deep;
  for (int i = 0; i < 200; ++i) deep += "<a>";
  for (int i = 0; i < 200; ++i) deep += "</a>";
  expect_error(deep, "nested deeper than 128");

  XmlLimits small;
  small.max_bytes = 10;
  auto big = parse_xml("<a>0123456789</a>", small);
  ASSERT_FALSE(big.ok());
  EXPECT_NE(big.status().message().find("larger than 10 bytes"), std::string::npos);

  XmlLimits few;
  few.max_elements = 2;
  EXPECT_FALSE(parse_xml("<a><b/><c/></a>", few).ok());
}

TEST(XmlReader, PeekReadsOnlyTheRoot) {
  // The rest of the document is broken, but the root start tag is enough.
  auto root = peek_xml_root("<?xml version=\"1.0\"?>\n<topology version=\"3.0\">\n<object");
  ASSERT_TRUE(root.ok()) << root.status().message();
  EXPECT_EQ(root->name, "topology");
  EXPECT_EQ(root->attribute_or("version", ""), "3.0");
  EXPECT_TRUE(root->children.empty());
}

}  // namespace
}  // namespace collbench::topo
