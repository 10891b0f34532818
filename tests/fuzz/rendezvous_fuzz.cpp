// The TCP rendezvous wire format: whatever connects to rank 0's port, or answers a rank, sends
// bytes that go through decode_frame and the message decoders. Every decoded frame and message
// must encode back to exactly the bytes it came from.
#include <algorithm>
#include <vector>

#include "bench/bootstrap/tcp/frame.hpp"
#include "bench/bootstrap/tcp/messages.hpp"
#include "tests/fuzz/fuzz_entries.hpp"

namespace collbench::fuzz {
namespace {

using bootstrap::tcp::FrameType;
using Payload = std::span<const std::byte>;

bool same(const std::vector<std::byte>& encoded, Payload original) {
  return std::equal(encoded.begin(), encoded.end(), original.begin(), original.end());
}

// Each decoder on the payload; what it accepts must encode back to the same bytes.
void check_payload(FrameType type, Payload payload) {
  namespace tcp = bootstrap::tcp;
  switch (type) {
    case FrameType::kHello:
      if (auto m = tcp::decode_hello(payload); m.ok()) COLLBENCH_FUZZ_REQUIRE(same(tcp::encode_hello(*m), payload));
      break;
    case FrameType::kAck:
      if (auto m = tcp::decode_ack(payload); m.ok()) COLLBENCH_FUZZ_REQUIRE(same(tcp::encode_ack(*m), payload));
      break;
    case FrameType::kWelcome:
      if (auto m = tcp::decode_welcome(payload); m.ok()) {
        COLLBENCH_FUZZ_REQUIRE(m->local_rank < m->local_size);
        COLLBENCH_FUZZ_REQUIRE(same(tcp::encode_welcome(*m), payload));
      }
      break;
    case FrameType::kError:
      if (auto m = tcp::decode_error(payload); m.ok()) {
        COLLBENCH_FUZZ_REQUIRE(m->code != ErrorCode::kOk);
        COLLBENCH_FUZZ_REQUIRE(same(tcp::encode_error(*m), payload));
      }
      break;
    case FrameType::kAbort:
      if (auto m = tcp::decode_abort(payload); m.ok()) COLLBENCH_FUZZ_REQUIRE(same(tcp::encode_abort(*m), payload));
      break;
    case FrameType::kData:
      if (auto m = tcp::decode_data(payload); m.ok()) {
        COLLBENCH_FUZZ_REQUIRE(!tcp::describe(m->step).empty());
        COLLBENCH_FUZZ_REQUIRE(same(tcp::encode_data(m->step, m->data), payload));
      }
      break;
  }
}

}  // namespace

void rendezvous(Bytes input) {
  const Payload bytes = as_bytes(input);
  // As rank 0 reads a connection that has not said hello yet, and as any later frame.
  for (std::uint32_t limit : {bootstrap::tcp::kMaxHelloPayload, bootstrap::tcp::kMaxPayload}) {
    auto frame = bootstrap::tcp::decode_frame(bytes, limit);
    if (!frame.ok()) continue;
    COLLBENCH_FUZZ_REQUIRE(frame->payload.size() <= limit);
    COLLBENCH_FUZZ_REQUIRE(same(bootstrap::tcp::encode_frame(frame->type, frame->payload), bytes));
    check_payload(frame->type, frame->payload);
  }
  // The payload decoders on their own, on the whole input.
  for (auto type : {FrameType::kHello, FrameType::kAck, FrameType::kWelcome, FrameType::kData, FrameType::kError,
                    FrameType::kAbort}) {
    check_payload(type, bytes);
  }
}

}  // namespace collbench::fuzz

COLLBENCH_FUZZ_TARGET(rendezvous)
