#include "bench/bootstrap/tcp/link.hpp"

#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>

#include <thread>

#include "bench/bootstrap/tcp/messages.hpp"
#include "bench/bootstrap/tcp/star.hpp"

namespace collbench::bootstrap::tcp {
namespace {

// Two connected non-blocking stream sockets: a real kernel byte stream, no network needed.
std::pair<Link, Fd> socket_pair() {
  int fds[2] = {-1, -1};
  EXPECT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, fds), 0);
  return {Link(Fd(fds[0])), Fd(fds[1])};
}

void write_all(const Fd& fd, std::span<const std::byte> bytes) {
  ASSERT_EQ(send(fd.get(), bytes.data(), bytes.size(), MSG_NOSIGNAL), static_cast<ssize_t>(bytes.size()));
}

TEST(LinkTest, AssemblesAFrameThatArrivesByteByByte) {
  auto [link, other] = socket_pair();
  const std::vector<std::byte> payload(100, std::byte{7});
  const auto frame = encode_frame(FrameType::kData, payload);
  for (std::size_t i = 0; i < frame.size(); ++i) {
    auto event = link.receive(kMaxPayload);
    ASSERT_TRUE(event.ok());
    ASSERT_EQ(*event, Link::Event::kNothing) << i;
    write_all(other, std::span(frame).subspan(i, 1));
  }
  ASSERT_EQ(*link.receive(kMaxPayload), Link::Event::kFrame);
  const OwnedFrame got = link.take_frame();
  EXPECT_EQ(got.type, FrameType::kData);
  EXPECT_EQ(got.payload, payload);
}

TEST(LinkTest, ReadsOneFrameAtATimeAndLeavesTheNextInTheSocket) {
  auto [link, other] = socket_pair();
  auto two = encode_frame(FrameType::kAck, encode_ack(Ack{1}));
  const auto second = encode_frame(FrameType::kAck, encode_ack(Ack{2}));
  two.insert(two.end(), second.begin(), second.end());
  write_all(other, two);
  ASSERT_EQ(*link.receive(kMaxPayload), Link::Event::kFrame);
  EXPECT_EQ(decode_ack(link.take_frame().payload)->remaining_ms, 1u);
  ASSERT_EQ(*link.receive(kMaxPayload), Link::Event::kFrame);
  EXPECT_EQ(decode_ack(link.take_frame().payload)->remaining_ms, 2u);
  EXPECT_EQ(*link.receive(kMaxPayload), Link::Event::kNothing);
}

TEST(LinkTest, OversizeFrameFailsBeforeItsPayloadIsRead) {
  auto [link, other] = socket_pair();
  write_all(other, encode_header(FrameType::kHello, 1u << 30));
  auto event = link.receive(kMaxHelloPayload);
  ASSERT_FALSE(event.ok());
  EXPECT_NE(event.status().message().find("exceeds the limit"), std::string::npos);
}

TEST(LinkTest, GarbageIsAProtocolError) {
  auto [link, other] = socket_pair();
  const std::string http = "GET / HTTP/1.1\r\n\r\n";
  write_all(other, std::as_bytes(std::span(http)));
  auto event = link.receive(kMaxHelloPayload);
  ASSERT_FALSE(event.ok());
  EXPECT_NE(event.status().message().find("not a collbench frame"), std::string::npos);
}

TEST(LinkTest, CloseMidFrameIsClosed) {
  auto [link, other] = socket_pair();
  const auto frame = encode_frame(FrameType::kData, std::vector<std::byte>(10));
  write_all(other, std::span(frame).first(15));
  other.reset();
  EXPECT_EQ(*link.receive(kMaxPayload), Link::Event::kClosed);
}

TEST(LinkTest, FlushWritesLargeOutputAsThePeerReads) {
  auto [link, other] = socket_pair();
  const std::vector<std::byte> big(8u << 20, std::byte{3});
  link.queue_frame(FrameType::kData, big);
  Link reader(std::move(other));
  OwnedFrame got;
  std::thread drain([&] {
    auto awaited = await_frame(reader, Deadline::in(20), kMaxPayload, got);
    EXPECT_TRUE(awaited.ok() && *awaited == Awaited::kFrame);
  });
  while (link.has_output()) {
    ASSERT_EQ(*link.flush(), Link::Event::kNothing);
    pollfd p{link.fd(), POLLOUT, 0};
    (void)poll(&p, 1, 100);
  }
  drain.join();
  EXPECT_EQ(got.payload.size(), big.size());
}

TEST(LinkTest, AwaitFrameTimesOutOnSilence) {
  auto [link, other] = socket_pair();
  OwnedFrame frame;
  const auto start = Clock::now();
  auto awaited = await_frame(link, Deadline::in(0.2), kMaxPayload, frame);
  ASSERT_TRUE(awaited.ok());
  EXPECT_EQ(*awaited, Awaited::kTimeout);
  EXPECT_GE(Clock::now() - start, std::chrono::milliseconds(190));
}

TEST(StarTest, DescribeRanksNamesAFewAndCountsTheRest) {
  EXPECT_EQ(describe_ranks(std::vector<int>{3}), "rank 3");
  EXPECT_EQ(describe_ranks(std::vector<int>{3, 7}, [](int r) { return "node" + std::to_string(r); }),
            "ranks 3 (node3), 7 (node7)");
  std::vector<int> many(20);
  for (int i = 0; i < 20; ++i) many[static_cast<std::size_t>(i)] = i + 1;
  EXPECT_EQ(describe_ranks(many), "ranks 1, 2, 3, 4, 5, 6, 7, 8 and 12 more");
}

TEST(StarTest, WaitSetTracksArrivals) {
  WaitSet waiting;
  EXPECT_TRUE(waiting.pending().empty());
  waiting.wait_for({1, 2, 5});
  waiting.arrived(2);
  EXPECT_EQ(waiting.pending(), (std::vector<int>{1, 5}));
  waiting.clear();
  EXPECT_TRUE(waiting.pending().empty());
}

TEST(StarTest, AbortExitCodeMapsBackToItsErrorCode) {
  EXPECT_EQ(code_for_exit(4), ErrorCode::kTimeout);
  EXPECT_EQ(code_for_exit(8), ErrorCode::kLaunch);
  EXPECT_EQ(code_for_exit(99), ErrorCode::kComm);
}

}  // namespace
}  // namespace collbench::bootstrap::tcp
