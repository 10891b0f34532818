#include "bench/bootstrap/tcp/frame.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "bench/bootstrap/tcp/wire.hpp"

namespace collbench::bootstrap::tcp {
namespace {

Status protocol_error(std::string message) {
  return Status::error(ErrorCode::kComm, "protocol error: " + std::move(message));
}

bool known_type(std::uint16_t type) {
  return type >= static_cast<std::uint16_t>(FrameType::kHello) && type <= static_cast<std::uint16_t>(FrameType::kAbort);
}

}  // namespace

std::string_view frame_type_name(FrameType type) {
  switch (type) {
    case FrameType::kHello: return "hello";
    case FrameType::kAck: return "ack";
    case FrameType::kWelcome: return "welcome";
    case FrameType::kData: return "data";
    case FrameType::kError: return "error";
    case FrameType::kAbort: return "abort";
  }
  return "unknown";
}

Result<FrameHeader> decode_header(std::span<const std::byte> bytes, std::uint32_t max_payload) {
  ByteReader in(bytes.first(std::min(bytes.size(), kHeaderSize)));
  const std::uint32_t magic = in.u32();
  const std::uint16_t version = in.u16();
  const std::uint16_t type = in.u16();
  const std::uint32_t length = in.u32();
  if (!in.ok()) {
    return protocol_error("truncated frame header (" + std::to_string(bytes.size()) + " of " +
                          std::to_string(kHeaderSize) + " bytes)");
  }
  if (magic != kFrameMagic) return protocol_error("not a collbench frame (bad magic)");
  if (version != kProtocolVersion) {
    return Status::error(ErrorCode::kLaunch, "collbench rendezvous protocol version " + std::to_string(version) +
                                                 " meets version " + std::to_string(kProtocolVersion) +
                                                 ": run the same collbench build on every rank");
  }
  if (!known_type(type)) return protocol_error("unknown frame type " + std::to_string(type));
  if (length > max_payload) {
    return protocol_error("frame of " + std::to_string(length) + " bytes exceeds the limit of " +
                          std::to_string(max_payload));
  }
  return FrameHeader{static_cast<FrameType>(type), length};
}

Result<Frame> decode_frame(std::span<const std::byte> bytes, std::uint32_t max_payload) {
  COLLBENCH_ASSIGN_OR_RETURN(const FrameHeader header, decode_header(bytes, max_payload));
  const std::size_t want = kHeaderSize + header.length;
  if (bytes.size() < want) {
    return protocol_error("truncated " + std::string(frame_type_name(header.type)) + " frame (" +
                          std::to_string(bytes.size()) + " of " + std::to_string(want) + " bytes)");
  }
  if (bytes.size() > want) {
    return protocol_error(std::to_string(bytes.size() - want) + " unexpected bytes after a frame");
  }
  return Frame{header.type, bytes.subspan(kHeaderSize)};
}

std::array<std::byte, kHeaderSize> encode_header(FrameType type, std::uint32_t length) {
  ByteWriter out;
  out.u32(kFrameMagic);
  out.u16(kProtocolVersion);
  out.u16(static_cast<std::uint16_t>(type));
  out.u32(length);
  std::array<std::byte, kHeaderSize> header{};
  std::copy(out.bytes().begin(), out.bytes().end(), header.begin());
  return header;
}

std::vector<std::byte> encode_frame(FrameType type, std::span<const std::byte> payload) {
  const auto header = encode_header(type, static_cast<std::uint32_t>(payload.size()));
  std::vector<std::byte> frame(kHeaderSize + payload.size());
  std::copy(header.begin(), header.end(), frame.begin());
  if (!payload.empty()) std::memcpy(frame.data() + kHeaderSize, payload.data(), payload.size());
  return frame;
}

}  // namespace collbench::bootstrap::tcp
