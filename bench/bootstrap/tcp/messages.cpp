#include "bench/bootstrap/tcp/messages.hpp"

#include "bench/bootstrap/tcp/wire.hpp"

namespace collbench::bootstrap::tcp {
namespace {

Status malformed(std::string_view what) {
  return Status::error(ErrorCode::kComm, "protocol error: malformed " + std::string(what) + " message");
}

bool finished(const ByteReader& in) { return in.ok() && in.at_end(); }

constexpr auto kFirstError = static_cast<std::uint8_t>(ErrorCode::kInternal);
constexpr auto kLastError = static_cast<std::uint8_t>(ErrorCode::kRegression);

}  // namespace

std::string_view step_kind_name(StepKind kind) {
  switch (kind) {
    case StepKind::kBarrier: return "barrier";
    case StepKind::kAllgather: return "allgather";
    case StepKind::kBroadcast: return "broadcast";
    case StepKind::kAllreduce: return "allreduce";
  }
  return "unknown operation";
}

std::string describe(const Step& step) {
  std::string out = std::string(step_kind_name(step.kind)) + " #" + std::to_string(step.seq);
  if (step.kind == StepKind::kBarrier) return out;
  out += " (" + std::to_string(step.block) + " bytes";
  if (step.kind == StepKind::kBroadcast) out += ", root " + std::to_string(step.root);
  return out + ")";
}

std::vector<std::byte> encode_hello(const Hello& hello) {
  ByteWriter out;
  out.str(hello.token);
  out.u32(hello.world_size);
  out.u32(hello.rank);
  out.u32(static_cast<std::uint32_t>(hello.local_rank));
  out.str(hello.host);
  return std::move(out).take();
}

Result<Hello> decode_hello(std::span<const std::byte> payload) {
  ByteReader in(payload);
  Hello hello;
  hello.token = in.str(kMaxTokenLength);
  hello.world_size = in.u32();
  hello.rank = in.u32();
  hello.local_rank = static_cast<std::int32_t>(in.u32());
  hello.host = in.str(kMaxHostLength);
  if (!finished(in)) return malformed("hello");
  return hello;
}

std::vector<std::byte> encode_ack(const Ack& ack) {
  ByteWriter out;
  out.u32(ack.remaining_ms);
  return std::move(out).take();
}

Result<Ack> decode_ack(std::span<const std::byte> payload) {
  ByteReader in(payload);
  Ack ack{in.u32()};
  if (!finished(in)) return malformed("ack");
  return ack;
}

std::vector<std::byte> encode_welcome(const Welcome& welcome) {
  ByteWriter out;
  out.u32(welcome.local_rank);
  out.u32(welcome.local_size);
  return std::move(out).take();
}

Result<Welcome> decode_welcome(std::span<const std::byte> payload) {
  ByteReader in(payload);
  Welcome welcome;
  welcome.local_rank = in.u32();
  welcome.local_size = in.u32();
  if (!finished(in) || welcome.local_rank >= welcome.local_size) return malformed("welcome");
  return welcome;
}

std::vector<std::byte> encode_error(const ErrorReply& error) {
  ByteWriter out;
  out.u8(static_cast<std::uint8_t>(error.code));
  out.str(std::string_view(error.message).substr(0, kMaxErrorLength));
  return std::move(out).take();
}

Result<ErrorReply> decode_error(std::span<const std::byte> payload) {
  ByteReader in(payload);
  const std::uint8_t code = in.u8();
  ErrorReply error;
  error.message = in.str(kMaxErrorLength);
  if (!finished(in) || code < kFirstError || code > kLastError) return malformed("error");
  error.code = static_cast<ErrorCode>(code);
  return error;
}

std::vector<std::byte> encode_abort(const AbortNotice& notice) {
  ByteWriter out;
  out.u32(static_cast<std::uint32_t>(notice.exit_code));
  return std::move(out).take();
}

Result<AbortNotice> decode_abort(std::span<const std::byte> payload) {
  ByteReader in(payload);
  AbortNotice notice{static_cast<std::int32_t>(in.u32())};
  if (!finished(in)) return malformed("abort");
  return notice;
}

std::vector<std::byte> encode_data(const Step& step, std::span<const std::byte> data) {
  ByteWriter out;
  out.u8(static_cast<std::uint8_t>(step.kind));
  out.u8(step.op);
  out.u32(step.seq);
  out.u32(step.root);
  out.u64(step.block);
  out.bytes(data);
  return std::move(out).take();
}

Result<DataView> decode_data(std::span<const std::byte> payload) {
  ByteReader in(payload);
  DataView view;
  const std::uint8_t kind = in.u8();
  view.step.op = in.u8();
  view.step.seq = in.u32();
  view.step.root = in.u32();
  view.step.block = in.u64();
  if (!in.ok() || kind < static_cast<std::uint8_t>(StepKind::kBarrier) ||
      kind > static_cast<std::uint8_t>(StepKind::kAllreduce)) {
    return malformed("data");
  }
  view.step.kind = static_cast<StepKind>(kind);
  view.data = in.rest();
  return view;
}

}  // namespace collbench::bootstrap::tcp
