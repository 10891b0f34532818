// Every seed (corpus/<target>/) and every input that once crashed a fuzzer
// (regressions/<target>/), fed through the fuzz targets' entry functions in the normal build, so
// the whole suite guards the fixes without clang or libFuzzer. A violated property aborts.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <ostream>
#include <string>
#include <vector>

#include "tests/fuzz/fuzz_entries.hpp"

namespace collbench::fuzz {
namespace {

namespace fs = std::filesystem;

struct Target {
  const char* name;
  void (*entry)(Bytes);
};

// gtest prints the parameter in test names; the target's name says it all.
[[maybe_unused]] void PrintTo(const Target& target, std::ostream* out) { *out << target.name; }

const Target kTargets[] = {
    {"units", &units},
    {"types", &types},
    {"fault", &fault},
    {"run_flags", &run_flags},
    {"run_json", &run_json},
    {"document_json", &document_json},
    {"topo_nccl_xml", &topo_nccl_xml},
    {"topo_hwloc_xml", &topo_hwloc_xml},
    {"topo_json", &topo_json},
    {"rendezvous", &rendezvous},
    {"fabric", &fabric},
};

const fs::path kFuzzDir = fs::path(COLLBENCH_SOURCE_DIR) / "tests" / "fuzz";

std::vector<fs::path> files_in(const fs::path& dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.is_regular_file()) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<std::uint8_t> read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class Replay : public ::testing::TestWithParam<Target> {};

TEST_P(Replay, SeedsAndRegressions) {
  const Target& target = GetParam();
  const std::vector<fs::path> seeds = files_in(kFuzzDir / "corpus" / target.name);
  ASSERT_FALSE(seeds.empty()) << "no seed corpus in tests/fuzz/corpus/" << target.name;
  std::vector<fs::path> inputs = seeds;
  const std::vector<fs::path> regressions = files_in(kFuzzDir / "regressions" / target.name);
  inputs.insert(inputs.end(), regressions.begin(), regressions.end());
  for (const fs::path& input : inputs) {
    SCOPED_TRACE(input.string());
    const std::vector<std::uint8_t> bytes = read_bytes(input);
    EXPECT_NO_THROW(target.entry(Bytes(bytes.data(), bytes.size())));
  }
}

INSTANTIATE_TEST_SUITE_P(Fuzz, Replay, ::testing::ValuesIn(kTargets),
                         [](const ::testing::TestParamInfo<Target>& param) { return std::string(param.param.name); });

// A corpus or regression folder that names no target would never be replayed.
TEST(ReplayLayout, EveryInputFolderBelongsToATarget) {
  for (const char* kind : {"corpus", "regressions"}) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(kFuzzDir / kind, ec)) {
      const std::string name = entry.path().filename().string();
      const bool known = std::any_of(std::begin(kTargets), std::end(kTargets),
                                     [&](const Target& t) { return name == t.name; });
      EXPECT_TRUE(known) << "tests/fuzz/" << kind << "/" << name << " names no fuzz target";
    }
  }
}

}  // namespace
}  // namespace collbench::fuzz
