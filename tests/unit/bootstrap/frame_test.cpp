#include "bench/bootstrap/tcp/frame.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace collbench::bootstrap::tcp {
namespace {

std::vector<std::byte> bytes_of(std::string_view text) {
  std::vector<std::byte> out;
  for (const char c : text) out.push_back(static_cast<std::byte>(c));
  return out;
}

TEST(FrameTest, RoundTripsEveryType) {
  const auto payload = bytes_of("payload bytes");
  for (const FrameType type : {FrameType::kHello, FrameType::kAck, FrameType::kWelcome, FrameType::kData,
                               FrameType::kError, FrameType::kAbort}) {
    const auto frame = encode_frame(type, payload);
    ASSERT_EQ(frame.size(), kHeaderSize + payload.size());
    auto decoded = decode_frame(frame);
    ASSERT_TRUE(decoded.ok()) << decoded.status().message();
    EXPECT_EQ(decoded->type, type);
    EXPECT_EQ(std::vector<std::byte>(decoded->payload.begin(), decoded->payload.end()), payload);
  }
}

TEST(FrameTest, HeaderIsLittleEndianMagicVersionTypeLength) {
  const auto frame = encode_frame(FrameType::kData, bytes_of("ab"));
  const std::vector<std::byte> expected = {std::byte{'C'}, std::byte{'B'}, std::byte{'T'}, std::byte{'P'},
                                           std::byte{1},   std::byte{0},   std::byte{4},   std::byte{0},
                                           std::byte{2},   std::byte{0},   std::byte{0},   std::byte{0}};
  EXPECT_EQ(std::vector<std::byte>(frame.begin(), frame.begin() + kHeaderSize), expected);
}

TEST(FrameTest, EmptyPayloadIsAFrame) {
  const auto frame = encode_frame(FrameType::kData, {});
  auto decoded = decode_frame(frame);
  ASSERT_TRUE(decoded.ok());
  EXPECT_TRUE(decoded->payload.empty());
}

TEST(FrameTest, EveryTruncationIsAnError) {
  const auto frame = encode_frame(FrameType::kHello, bytes_of("hello payload"));
  for (std::size_t n = 0; n < frame.size(); ++n) {
    auto decoded = decode_frame(std::span(frame).first(n));
    ASSERT_FALSE(decoded.ok()) << n;
    EXPECT_NE(decoded.status().message().find("truncated"), std::string::npos) << decoded.status().message();
  }
}

TEST(FrameTest, TrailingBytesAreAnError) {
  auto frame = encode_frame(FrameType::kAck, bytes_of("1234"));
  frame.push_back(std::byte{0});
  auto decoded = decode_frame(frame);
  ASSERT_FALSE(decoded.ok());
  EXPECT_NE(decoded.status().message().find("unexpected bytes"), std::string::npos);
}

TEST(FrameTest, OversizeLengthIsRejectedFromTheHeaderAlone) {
  const auto header = encode_header(FrameType::kData, 1001);
  auto decoded = decode_header(header, 1000);
  ASSERT_FALSE(decoded.ok());
  EXPECT_NE(decoded.status().message().find("exceeds the limit of 1000"), std::string::npos);
  EXPECT_TRUE(decode_header(encode_header(FrameType::kData, 1000), 1000).ok());
  EXPECT_FALSE(decode_header(encode_header(FrameType::kData, kMaxPayload + 1)).ok());
}

TEST(FrameTest, BadMagicIsNotCollbench) {
  auto frame = encode_frame(FrameType::kHello, {});
  frame[0] = std::byte{'G'};  // "GET / HTTP/1.1" from a stray client looks like this
  auto decoded = decode_frame(frame);
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.status().code(), ErrorCode::kComm);
  EXPECT_NE(decoded.status().message().find("bad magic"), std::string::npos);
}

TEST(FrameTest, OtherVersionIsALaunchErrorThatSaysSo) {
  auto frame = encode_frame(FrameType::kHello, {});
  frame[4] = std::byte{2};
  auto decoded = decode_frame(frame);
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.status().code(), ErrorCode::kLaunch);
  EXPECT_NE(decoded.status().message().find("version 2"), std::string::npos);
}

TEST(FrameTest, UnknownTypeIsAnError) {
  for (const unsigned type : {0u, 7u, 0xffffu}) {
    auto frame = encode_frame(FrameType::kHello, {});
    frame[6] = static_cast<std::byte>(type & 0xff);
    frame[7] = static_cast<std::byte>(type >> 8);
    EXPECT_FALSE(decode_frame(frame).ok()) << type;
  }
}

}  // namespace
}  // namespace collbench::bootstrap::tcp
