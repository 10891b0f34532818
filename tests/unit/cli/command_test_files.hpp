// What the command tests read and write: the committed fixtures, a fresh folder per test for the
// documents a test makes itself, and command lines parsed by CLI11 as the top level parses them.
#pragma once

#include <CLI/CLI.hpp>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace collbench::cli::test_files {

inline std::string fixture(const std::string& relative) { return std::string(COLLBENCH_FIXTURES_DIR) + "/" + relative; }

// A preflight document as collbench writes it (the validate fuzz target's seed).
inline std::string preflight_document() {
  return std::string(COLLBENCH_SOURCE_DIR) + "/tests/fuzz/corpus/document_json/preflight.json";
}

// The scratch folder of a test (named after it and this process: ctest runs tests in parallel).
inline std::filesystem::path scratch_path(const ::testing::TestInfo& test) {
  return std::filesystem::temp_directory_path() /
         ("collbench-cli-" + std::string(test.test_suite_name()) + "." + test.name() + "-" + std::to_string(getpid()));
}

// Removes a test's scratch folder when the test has passed; a failed test's stays, to be read.
class ScratchCleanup : public ::testing::EmptyTestEventListener {
  void OnTestEnd(const ::testing::TestInfo& test) override {
    if (test.result() == nullptr || test.result()->Failed()) return;
    std::error_code ec;
    std::filesystem::remove_all(scratch_path(test), ec);
  }
};

inline bool register_scratch_cleanup() {
  ::testing::UnitTest::GetInstance()->listeners().Append(new ScratchCleanup);  // gtest owns it
  return true;
}

// An empty folder for the running test, removed after it unless it failed.
inline std::string scratch_dir() {
  static const bool registered = register_scratch_cleanup();
  (void)registered;
  const std::filesystem::path dir = scratch_path(*::testing::UnitTest::GetInstance()->current_test_info());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

inline std::string write_file(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Parses `args` (without the program's name) as the subcommand `app` would see them.
inline void parse(CLI::App& app, std::vector<std::string> args) {
  args.insert(args.begin(), "collbench");
  std::vector<const char*> argv;
  argv.reserve(args.size());
  for (const auto& a : args) argv.push_back(a.c_str());
  app.parse(static_cast<int>(argv.size()), argv.data());
}

// An expectations file (docs/health.md) that one rank on host memory can never meet: a one-rank
// all_reduce moves nothing over a bus (busbw 0), and no machine reaches a million GB/s anyway.
inline std::string unreachable_expectation(const std::string& dir) {
  return write_file(dir + "/expect.json", R"({"schema": "collbench.expect", "version": 1,
      "rows": [{"collective": "all_reduce", "size_bytes": 1024, "min_busbw_gbps": 1000000}]})");
}

}  // namespace collbench::cli::test_files
