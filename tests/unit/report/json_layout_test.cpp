#include "report/documents/json_layout.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace collbench::report {
namespace {

TEST(JsonLayout, ShortValuesStayOnOneLineLongOnesPutEachMemberOnItsOwn) {
  const Json doc = Json::parse(R"({"schema": "x", "rule": {"a": 1, "b": [1, 2]},
      "figures": [{"label": "rank 0", "value": 0.5}, {"label": "rank 1", "value": 1e-7}], "empty": [], "none": {}})");
  EXPECT_EQ(dump_lines(doc, 60), "{\n"
                                 "  \"schema\": \"x\",\n"
                                 "  \"rule\": {\"a\":1,\"b\":[1,2]},\n"
                                 "  \"figures\": [\n"
                                 "    {\"label\":\"rank 0\",\"value\":0.5},\n"
                                 "    {\"label\":\"rank 1\",\"value\":1e-07}\n"
                                 "  ],\n"
                                 "  \"empty\": [],\n"
                                 "  \"none\": {}\n"
                                 "}\n");
  EXPECT_EQ(dump_lines(doc, 1000), doc.dump() + "\n");
}

TEST(JsonLayout, ReadsBackAsTheSameValueWithEveryKindOfScalar) {
  Json doc = Json::parse(R"({"big": -9223372036854775808, "huge": 18446744073709551615, "third": 0.3333333333333333,
      "quote": "say \"hi\"\\n", "control": "a\u0001b", "utf8": "µs", "flags": [true, false, null]})");
  for (const std::size_t width : {std::size_t{1}, std::size_t{20}, std::size_t{10000}}) {
    EXPECT_EQ(Json::parse(dump_lines(doc, width)), doc) << width;
  }
}

TEST(JsonLayout, NoOneLineValueIsWiderThanTheWidth) {
  // Escapes and long numbers are where a length estimate goes wrong: each must still fit.
  Json doc = Json::object();
  for (int i = 0; i < 50; ++i) {
    doc["figures"].push_back(
        {{"label", "rank \"" + std::to_string(i) + "\"\t"}, {"value", 1.0 / (i + 3)}, {"count", -1234567890123LL * i}});
  }
  const std::size_t width = 80;
  std::istringstream lines(dump_lines(doc, width));
  std::size_t longest = 0;
  for (std::string line; std::getline(lines, line);) {
    longest = std::max(longest, line.size() - line.find_first_not_of(' '));
  }
  EXPECT_LE(longest, width);
  EXPECT_GT(longest, width / 2);  // the figures did go on one line each
}

TEST(JsonLayout, InvalidUtf8IsReplacedAsTheDocumentsDumpDoes) {
  const Json doc = {{"host", std::string("node\xff")}};
  EXPECT_EQ(dump_lines(doc, 100), doc.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n");
}

}  // namespace
}  // namespace collbench::report
