// The wire format of the TCP rendezvous: every message is one frame, a fixed 12-byte header
// (magic, version, type, payload length; little-endian) and a bounded payload. Decoding is a
// pure function of the bytes, so it can be fuzzed on its own.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "common/status.hpp"

namespace collbench::bootstrap::tcp {

enum class FrameType : std::uint16_t {
  kHello = 1,    // rank -> rank 0: who I am (messages.hpp)
  kAck = 2,      // rank 0 -> rank: hello accepted; how long rank 0 will still wait
  kWelcome = 3,  // rank 0 -> rank: everyone is here; your local rank
  kData = 4,     // both ways: one step of a bootstrap operation
  kError = 5,    // rank 0 -> rank: rejected, or the operation failed (code and message)
  kAbort = 6,    // either way: the sender is ending the job
};

inline constexpr std::uint32_t kFrameMagic = 0x50544243;  // "CBTP" on the wire
inline constexpr std::uint16_t kProtocolVersion = 1;
inline constexpr std::size_t kHeaderSize = 12;
// Large enough for an allgather of a few KiB from each of thousands of ranks.
inline constexpr std::uint32_t kMaxPayload = 256u << 20;

struct FrameHeader {
  FrameType type = FrameType::kHello;
  std::uint32_t length = 0;  // payload bytes that follow the header
};

// A decoded frame; `payload` views the decoded bytes.
struct Frame {
  FrameType type = FrameType::kHello;
  std::span<const std::byte> payload;
};

std::string_view frame_type_name(FrameType type);

// Validates magic, version, type and `length <= max_payload`. `bytes` must hold at least the header.
Result<FrameHeader> decode_header(std::span<const std::byte> bytes, std::uint32_t max_payload = kMaxPayload);

// `bytes` must hold exactly one whole frame: truncated input and trailing bytes are errors.
Result<Frame> decode_frame(std::span<const std::byte> bytes, std::uint32_t max_payload = kMaxPayload);

std::array<std::byte, kHeaderSize> encode_header(FrameType type, std::uint32_t length);
// Header and payload in one buffer; the payload must not exceed kMaxPayload (checked by callers).
std::vector<std::byte> encode_frame(FrameType type, std::span<const std::byte> payload);

}  // namespace collbench::bootstrap::tcp
