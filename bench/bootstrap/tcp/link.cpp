#include "bench/bootstrap/tcp/link.hpp"

#include <sys/socket.h>

#include <cerrno>

namespace collbench::bootstrap::tcp {
namespace {

bool peer_gone(int error) { return error == ECONNRESET || error == EPIPE || error == ETIMEDOUT; }

}  // namespace

Result<std::optional<std::size_t>> Link::read_into(std::byte* data, std::size_t size) {
  while (true) {
    const ssize_t n = recv(fd_.get(), data, size, 0);
    if (n > 0) return std::optional<std::size_t>(static_cast<std::size_t>(n));
    if (n == 0) return std::optional<std::size_t>();
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) return std::optional<std::size_t>(0);
    if (peer_gone(errno)) return std::optional<std::size_t>();
    return Status::error(ErrorCode::kComm, "recv: " + errno_text(errno));
  }
}

Result<Link::Event> Link::receive(std::uint32_t max_payload) {
  while (!ready_) {
    std::byte* target = nullptr;
    std::size_t want = 0;
    if (!current_) {
      target = header_.data() + header_got_;
      want = kHeaderSize - header_got_;
    } else {
      target = payload_.data() + payload_got_;
      want = payload_.size() - payload_got_;
    }
    COLLBENCH_ASSIGN_OR_RETURN(const auto got, read_into(target, want));
    if (!got) return Event::kClosed;
    if (*got == 0) return Event::kNothing;
    if (current_) {
      payload_got_ += *got;
      ready_ = payload_got_ == payload_.size();
      continue;
    }
    header_got_ += *got;
    if (header_got_ < kHeaderSize) continue;
    COLLBENCH_ASSIGN_OR_RETURN(current_, decode_header(header_, max_payload));
    payload_.assign(current_->length, std::byte{0});
    payload_got_ = 0;
    ready_ = current_->length == 0;
  }
  return Event::kFrame;
}

OwnedFrame Link::take_frame() {
  OwnedFrame frame{current_->type, std::move(payload_)};
  current_.reset();
  header_got_ = 0;
  payload_ = {};
  payload_got_ = 0;
  ready_ = false;
  return frame;
}

void Link::queue(SharedBytes bytes) {
  if (!bytes->empty()) out_.push_back(Chunk{std::move(bytes), 0});
}

Result<Link::Event> Link::flush() {
  while (!out_.empty()) {
    Chunk& chunk = out_.front();
    const std::size_t left = chunk.bytes->size() - chunk.offset;
    const ssize_t n = send(fd_.get(), chunk.bytes->data() + chunk.offset, left, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) return Event::kNothing;
      if (peer_gone(errno)) return Event::kClosed;
      return Status::error(ErrorCode::kComm, "send: " + errno_text(errno));
    }
    chunk.offset += static_cast<std::size_t>(n);
    if (chunk.offset == chunk.bytes->size()) out_.pop_front();
  }
  return Event::kNothing;
}

}  // namespace collbench::bootstrap::tcp
