#include "tests/integration/png_reader.hpp"

#include <cstdlib>
#include <cstring>

namespace collbench::testing {
namespace {

class BitReader {
 public:
  BitReader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  // -1 past the end.
  int bit() {
    if (pos_ >= size_) return -1;
    const int b = (data_[pos_] >> bit_) & 1;
    if (++bit_ == 8) {
      bit_ = 0;
      ++pos_;
    }
    return b;
  }
  // `n` bits, least significant first; -1 past the end.
  long bits(int n) {
    long v = 0;
    for (int i = 0; i < n; ++i) {
      const int b = bit();
      if (b < 0) return -1;
      v |= static_cast<long>(b) << i;
    }
    return v;
  }
  void align() {
    if (bit_ != 0) {
      bit_ = 0;
      ++pos_;
    }
  }
  std::size_t pos() const { return pos_; }
  void skip(std::size_t n) { pos_ += n; }
  const std::uint8_t* here() const { return data_ + pos_; }
  std::size_t left() const { return pos_ < size_ ? size_ - pos_ : 0; }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
  int bit_ = 0;
};

// A canonical Huffman code: how many codes of each length, and the symbols in code order.
struct Huffman {
  std::array<int, 16> count{};
  std::vector<int> symbols;
};

Huffman build(const std::vector<int>& lengths) {
  Huffman h;
  for (int len : lengths) ++h.count[static_cast<std::size_t>(len)];
  h.count[0] = 0;
  for (int len = 1; len < 16; ++len) {
    for (std::size_t s = 0; s < lengths.size(); ++s) {
      if (lengths[s] == len) h.symbols.push_back(static_cast<int>(s));
    }
  }
  return h;
}

// Reads one symbol bit by bit: codes of each length are consecutive integers.
int decode(BitReader& in, const Huffman& h) {
  int code = 0;
  int first = 0;
  int index = 0;
  for (int len = 1; len < 16; ++len) {
    const int b = in.bit();
    if (b < 0) return -1;
    code |= b;
    const int n = h.count[static_cast<std::size_t>(len)];
    if (code - first < n) return h.symbols[static_cast<std::size_t>(index + code - first)];
    index += n;
    first = (first + n) << 1;
    code <<= 1;
  }
  return -1;
}

constexpr std::array<int, 29> kLengthBase = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                             31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
constexpr std::array<int, 29> kLengthExtra = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                              2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
constexpr std::array<int, 30> kDistBase = {1,    2,    3,    4,    5,    7,    9,    13,    17,    25,
                                           33,   49,   65,   97,   129,  193,  257,  385,   513,   769,
                                           1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
constexpr std::array<int, 30> kDistExtra = {0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
                                            6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

bool codes(BitReader& in, const Huffman& lit, const Huffman& dist, std::vector<std::uint8_t>& out) {
  while (true) {
    const int sym = decode(in, lit);
    if (sym < 0) return false;
    if (sym < 256) {
      out.push_back(static_cast<std::uint8_t>(sym));
      continue;
    }
    if (sym == 256) return true;
    const auto li = static_cast<std::size_t>(sym - 257);
    if (li >= kLengthBase.size()) return false;
    const long extra = in.bits(kLengthExtra[li]);
    const int dsym = decode(in, dist);
    if (extra < 0 || dsym < 0 || dsym >= 30) return false;
    const auto di = static_cast<std::size_t>(dsym);
    const long dextra = in.bits(kDistExtra[di]);
    if (dextra < 0) return false;
    const auto length = static_cast<std::size_t>(kLengthBase[li] + extra);
    const auto distance = static_cast<std::size_t>(kDistBase[di] + dextra);
    if (distance > out.size()) return false;
    for (std::size_t i = 0; i < length; ++i) out.push_back(out[out.size() - distance]);
  }
}

bool dynamic_tables(BitReader& in, Huffman& lit, Huffman& dist) {
  const long hlit = in.bits(5);
  const long hdist = in.bits(5);
  const long hclen = in.bits(4);
  if (hlit < 0 || hdist < 0 || hclen < 0) return false;
  static constexpr std::array<int, 19> kOrder = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
  std::vector<int> code_lengths(19, 0);
  for (long i = 0; i < hclen + 4; ++i) {
    const long v = in.bits(3);
    if (v < 0) return false;
    code_lengths[static_cast<std::size_t>(kOrder[static_cast<std::size_t>(i)])] = static_cast<int>(v);
  }
  const Huffman lengths_code = build(code_lengths);
  const auto total = static_cast<std::size_t>(hlit + 257 + hdist + 1);
  std::vector<int> lengths;
  while (lengths.size() < total) {
    const int sym = decode(in, lengths_code);
    if (sym < 0) return false;
    if (sym < 16) {
      lengths.push_back(sym);
      continue;
    }
    int value = 0;
    long repeat = 0;
    if (sym == 16) {
      if (lengths.empty()) return false;
      value = lengths.back();
      repeat = 3 + in.bits(2);
    } else {
      repeat = sym == 17 ? 3 + in.bits(3) : 11 + in.bits(7);
    }
    if (repeat < 3) return false;
    lengths.insert(lengths.end(), static_cast<std::size_t>(repeat), value);
  }
  if (lengths.size() != total) return false;
  const auto split = static_cast<std::size_t>(hlit + 257);
  lit = build(std::vector<int>(lengths.begin(), lengths.begin() + static_cast<long>(split)));
  dist = build(std::vector<int>(lengths.begin() + static_cast<long>(split), lengths.end()));
  return true;
}

void fixed_tables(Huffman& lit, Huffman& dist) {
  std::vector<int> l(288);
  for (std::size_t i = 0; i < 288; ++i) l[i] = i < 144 ? 8 : i < 256 ? 9 : i < 280 ? 7 : 8;
  lit = build(l);
  dist = build(std::vector<int>(30, 5));
}

std::uint32_t be32(const std::string& s, std::size_t at) {
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<std::uint8_t>(s[at + i]);
  return v;
}

int paeth(int a, int b, int c) {
  const int p = a + b - c;
  const int pa = std::abs(p - a);
  const int pb = std::abs(p - b);
  const int pc = std::abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

bool unfilter(std::vector<std::uint8_t>& data, std::size_t stride, std::size_t bpp, std::uint32_t height) {
  if (data.size() < (stride + 1) * height) return false;
  std::vector<std::uint8_t> prev(stride, 0);
  std::vector<std::uint8_t> out;
  out.reserve(stride * height);
  for (std::uint32_t y = 0; y < height; ++y) {
    const std::uint8_t type = data[y * (stride + 1)];
    std::vector<std::uint8_t> row(data.begin() + static_cast<long>(y * (stride + 1) + 1),
                                  data.begin() + static_cast<long>((y + 1) * (stride + 1)));
    for (std::size_t x = 0; x < stride; ++x) {
      const int a = x >= bpp ? row[x - bpp] : 0;
      const int b = prev[x];
      const int c = x >= bpp ? prev[x - bpp] : 0;
      int add = 0;
      switch (type) {
        case 0: add = 0; break;
        case 1: add = a; break;
        case 2: add = b; break;
        case 3: add = (a + b) / 2; break;
        case 4: add = paeth(a, b, c); break;
        default: return false;
      }
      row[x] = static_cast<std::uint8_t>((row[x] + add) & 0xff);
    }
    out.insert(out.end(), row.begin(), row.end());
    prev = row;
  }
  data = std::move(out);
  return true;
}

}  // namespace

std::optional<std::vector<std::uint8_t>> inflate_raw(const std::uint8_t* data, std::size_t size) {
  BitReader in(data, size);
  std::vector<std::uint8_t> out;
  while (true) {
    const long last = in.bits(1);
    const long type = in.bits(2);
    if (last < 0 || type < 0) return std::nullopt;
    if (type == 0) {
      in.align();
      if (in.left() < 4) return std::nullopt;
      const std::uint8_t* p = in.here();
      const std::size_t len = static_cast<std::size_t>(p[0] | (p[1] << 8));
      in.skip(4);
      if (in.left() < len) return std::nullopt;
      out.insert(out.end(), in.here(), in.here() + len);
      in.skip(len);
    } else {
      Huffman lit;
      Huffman dist;
      if (type == 1) {
        fixed_tables(lit, dist);
      } else if (type != 2 || !dynamic_tables(in, lit, dist)) {
        return std::nullopt;
      }
      if (!codes(in, lit, dist, out)) return std::nullopt;
    }
    if (last == 1) return out;
  }
}

std::optional<Image> read_png(const std::string& bytes, std::string* error) {
  static const std::string kSignature = "\x89PNG\r\n\x1a\n";
  if (bytes.compare(0, kSignature.size(), kSignature) != 0) {
    *error = "not a PNG file";
    return std::nullopt;
  }
  Image image;
  int color_type = -1;
  std::string idat;
  for (std::size_t at = kSignature.size(); at + 8 <= bytes.size();) {
    const std::uint32_t length = be32(bytes, at);
    const std::string type = bytes.substr(at + 4, 4);
    if (at + 12 + length > bytes.size()) break;
    const std::size_t body = at + 8;
    if (type == "IHDR") {
      image.width = be32(bytes, body);
      image.height = be32(bytes, body + 4);
      const int depth = static_cast<std::uint8_t>(bytes[body + 8]);
      color_type = static_cast<std::uint8_t>(bytes[body + 9]);
      const int interlace = static_cast<std::uint8_t>(bytes[body + 12]);
      if (depth != 8 || (color_type != 2 && color_type != 6) || interlace != 0) {
        *error = "unsupported PNG (depth " + std::to_string(depth) + ", colour type " + std::to_string(color_type) +
                 ")";
        return std::nullopt;
      }
    } else if (type == "IDAT") {
      idat += bytes.substr(body, length);
    } else if (type == "IEND") {
      break;
    }
    at = body + length + 4;
  }
  if (color_type < 0 || idat.size() < 6) {
    *error = "no image data";
    return std::nullopt;
  }
  // Skip the two-byte zlib header; the Adler-32 at the end is not checked.
  auto raw = inflate_raw(reinterpret_cast<const std::uint8_t*>(idat.data()) + 2, idat.size() - 2);
  const std::size_t bpp = color_type == 6 ? 4 : 3;
  const std::size_t stride = static_cast<std::size_t>(image.width) * bpp;
  if (!raw || !unfilter(*raw, stride, bpp, image.height)) {
    *error = "corrupt image data";
    return std::nullopt;
  }
  image.pixels.reserve(static_cast<std::size_t>(image.width) * image.height);
  for (std::size_t i = 0; i + bpp <= raw->size(); i += bpp)
    image.pixels.push_back({(*raw)[i], (*raw)[i + 1], (*raw)[i + 2]});
  return image;
}

}  // namespace collbench::testing
