// `collbench validate FILE...`: one line per file, and the worst file's exit code (0 when all
// are valid; 2 for a file that cannot be read or breaks its schema: docs/json-schema.md).
#include "bench/cli/commands/validate_command.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "tests/unit/cli/command_test_files.hpp"

namespace collbench::cli {
namespace {

using test_files::fixture;

struct Validated {
  int code;
  std::string out;
  std::string err;
};

Validated validate(const std::vector<std::string>& files) {
  std::ostringstream out;
  ::testing::internal::CaptureStderr();
  const int code = validate_command(files, out);
  return {code, out.str(), ::testing::internal::GetCapturedStderr()};
}

TEST(ValidateCommandExit, ValidDocumentsOfEachKindAreZero) {
  const std::string run = fixture("reports/base.json");
  const std::string preflight = test_files::preflight_document();
  const Validated v = validate({run, preflight});
  EXPECT_EQ(v.code, 0) << v.err;
  EXPECT_EQ(v.err, "");
  EXPECT_NE(v.out.find(run + ": valid collbench run document\n"), std::string::npos) << v.out;
  EXPECT_NE(v.out.find(preflight + ": valid collbench preflight document\n"), std::string::npos) << v.out;
}

TEST(ValidateCommandExit, AnInvalidDocumentIsTwoWithALineNamingTheFile) {
  const std::string dir = test_files::scratch_dir();
  const std::string newer = test_files::write_file(
      dir + "/newer.json", R"({"schema": "collbench.run", "schema_version": 99, "context": {}, "results": []})");
  const Validated v = validate({newer});
  EXPECT_EQ(v.code, 2);
  EXPECT_EQ(v.out, "");
  EXPECT_EQ(v.err.rfind("collbench: " + newer + ": error: ", 0), 0u) << v.err;
}

TEST(ValidateCommandExit, AFileThatIsNotJsonOrCannotBeReadIsTwo) {
  const std::string dir = test_files::scratch_dir();
  const Validated garbage = validate({test_files::write_file(dir + "/garbage.json", "{\"schema\": ")});
  EXPECT_EQ(garbage.code, 2);
  EXPECT_NE(garbage.err.find("error: not JSON"), std::string::npos) << garbage.err;
  const Validated missing = validate({dir + "/missing.json"});
  EXPECT_EQ(missing.code, 2);
  EXPECT_EQ(missing.err.rfind("collbench: " + dir + "/missing.json: error: cannot read", 0), 0u) << missing.err;
}

// The worst file decides, and the valid files are still listed.
TEST(ValidateCommandExit, TheWorstFileDecides) {
  const std::string dir = test_files::scratch_dir();
  const std::string good = fixture("reports/base.json");
  const Validated v = validate({good, dir + "/missing.json", good});
  EXPECT_EQ(v.code, 2);
  EXPECT_EQ(v.out, good + ": valid collbench run document\n" + good + ": valid collbench run document\n");
}

TEST(ValidateCommandFlags, AtLeastOneFileIsRequired) {
  std::vector<std::string> files;
  CLI::App app;
  add_validate_flags(app, files);
  EXPECT_THROW(test_files::parse(app, {}), CLI::RequiredError);
  test_files::parse(app, {"a.json", "b.json"});
  EXPECT_EQ(files, (std::vector<std::string>{"a.json", "b.json"}));
}

}  // namespace
}  // namespace collbench::cli
