#include "tests/integration/browser.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <set>

#include "tests/integration/harness.hpp"

namespace collbench::testing {

std::string find_chromium() {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return "";
  std::string dirs(path);
  for (std::size_t start = 0; start <= dirs.size();) {
    const auto end = dirs.find(':', start);
    const std::string dir = dirs.substr(start, end == std::string::npos ? std::string::npos : end - start);
    for (const char* name : {"chromium", "chromium-browser"}) {
      std::string candidate = dir + "/" + name;
      if (!dir.empty() && ::access(candidate.c_str(), X_OK) == 0) return candidate;
    }
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return "";
}

Image screenshot(const std::string& browser, const std::string& dir, const std::string& file, int width, int height) {
  const std::string png = file + ".png";
  const Outcome o = run_process({browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                                 "--user-data-dir=" + dir + "/profile",
                                 "--window-size=" + std::to_string(width) + "," + std::to_string(height),
                                 "--screenshot=" + png, "file://" + file},
                                120);
  EXPECT_EQ(o.exit_code, 0) << o.err;
  std::string error;
  auto image = read_png(read_file(png), &error);
  EXPECT_TRUE(image.has_value()) << png << ": " << error;
  return image ? *image : Image{};
}

std::size_t pixels_near(const Image& image, std::uint32_t rgb) {
  const int r = static_cast<int>(rgb >> 16);
  const int g = static_cast<int>((rgb >> 8) & 0xff);
  const int b = static_cast<int>(rgb & 0xff);
  std::size_t n = 0;
  for (const auto& p : image.pixels) {
    if (std::abs(p[0] - r) + std::abs(p[1] - g) + std::abs(p[2] - b) <= 24) ++n;
  }
  return n;
}

std::size_t distinct_colours(const Image& image) {
  std::set<std::uint32_t> seen;
  for (const auto& p : image.pixels) seen.insert(static_cast<std::uint32_t>(p[0] << 16 | p[1] << 8 | p[2]));
  return seen.size();
}

}  // namespace collbench::testing
