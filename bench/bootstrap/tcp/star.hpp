// Exchanges over the star of connections that the rendezvous leaves behind: rank 0 holds one
// link per other rank, every other rank one link to rank 0. All loops poll and are bounded by
// a deadline, so one silent rank never blocks the others and never hangs the job.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <vector>

#include "bench/bootstrap/tcp/link.hpp"
#include "bench/bootstrap/tcp/wait_set.hpp"
#include "common/status.hpp"

namespace collbench::bootstrap::tcp {

// Rank 0's view of another rank.
struct Peer {
  int rank = 0;
  std::string host;
  Link link;
};

// How long rank 0 tries to deliver its verdict (an error frame) to the other ranks, and how
// much longer than the timeout another rank waits for that verdict, which names the culprits.
inline constexpr double kVerdictSeconds = 1.0;

// The status an aborting rank's exit code stands for, so that the whole job ends with one code.
ErrorCode code_for_exit(int exit_code);

// "rank 3 (node-b)" or "ranks 3 (node-b), 7 (node-c)", at most 8 of them, then "and N more".
// `host_of` may be empty.
std::string describe_ranks(std::span<const int> ranks, const std::function<std::string(int)>& host_of = {});

// A bounded exchange: what it is ("barrier #3", for messages), when it gives up and its timeout.
struct Exchange {
  std::string what;
  Deadline deadline;
  double timeout_s = 0;
};

// Rank 0: one frame from every peer, in peer order. `check` sees each data frame as it arrives
// and may fail the exchange; an abort frame always fails it.
using FrameCheck = std::function<Status(const Peer&, const OwnedFrame&)>;
Result<std::vector<OwnedFrame>> gather(std::span<Peer> peers, const Exchange& exchange, WaitSet& waiting,
                                       const FrameCheck& check);

// Rank 0: writes every peer's queued output.
Status flush_all(std::span<Peer> peers, const Exchange& exchange, WaitSet& waiting);

// Rank 0: best effort, tells every peer why the job failed.
void send_verdict(std::span<Peer> peers, const Status& status);

// Another rank: writes the link's queued output while waiting for the next frame.
enum class Awaited { kFrame, kClosed, kTimeout };
Result<Awaited> await_frame(Link& link, Deadline deadline, std::uint32_t max_payload, OwnedFrame& frame);

}  // namespace collbench::bootstrap::tcp
