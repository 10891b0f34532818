// `collbench history` over runs that collbench itself made, as a nightly job keeps them: from
// run k on, the runs are slowed with the test-only fault, and history must find the step at
// run k; the newest run slowed alone is a regression (exit 10); the page draws in a browser.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/integration/browser.hpp"
#include "tests/integration/harness.hpp"

namespace collbench::testing {
namespace {

constexpr int kRuns = 16;
constexpr int kStepAt = 10;  // the first slowed run (0-based, in time order)

std::string run_path(const std::string& dir, int i) {
  char name[32];
  std::snprintf(name, sizeof name, "/run_%02d.json", i);
  return dir + name;
}

// The nightly runs, made once for every test here (ctest runs this binary as one test): 2
// ranks as threads (-g 2), all_reduce of 1 MiB, rank 0 waiting before every operation (--fault
// slow-rank): 20 ms in every run, which holds the figure steady on this VM (the operation
// itself takes 1 ms, 4 ms or more in its slow modes or beside a build, which without the wait
// scatters a baseline so widely that no newest run could fall outside its noise), and 100 ms
// from run kStepAt on: the step, 5 times slower, far beyond anything the machine's load does
// to a steady run. One more steady run, made last, is kept apart (recovered()): the fault gone
// again. Runs made within one second share a start time and are then ordered by path, their
// order here.
class HistoryCli : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    // A folder of this process's own: two runs of this test at once never empty each other's.
    const std::string mine = "history-runs-" + std::to_string(getpid());
    dir_ = new std::string(scratch_dir(mine));
    recovered_ = new std::string(scratch_dir(mine + "-recovered") + "/run_recovered.json");
    for (int i = 0; i <= kRuns; ++i) {
      const bool slowed = i >= kStepAt && i < kRuns;
      make_run(i < kRuns ? run_path(*dir_, i) : *recovered_, slowed);
    }
  }
  static void TearDownTestSuite() {
    std::filesystem::remove_all(*dir_);
    std::filesystem::remove_all(std::filesystem::path(*recovered_).parent_path());
    delete dir_;
    delete recovered_;
    dir_ = recovered_ = nullptr;
  }
  static const std::string& dir() { return *dir_; }
  static const std::string& recovered() { return *recovered_; }

 private:
  static void make_run(const std::string& path, bool slowed) {
    const Outcome o = run_process(collbench({"run", "-g", "2", "-b", "1M", "-e", "1M", "-n", "10", "-w", "1", "--fault",
                                             slowed ? "slow-rank=0,delay-us=100000" : "slow-rank=0,delay-us=20000",
                                             "-J", path}),
                                  120);
    ASSERT_EQ(o.exit_code, 0) << path << ": " << o.err;
  }
  // NOLINTNEXTLINE(cppcoreguidelines-avoid-non-const-global-variables): the suite's shared runs
  static std::string* dir_;
  // NOLINTNEXTLINE(cppcoreguidelines-avoid-non-const-global-variables): as above
  static std::string* recovered_;
};
std::string* HistoryCli::dir_ = nullptr;        // NOLINT(cppcoreguidelines-avoid-non-const-global-variables)
std::string* HistoryCli::recovered_ = nullptr;  // NOLINT(cppcoreguidelines-avoid-non-const-global-variables)

// 0 or 10: the history was read and judged. Whether the newest slowed run falls below the
// slowed runs before it is a matter of 1 % on this VM, which no assertion here rests on.
bool judged(const Outcome& o) { return o.exit_code == 0 || o.exit_code == 10; }

nlohmann::json read_json(const std::string& path) {
  return nlohmann::json::parse(read_file(path), nullptr, /*allow_exceptions=*/false);
}

TEST_F(HistoryCli, TheStepInjectedFromRunKIsFoundAtRunK) {
  const std::string out = scratch_dir("history-step");
  const Outcome o = run_process(
      collbench({"history", "--json", out + "/h.json", "--csv", out + "/h.csv", "--html", out + "/h.html", dir()}));
  EXPECT_TRUE(judged(o)) << o.exit_code << o.out << o.err;
  const nlohmann::json h = read_json(out + "/h.json");
  ASSERT_TRUE(h.is_object()) << read_file(out + "/h.json");
  EXPECT_EQ(h.value("schema", ""), "collbench.history");
  ASSERT_TRUE(h.contains("series") && h["series"].is_array());
  // One series per placement (out-of-place and in-place) of the one size.
  ASSERT_EQ(h["series"].size(), 2u) << h["series"].dump(1);
  for (const auto& s : h["series"]) {
    EXPECT_EQ(s.value("collective", ""), "all_reduce");
    EXPECT_EQ(s.value("size_bytes", 0), 1048576);
    EXPECT_EQ(s.value("ranks", 0), 2);
    ASSERT_EQ(s["points"].size(), static_cast<std::size_t>(kRuns));
    // The step is a change point at run k, and the largest drop of the series.
    const nlohmann::json* step = nullptr;
    for (const auto& cp : s["change_points"]) {
      if (step == nullptr || cp.value("change_percent", 0.0) < step->value("change_percent", 0.0)) step = &cp;
    }
    ASSERT_NE(step, nullptr) << "no change point in " << s.dump(1);
    EXPECT_EQ(step->value("index", -1), kStepAt) << s.dump(1);
    EXPECT_EQ(step->value("path", ""), run_path(dir(), kStepAt));
    EXPECT_LT(step->value("change_percent", 0.0), -60.0);  // 21 ms to 101 ms: about -79 %
    EXPECT_LT(step->value("p_value", 1.0), 0.05);
  }
  // The table names it too, and the other outputs were written.
  EXPECT_NE(o.out.find("all_reduce"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("run_10.json"), std::string::npos) << o.out;
  EXPECT_TRUE(file_exists(out + "/h.csv"));
  EXPECT_TRUE(file_exists(out + "/h.html"));
}

TEST_F(HistoryCli, TheNewestRunSlowedAloneIsARegressionForCi) {
  std::vector<std::string> args = {"history"};
  for (int i = 0; i <= kStepAt; ++i) args.push_back(run_path(dir(), i));
  const Outcome o = run_process(collbench(args));
  EXPECT_EQ(o.exit_code, 10) << o.out << o.err;
  EXPECT_NE(o.err.find("regress"), std::string::npos) << o.err;

  // The slowed runs, then the recovered one: faster than its baseline is no regression.
  args = {"history"};
  for (int i = kStepAt; i < kRuns; ++i) args.push_back(run_path(dir(), i));
  args.push_back(recovered());
  const Outcome back = run_process(collbench(args));
  EXPECT_EQ(back.exit_code, 0) << back.out << back.err;
}

TEST_F(HistoryCli, AFolderGlobAndFilesReadTheSameRuns) {
  const std::string out = scratch_dir("history-inputs");
  const Outcome folder = run_process(collbench({"history", "--json", out + "/folder.json", dir()}));
  const Outcome glob = run_process(collbench({"history", "--json", out + "/glob.json", dir() + "/run_*.json"}));
  ASSERT_TRUE(judged(folder)) << folder.err;
  EXPECT_EQ(glob.exit_code, folder.exit_code) << glob.err;
  EXPECT_EQ(read_json(out + "/folder.json")["series"], read_json(out + "/glob.json")["series"]);

  const Outcome none = run_process(collbench({"history", dir() + "/nothing_*.json"}));
  EXPECT_EQ(none.exit_code, 2) << none.err;
}

constexpr std::uint32_t kSeriesColour = 0x0072B2;  // chart_palette()[0]

// Pixels whose red clearly dominates: the change points' dashed lines and labels (#c0392b),
// which are thin enough that anti-aliasing blends every pixel of them with the white around;
// nothing else is red but a regressed series' frame (series blue, grid and medians grey).
std::size_t reddish_pixels(const Image& image) {
  std::size_t n = 0;
  for (const auto& p : image.pixels) {
    if (p[0] > p[1] + 60 && p[0] > p[2] + 60) ++n;
  }
  return n;
}

// The page as a reader sees it offline: drawn by headless Chromium from the file alone, each
// series' line and the change point's dashed line visible.
TEST_F(HistoryCli, ThePageDrawsTheSeriesAndTheChangePointInABrowser) {
  const std::string browser = find_chromium();
  if (browser.empty())
    GTEST_SKIP() << "no chromium on PATH: the browser rendering check is skipped (apt-get install chromium)";
  const std::string out = scratch_dir("history-browser");
  const Outcome o = run_process(collbench({"history", "--html", out + "/h.html", dir()}));
  ASSERT_TRUE(judged(o)) << o.err;
  const std::string html = read_file(out + "/h.html");
  // The change point's mark is in the page (a regressed newest run would add a red frame, so
  // the pixels below alone could not tell).
  EXPECT_NE(html.find("stroke=\"#c0392b\" stroke-width=\"1.5\" stroke-dasharray"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos) << "the page must not need scripts";
  EXPECT_EQ(html.find("http://"), std::string::npos) << "the page must not load anything";
  EXPECT_EQ(html.find("https://"), std::string::npos) << "the page must not load anything";

  const Image page = screenshot(browser, out, out + "/h.html", 1200, 900);
  ASSERT_EQ(page.width, 1200u);
  EXPECT_GT(pixels_near(page, kSeriesColour), 300u) << "the series' lines are not drawn";
  EXPECT_GT(reddish_pixels(page), 60u) << "the change points are not drawn";
}

}  // namespace
}  // namespace collbench::testing
