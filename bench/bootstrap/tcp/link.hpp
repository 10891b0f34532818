// One non-blocking TCP connection that carries frames: incremental reads that never take
// more than the frame in progress needs, and a queue of outgoing bytes written as the
// socket accepts them. The caller polls; a Link never blocks.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include "bench/bootstrap/tcp/frame.hpp"
#include "bench/bootstrap/tcp/socket.hpp"
#include "common/status.hpp"

namespace collbench::bootstrap::tcp {

struct OwnedFrame {
  FrameType type = FrameType::kHello;
  std::vector<std::byte> payload;
};

using SharedBytes = std::shared_ptr<const std::vector<std::byte>>;

class Link {
 public:
  enum class Event { kNothing, kFrame, kClosed };

  Link() = default;
  explicit Link(Fd fd) : fd_(std::move(fd)) {}

  int fd() const { return fd_.get(); }
  bool valid() const { return fd_.valid(); }

  // Reads what the socket holds until one whole frame is in (kFrame: take it with
  // take_frame()), nothing more is there (kNothing), or the peer closed or reset the
  // connection (kClosed, also mid-frame). A malformed or oversize frame is an error.
  Result<Event> receive(std::uint32_t max_payload);
  OwnedFrame take_frame();

  void queue(SharedBytes bytes);
  void queue(std::vector<std::byte> bytes) { queue(std::make_shared<const std::vector<std::byte>>(std::move(bytes))); }
  void queue_frame(FrameType type, std::span<const std::byte> payload) { queue(encode_frame(type, payload)); }
  bool has_output() const { return !out_.empty(); }
  // Writes what the socket accepts now. kClosed when the peer is gone; kNothing otherwise.
  Result<Event> flush();

 private:
  struct Chunk {
    SharedBytes bytes;
    std::size_t offset = 0;
  };
  // recv() into [data, data + size); returns bytes read, 0 for "try later", nullopt on close.
  Result<std::optional<std::size_t>> read_into(std::byte* data, std::size_t size);

  Fd fd_;
  std::array<std::byte, kHeaderSize> header_{};
  std::size_t header_got_ = 0;
  std::optional<FrameHeader> current_;
  std::vector<std::byte> payload_;
  std::size_t payload_got_ = 0;
  bool ready_ = false;
  std::deque<Chunk> out_;
};

}  // namespace collbench::bootstrap::tcp
