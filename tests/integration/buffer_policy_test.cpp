// What `run` says of its buffers (rotated over how many bytes, or fixed): the table's header
// line and the run file's config, for a small run of two thread ranks on host memory.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/integration/harness.hpp"

namespace collbench::testing {
namespace {

using nlohmann::json;

// all_reduce from 8 B to 64 KiB: the largest row's buffers, 65536 B each, are what the
// rotation moves through.
Outcome small_run(const std::string& file, const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args = {"run", "-g",  "2",  "--backend", "bootstrap", "-b", "8",
                                   "-e",  "64K", "-n", "2",         "-J",        file};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_process(collbench(args));
}

// The line sits between nccl-tests' parameter line and its device list.
void expect_header_line(const std::string& out, const std::string& line) {
  const auto at = out.find("\n" + line + "\n");
  ASSERT_NE(at, std::string::npos) << out;
  EXPECT_LT(out.find("# nThread 1 nGpus 2 "), at) << out;
  EXPECT_GT(out.find("# Using devices"), at) << out;
}

TEST(BufferPolicy, ARotatedRunSaysOverHowManyBytesInItsHeaderAndFile) {
  const std::string file = scratch_dir("rotated") + "/r.json";
  const Outcome o = small_run(file);
  ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
  expect_header_line(o.out, "#  Buffers: rotated over 64 KiB (65536 B) per buffer (new addresses each operation, "
                            "caches colder: as nccl-tests and IMB -off_cache)");
  const json buffers = json::parse(read_file(file)).at("config").at("buffers");
  EXPECT_EQ(buffers, json({{"policy", "rotated"}, {"bytes_per_buffer", 65536}})) << buffers.dump();
  const Outcome v = run_process(collbench({"validate", file}));
  EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
}

TEST(BufferPolicy, AFixedRunSaysFixedInItsHeaderAndFile) {
  const std::string file = scratch_dir("fixed") + "/r.json";
  const Outcome o = small_run(file, {"--fixed-buffers"});
  ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
  expect_header_line(o.out,
                     "#  Buffers: fixed (the same addresses each operation, caches warm: as OSU and IMB's default)");
  EXPECT_EQ(o.out.find("rotated"), std::string::npos) << o.out;
  const json buffers = json::parse(read_file(file)).at("config").at("buffers");
  EXPECT_EQ(buffers, json({{"policy", "fixed"}, {"bytes_per_buffer", 65536}})) << buffers.dump();
  const Outcome v = run_process(collbench({"validate", file}));
  EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
}

}  // namespace
}  // namespace collbench::testing
