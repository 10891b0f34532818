// Every bad input: exit code 2, one line on stderr naming the flag and the value, no file.
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/integration/harness.hpp"

namespace collbench::testing {
namespace {

struct BadInput {
  std::string name;
  std::vector<std::string> args;
  std::string expected_text;  // must appear in the error line
};

std::ostream& operator<<(std::ostream& os, const BadInput& b) { return os << b.name; }

bool directory_empty(const std::string& dir) { return std::filesystem::is_empty(dir); }

int count_lines(const std::string& text) {
  int n = 0;
  for (char c : text) n += c == '\n' ? 1 : 0;
  return n;
}

// Lines collbench wrote (mpirun adds its own banner when a rank exits non-zero).
int count_collbench_lines(const std::string& text) {
  int n = 0;
  for (std::size_t pos = 0; (pos = text.find("collbench:", pos)) != std::string::npos; ++pos) ++n;
  return n;
}

class BadRunInput : public ::testing::TestWithParam<BadInput> {};

TEST_P(BadRunInput, ExitsWithUsageErrorAndWritesNothing) {
  const BadInput& c = GetParam();
  const std::string dir = scratch_dir("bad-" + c.name);
  std::vector<std::string> args = {"run"};
  args.insert(args.end(), c.args.begin(), c.args.end());
  bool names_output = false;
  for (const auto& a : c.args) names_output = names_output || a == "-J";
  if (!names_output) {
    args.emplace_back("-J");
    args.push_back(dir + "/r.json");
  }
  const Outcome o = run_process(collbench(args), 60);
  EXPECT_EQ(o.exit_code, 2) << o.out << o.err;
  EXPECT_EQ(count_lines(o.err), 1) << o.err;
  EXPECT_NE(o.err.find(c.expected_text), std::string::npos) << o.err;
  EXPECT_TRUE(directory_empty(dir)) << "a file was written for " << c.name;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, BadRunInput,
    ::testing::Values(
        BadInput{"unknown_flag", {"--bogus"}, "--bogus"}, BadInput{"negative_size", {"-b", "-8"}, "-8"},
        BadInput{"unparsable_size", {"-b", "12X"}, "-b/--minbytes: '12X' is not a size"},
        BadInput{"fractional_size", {"-e", "1.5M"}, "-e/--maxbytes"},
        BadInput{"min_above_max", {"-b", "1M", "-e", "1K"}, "-b/--minbytes 1M is larger than -e/--maxbytes 1K"},
        BadInput{"step_factor_one", {"-f", "1"}, "-f/--stepfactor: 1 must be at least 2"},
        BadInput{"step_factor_zero", {"-f", "0"}, "-f/--stepfactor"},
        BadInput{"factor_and_step", {"-f", "2", "-i", "1M"}, "exclude each other"},
        BadInput{"unknown_dtype", {"-d", "quad"}, "unknown data type 'quad'"},
        BadInput{"unknown_op", {"-o", "xor"}, "unknown reduction op 'xor'"},
        BadInput{"unknown_collective", {"all_reduce_fast"}, "unknown collective 'all_reduce_fast'"},
        BadInput{"zero_iterations", {"-n", "0"}, "-n/--iters"},
        BadInput{"average_out_of_range", {"-a", "7"}, "-a/--average: 7 is out of range"},
        BadInput{"blocking_out_of_range", {"-z", "9"}, "-z/--blocking"},
        BadInput{"negative_timeout", {"-T", "-1"}, "-T"},
        // Once accepted and turned into clock ticks by a cast, which is undefined behaviour.
        BadInput{"huge_timeout", {"-T", "1e300"}, "-T/--timeout: at most 1000000 seconds"},
        // Once wrapped to another rank (4294967297 -> 1) or to a negative delay.
        BadInput{"fault_rank_beyond_int", {"--fault", "corrupt-rank=4294967297"}, "corrupt-rank must be a rank"},
        BadInput{"fault_delay_beyond_an_hour", {"--fault", "slow-rank=0,delay-us=16T"}, "delay-us must be at most"},
        BadInput{"smaller_than_one_element", {"-b", "2", "-e", "2"}, "too small for all_reduce of float"},
        BadInput{"root_out_of_range", {"-r", "3"}, "-r/--root 3"},
        BadInput{"unwritable_output", {"-J", "/nonexistent-dir/r.json"}, "-J/--output_file /nonexistent-dir/r.json"},
        BadInput{"bad_fault", {"--fault", "explode=1"}, "--fault"}),
    [](const auto& param_info) { return param_info.param.name; });

TEST(BadRunInputMpi, AllRanksStopAndOnlyRankZeroSpeaks) {
  const std::string dir = scratch_dir("bad-mpi");
  const Outcome o = run_process(mpirun_collbench(2, {"run", "-b", "1M", "-e", "1K", "-J", dir + "/r.json"}), 60);
  EXPECT_EQ(o.exit_code, 2) << o.out << o.err;
  EXPECT_NE(o.err.find("-b/--minbytes 1M is larger than -e/--maxbytes 1K"), std::string::npos) << o.err;
  EXPECT_EQ(count_collbench_lines(o.err), 1) << o.err;
  EXPECT_TRUE(directory_empty(dir));
}

TEST(BadRunInputMpi, UnwritableOutputStopsEveryRank) {
  const Outcome o = run_process(mpirun_collbench(2, {"run", "-b", "8", "-e", "8", "-J", "/nonexistent-dir/r.json"}),
                                60);
  EXPECT_EQ(o.exit_code, 2) << o.out << o.err;
  EXPECT_EQ(count_collbench_lines(o.err), 1) << o.err;
  EXPECT_NE(o.err.find("collbench: error: -J/--output_file /nonexistent-dir/r.json"), std::string::npos) << o.err;
}

}  // namespace
}  // namespace collbench::testing
