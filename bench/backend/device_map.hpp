// Which GPU each rank drives, and the classic launch mistakes caught before any
// communicator exists: two ranks on one GPU of a host, more ranks on a host than GPUs, no
// usable driver. Pure logic on a table of every rank's claim (vendor-free, unit-tested on
// made-up tables); the NCCL backend fills the table through the bootstrap.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/status.hpp"

namespace collbench::backend {

// What one rank found when it looked for its GPU.
struct DeviceClaim {
  int rank = 0;
  std::string host;
  int local_rank = 0;
  int visible_devices = 0;                // as the CUDA runtime counts them (after CUDA_VISIBLE_DEVICES)
  int device = -1;                        // the ordinal it chose; -1 when it could not choose
  std::string pci_bus_id;                 // of that device, e.g. "0000:18:00.0"
  ErrorCode error_code = ErrorCode::kOk;  // why it has no device: kComm (no driver or GPU)
  std::string error;                      // or kLaunch (local rank too large); message
};

// The device ordinal for a rank: its local rank (never its global rank). A process that
// sees exactly one GPU uses it, whatever its local rank: launchers that bind one GPU per
// task (srun --gpus-per-task=1) set CUDA_VISIBLE_DEVICES that way, and the bus-id check
// catches the ranks that would share it by mistake. With `first_device` >= 0
// (NCCL_TESTS_DEVICE) the ordinal is first_device + local rank, and must exist.
Result<int> choose_device(int rank, std::string_view host, int local_rank, int visible_devices, int first_device = -1);

// "no CUDA device visible (driver error 35: CUDA driver version is insufficient ...)"
std::string no_device_message(int error_code, std::string_view error_text);

// The first problem in the table, as an error naming the ranks and hosts: ranks that have no
// device (their own error code and message), or ranks of one host on the same GPU
// (ErrorCode::kLaunch). OK when every rank has a GPU of its own.
Status check_device_claims(const std::vector<DeviceClaim>& claims);

// One claim as a line of text for the bootstrap's string exchange, and back.
std::string encode_claim(const DeviceClaim& claim);
Result<DeviceClaim> decode_claim(std::string_view text);

}  // namespace collbench::backend
