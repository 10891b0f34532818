// A run never hangs and never loses finished results: timeouts, killed ranks, signals.
#include <gtest/gtest.h>

#include <signal.h>  // NOLINT(modernize-deprecated-headers): kill() is POSIX, which <csignal> does not promise

#include <nlohmann/json.hpp>

#include "tests/integration/harness.hpp"

namespace collbench::testing {
namespace {

using nlohmann::json;

TEST(NoHang, StuckCollectiveTimesOutOnEveryRankWithItsStep) {
  const std::string dir = scratch_dir("timeout");
  const std::string file = dir + "/r.json";
  // Rank 1 stalls for 10 minutes from 1 KiB on: every rank must report the -T timeout and exit 4.
  // Ending at all (run_process gives up after 60 s) proves that the watchdog, not the stall,
  // ended the job; no tighter wall-clock bound, which a loaded or sanitized run would miss.
  const Outcome o = run_process(mpirun_collbench(2, {"run", "-b", "8", "-e", "4K", "-n", "2", "-T", "1", "--fault",
                                                     "slow-rank=1,delay-us=600000000,min-size=1K", "-J", file}),
                                60);
  EXPECT_EQ(o.exit_code, 4) << o.out << o.err;
  EXPECT_LT(o.seconds, 60);
  EXPECT_NE(o.err.find(
                "timeout: all_reduce float sum at 1024 B out_of_place: timed loop of 2 iterations did not finish"),
            std::string::npos)
      << o.err;
  const json doc = json::parse(read_file(file));
  EXPECT_EQ(doc.at("summary").at("status"), "timeout");
  EXPECT_EQ(doc.at("results").size(), 14u);  // 8 B .. 512 B, both placements
  const Outcome v = run_process(collbench({"validate", file}));
  EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
}

TEST(NoHang, KilledRankEndsTheJobAndFinishedSizesSurvive) {
  const std::string dir = scratch_dir("kill");
  const std::string file = dir + "/r.json";
  const Outcome o = run_process(mpirun_collbench(3, {"run", "-b", "8", "-e", "1M", "-n", "2", "-T", "5", "--fault",
                                                     "kill-rank=1,after-size=1K", "-J", file}),
                                60);
  EXPECT_NE(o.exit_code, 0) << o.out << o.err;
  EXPECT_LT(o.seconds, 20);
  const json doc = json::parse(read_file(file));
  EXPECT_GE(doc.at("results").size(), 16u);  // at least 8 B .. 1 KiB, both placements
  EXPECT_NE(doc.at("summary").at("status"), "ok");
}

TEST(NoHang, SigtermWritesAValidPartialResult) {
  const std::string dir = scratch_dir("sigterm");
  const std::string file = dir + "/r.json";
  ProcessOptions options;
  options.time_limit_s = 60;
  options.signal_after_s = 1;
  options.signal = SIGTERM;
  options.signal_once_out_contains = "     float ";  // a row of the table: some results exist
  const Outcome o = run_process(mpirun_collbench(2, {"run", "-b", "8", "-e", "64M", "-n", "200", "-J", file}), options);
  EXPECT_NE(o.exit_code, 0) << o.out << o.err;
  EXPECT_FALSE(o.timed_out);
  const json doc = json::parse(read_file(file));
  EXPECT_EQ(doc.at("summary").at("status"), "interrupted") << doc.at("summary").dump();
  EXPECT_GT(doc.at("results").size(), 0u);
  const Outcome v = run_process(collbench({"validate", file}));
  EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
}

TEST(NoHang, SigintOnASingleProcessExitsWithTheInterruptCode) {
  const std::string dir = scratch_dir("sigint");
  const std::string file = dir + "/r.json";
  ProcessOptions options;
  options.time_limit_s = 60;
  options.signal_after_s = 1;
  options.signal = SIGINT;
  options.signal_once_out_contains = "     float ";
  const Outcome o = run_process(collbench({"run", "-b", "8", "-e", "1G", "-n", "50", "-J", file}), options);
  EXPECT_EQ(o.exit_code, 6) << o.out << o.err;
  const json doc = json::parse(read_file(file));
  EXPECT_EQ(doc.at("summary").at("status"), "interrupted");
}

}  // namespace
}  // namespace collbench::testing
