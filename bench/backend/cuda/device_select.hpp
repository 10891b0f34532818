// This rank's GPU: chosen from the local rank, checked against every other rank's choice
// through the bootstrap before any communicator exists.
#pragma once

#include <string>

#include "bench/backend/memory.hpp"
#include "bench/bootstrap/bootstrap.hpp"

namespace collbench::backend::cuda {

struct SelectedDevice {
  int ordinal = -1;
  DeviceInfo info;
  int cc_major = 0;  // compute capability
  int cc_minor = 0;
  int sms = 1;  // multiprocessors, for kernel grid sizes
};

// Every rank of the job must call it (it exchanges the choices); on success the device is
// current on the calling thread. A rank without a usable GPU makes every rank fail with its
// message, so none is left waiting in a communicator.
// `first_device`: NCCL_TESTS_DEVICE, or -1 (see choose_device).
Result<SelectedDevice> select_device(bootstrap::Bootstrap& boot, const std::string& host, int first_device);

}  // namespace collbench::backend::cuda
