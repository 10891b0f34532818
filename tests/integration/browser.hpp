// Headless Chromium for tests that look at what a page or a chart shows: find the browser,
// take a screenshot, count pixels of a colour. Tests skip (with a message) when no browser is
// on PATH; CI installs Debian's chromium.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "tests/integration/png_reader.hpp"

namespace collbench::testing {

// The first chromium or chromium-browser on PATH; "" when there is none.
std::string find_chromium();

// A `width` x `height` screenshot of `file` (an absolute path) taken by `browser`, with its
// profile under `dir`. A failure to run or to read the PNG is a test failure and an empty image.
Image screenshot(const std::string& browser, const std::string& dir, const std::string& file, int width, int height);

// Pixels within a small distance of `rgb` (anti-aliasing blends edges, line cores keep the colour).
std::size_t pixels_near(const Image& image, std::uint32_t rgb);

std::size_t distinct_colours(const Image& image);

}  // namespace collbench::testing
