// `collbench topo -i FILE...`: its --format check, and its exit codes on files (README: 11 when
// the hosts differ; a topology file that cannot be read is an I/O error, 9, as topo/discover.hpp
// has it; a file that is not a topology is bad input, 2). Topologies: tests/fixtures/topo/.
#include "bench/cli/commands/topo_command.hpp"

#include <gtest/gtest.h>

#include <string>

#include "bench/cli/wiring/error_line.hpp"
#include "common/exit_code.hpp"
#include "tests/unit/cli/command_test_files.hpp"

namespace collbench::cli {
namespace {

using test_files::fixture;

struct Shown {
  int code;
  std::string out;
  std::string err;
};

// As the top level runs it: the command, then its result printed.
Shown show(const TopoCommand& cmd) {
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  const int code = print_result(topo_command(cmd));
  std::string err = ::testing::internal::GetCapturedStderr();
  return {code, ::testing::internal::GetCapturedStdout(), std::move(err)};
}

TopoCommand from_files(const std::vector<std::string>& names) {
  TopoCommand cmd;
  for (const auto& n : names) cmd.inputs.push_back(fixture("topo/" + n));
  return cmd;
}

TEST(TopoCommandFlags, EveryListedFormatIsAcceptedAndNoOther) {
  EXPECT_TRUE(check_topo_flags(TopoCommand{}).ok()) << "the default format";
  for (const char* format : {"text", "json", "dot", "matrix"}) {
    TopoCommand cmd;
    cmd.format = format;
    EXPECT_TRUE(check_topo_flags(cmd).ok()) << format;
  }
  TopoCommand bad;
  bad.format = "svg";
  const Status s = check_topo_flags(bad);
  EXPECT_EQ(s.code(), ErrorCode::kUsage);
  EXPECT_EQ(s.message(), "--format: unknown value 'svg' (expected text, json, dot, matrix)");
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(report_error(s, ""), 2);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "collbench: error: " + s.message() + "\n");
}

TEST(TopoCommandFlags, DefaultsAndEveryFlagReachingItsField) {
  TopoCommand defaults;
  CLI::App plain;
  add_topo_flags(plain, defaults);
  test_files::parse(plain, {});
  EXPECT_TRUE(defaults.inputs.empty());
  EXPECT_EQ(defaults.format, "text");
  EXPECT_EQ(defaults.bootstrap, "auto");
  EXPECT_FALSE(defaults.force);
  TopoCommand cmd;
  CLI::App app;
  add_topo_flags(app, cmd);
  test_files::parse(app, {"-i", "a.xml", "-i", "b.xml", "--format", "json", "-o", "t.json", "--force", "--svg", "t.svg",
                          "--bootstrap", "single"});
  EXPECT_EQ(cmd.inputs, (std::vector<std::string>{"a.xml", "b.xml"}));
  EXPECT_EQ(cmd.format, "json");
  EXPECT_EQ(cmd.output, "t.json");
  EXPECT_TRUE(cmd.force);
  EXPECT_EQ(cmd.svg, "t.svg");
  EXPECT_EQ(cmd.bootstrap, "single");
}

TEST(TopoCommandExit, OneReadableFileIsZero) {
  const Shown s = show(from_files({"nccl_nvswitch.xml"}));
  EXPECT_EQ(s.code, 0) << s.err;
  EXPECT_EQ(s.err, "");
  EXPECT_FALSE(s.out.empty());
}

TEST(TopoCommandExit, IdenticalHostsAreZeroAndDifferentOnesEleven) {
  const Shown same = show(from_files({"nccl_nvswitch.xml", "nccl_nvswitch.xml"}));
  EXPECT_EQ(same.code, 0) << same.err;
  // GPU 2 of nccl_degraded_link.xml trained at x8: the hosts differ.
  const Shown differ = show(from_files({"nccl_nvswitch.xml", "nccl_degraded_link.xml"}));
  EXPECT_EQ(differ.code, 11) << differ.out << differ.err;
  EXPECT_EQ(differ.err, "collbench: error: the hosts' topologies differ (see above)\n");
}

TEST(TopoCommandExit, AnUnreadableInputIsNineAndNamesTheFile) {
  const std::string dir = test_files::scratch_dir();
  TopoCommand cmd = from_files({"nccl_nvswitch.xml"});
  cmd.inputs.push_back(dir + "/missing.xml");
  const Shown s = show(cmd);
  EXPECT_EQ(s.code, 9) << s.err;
  EXPECT_EQ(s.err, "collbench: error: cannot read topology file " + dir + "/missing.xml: no such file\n");
  EXPECT_EQ(s.out, "") << "nothing is printed before every file is read";
}

TEST(TopoCommandExit, AFileThatIsNotATopologyIsTwo) {
  const std::string dir = test_files::scratch_dir();
  TopoCommand cmd;
  cmd.inputs = {test_files::write_file(dir + "/notes.xml", "<notes><note>hello</note></notes>\n")};
  const Shown s = show(cmd);
  EXPECT_EQ(s.code, 2) << s.err;
  EXPECT_EQ(s.err.rfind("collbench: error: " + dir + "/notes.xml: not a topology file", 0), 0u) << s.err;
}

}  // namespace
}  // namespace collbench::cli
