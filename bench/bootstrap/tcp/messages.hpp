// The payloads of the rendezvous frames (frame.hpp) and their pure encoders and decoders.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.hpp"

namespace collbench::bootstrap::tcp {

inline constexpr std::size_t kMaxTokenLength = 64;
inline constexpr std::size_t kMaxHostLength = 255;
inline constexpr std::size_t kMaxErrorLength = 4096;
// A hello is tiny; frames from a connection that has not identified itself are held to this.
inline constexpr std::uint32_t kMaxHelloPayload = 1024;

// Sent by every rank but 0 as soon as it is connected.
struct Hello {
  std::string token;  // the job token's fingerprint (env_config.hpp)
  std::uint32_t world_size = 0;
  std::uint32_t rank = 0;
  std::int32_t local_rank = -1;  // LOCAL_RANK when the launcher set it, else -1
  std::string host;
};

// Rank 0 accepted the hello and will wait `remaining_ms` more for the other ranks.
struct Ack {
  std::uint32_t remaining_ms = 0;
};

// Every rank has joined: the receiver's place among the ranks of its host.
struct Welcome {
  std::uint32_t local_rank = 0;
  std::uint32_t local_size = 1;
};

// A rejected hello or a failed operation, as rank 0 saw it.
struct ErrorReply {
  ErrorCode code = ErrorCode::kComm;
  std::string message;
};

struct AbortNotice {
  std::int32_t exit_code = 1;
};

enum class StepKind : std::uint8_t { kBarrier = 1, kAllgather = 2, kBroadcast = 3, kAllreduce = 4 };

// Which operation a data frame belongs to. Rank 0 checks that every rank is in the same one.
struct Step {
  StepKind kind = StepKind::kBarrier;
  std::uint8_t op = 0;      // ReduceOp of an allreduce
  std::uint32_t seq = 0;    // operations this rank has started before this one
  std::uint32_t root = 0;   // broadcast root
  std::uint64_t block = 0;  // the caller's buffer size in bytes (per rank for allgather)

  friend bool operator==(const Step&, const Step&) = default;
};

struct DataView {
  Step step;
  std::span<const std::byte> data;
};

std::string_view step_kind_name(StepKind kind);
// "allgather #7 (block of 16 bytes)", for mismatch messages.
std::string describe(const Step& step);

std::vector<std::byte> encode_hello(const Hello& hello);
std::vector<std::byte> encode_ack(const Ack& ack);
std::vector<std::byte> encode_welcome(const Welcome& welcome);
std::vector<std::byte> encode_error(const ErrorReply& error);
std::vector<std::byte> encode_abort(const AbortNotice& notice);
std::vector<std::byte> encode_data(const Step& step, std::span<const std::byte> data);

// Each decoder takes a whole payload and rejects short input, trailing bytes and out-of-range fields.
Result<Hello> decode_hello(std::span<const std::byte> payload);
Result<Ack> decode_ack(std::span<const std::byte> payload);
Result<Welcome> decode_welcome(std::span<const std::byte> payload);
Result<ErrorReply> decode_error(std::span<const std::byte> payload);
Result<AbortNotice> decode_abort(std::span<const std::byte> payload);
Result<DataView> decode_data(std::span<const std::byte> payload);

}  // namespace collbench::bootstrap::tcp
