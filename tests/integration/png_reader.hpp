// A tiny PNG reader for tests that look at screenshots: 8-bit RGB or RGBA, not interlaced
// (what headless Chromium writes), with its own inflate, so the tests need no image library.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace collbench::testing {

struct Image {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::vector<std::array<std::uint8_t, 3>> pixels;  // row-major RGB (alpha dropped)
};

// nullopt (and `error` filled) for anything this reader does not handle.
std::optional<Image> read_png(const std::string& bytes, std::string* error);

// Raw DEFLATE (RFC 1951) decompression; nullopt on corrupt input.
std::optional<std::vector<std::uint8_t>> inflate_raw(const std::uint8_t* data, std::size_t size);

}  // namespace collbench::testing
