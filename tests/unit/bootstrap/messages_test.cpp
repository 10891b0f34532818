#include "bench/bootstrap/tcp/messages.hpp"

#include <gtest/gtest.h>

#include <string>

namespace collbench::bootstrap::tcp {
namespace {

TEST(MessagesTest, HelloRoundTrips) {
  const Hello hello{"0123456789abcdef", 8, 3, 1, "node-b"};
  auto decoded = decode_hello(encode_hello(hello));
  ASSERT_TRUE(decoded.ok()) << decoded.status().message();
  EXPECT_EQ(decoded->token, hello.token);
  EXPECT_EQ(decoded->world_size, 8u);
  EXPECT_EQ(decoded->rank, 3u);
  EXPECT_EQ(decoded->local_rank, 1);
  EXPECT_EQ(decoded->host, "node-b");
  EXPECT_EQ(decode_hello(encode_hello(Hello{"t", 2, 1, -1, "h"}))->local_rank, -1);
}

TEST(MessagesTest, EveryTruncatedHelloIsAnErrorAndTrailingBytesToo) {
  const auto bytes = encode_hello(Hello{"0123456789abcdef", 8, 3, 1, "node-b"});
  for (std::size_t n = 0; n < bytes.size(); ++n) EXPECT_FALSE(decode_hello(std::span(bytes).first(n)).ok()) << n;
  auto longer = bytes;
  longer.push_back(std::byte{0});
  EXPECT_FALSE(decode_hello(longer).ok());
}

TEST(MessagesTest, OverlongFieldsAreRejected) {
  EXPECT_FALSE(decode_hello(encode_hello(Hello{std::string(kMaxTokenLength + 1, 'x'), 2, 1, 0, "h"})).ok());
  EXPECT_FALSE(decode_hello(encode_hello(Hello{"t", 2, 1, 0, std::string(kMaxHostLength + 1, 'h')})).ok());
  EXPECT_TRUE(decode_hello(encode_hello(Hello{std::string(kMaxTokenLength, 'x'), 2, 1, 0, "h"})).ok());
}

TEST(MessagesTest, ErrorReplyKeepsCodeAndMessage) {
  auto decoded = decode_error(encode_error(ErrorReply{ErrorCode::kTimeout, "rank 3 did not join"}));
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(decoded->code, ErrorCode::kTimeout);
  EXPECT_EQ(decoded->message, "rank 3 did not join");
  auto bytes = encode_error(ErrorReply{ErrorCode::kLaunch, "x"});
  bytes[0] = std::byte{0};  // kOk is not an error
  EXPECT_FALSE(decode_error(bytes).ok());
  bytes[0] = std::byte{200};
  EXPECT_FALSE(decode_error(bytes).ok());
}

TEST(MessagesTest, WelcomeNeedsLocalRankBelowLocalSize) {
  auto ok = decode_welcome(encode_welcome(Welcome{1, 4}));
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->local_rank, 1u);
  EXPECT_EQ(ok->local_size, 4u);
  EXPECT_FALSE(decode_welcome(encode_welcome(Welcome{4, 4})).ok());
}

TEST(MessagesTest, AckAndAbortRoundTrip) {
  EXPECT_EQ(decode_ack(encode_ack(Ack{12345}))->remaining_ms, 12345u);
  EXPECT_EQ(decode_abort(encode_abort(AbortNotice{4}))->exit_code, 4);
  EXPECT_FALSE(decode_ack({}).ok());
  EXPECT_FALSE(decode_abort({}).ok());
}

TEST(MessagesTest, DataCarriesStepAndBytes) {
  const Step step{StepKind::kBroadcast, 0, 7, 2, 3};
  const std::vector<std::byte> data = {std::byte{1}, std::byte{2}, std::byte{3}};
  // The view points into the encoded payload, which must outlive it.
  const std::vector<std::byte> payload = encode_data(step, data);
  auto view = decode_data(payload);
  ASSERT_TRUE(view.ok());
  EXPECT_EQ(view->step, step);
  EXPECT_EQ(std::vector<std::byte>(view->data.begin(), view->data.end()), data);
  auto bad = encode_data(step, data);
  bad[0] = std::byte{9};
  EXPECT_FALSE(decode_data(bad).ok());
  EXPECT_FALSE(decode_data(std::span(bad).first(5)).ok());
}

TEST(MessagesTest, DescribeNamesTheOperation) {
  EXPECT_EQ(describe(Step{StepKind::kBarrier, 0, 3, 0, 0}), "barrier #3");
  EXPECT_EQ(describe(Step{StepKind::kAllgather, 0, 7, 0, 16}), "allgather #7 (16 bytes)");
  EXPECT_EQ(describe(Step{StepKind::kBroadcast, 0, 1, 2, 8}), "broadcast #1 (8 bytes, root 2)");
}

}  // namespace
}  // namespace collbench::bootstrap::tcp
