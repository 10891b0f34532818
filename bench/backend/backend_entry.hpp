// What each backend adapter tells the wiring about itself: its name, what it offers, its
// help line, whether every rank can use it, and how to build one. Each adapter defines one
// BackendEntry (bench/backend/*/..._entry.cpp); the build lists the compiled ones
// (cmake/CollbenchAdapters.cmake) and the CLI's registry reads that list, so that adding a
// backend touches its own files, one CMake line and the docs, and no #if anywhere.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "bench/backend/backend.hpp"
#include "bench/bootstrap/bootstrap.hpp"
#include "common/process_resources.hpp"

namespace collbench::backend {

// nccl-tests' GPU options, as resolved from the flags (ignored by host backends).
struct DeviceOptions {
  int register_buffers = 0;  // -R: 0 none, 1 ncclCommRegister, 2 symmetric windows
  int cta_policy = -1;       // -x: the communicator's CTA policy; -1 leaves NCCL's default
  bool stream_null = false;  // -y 1: launch on the legacy default stream
  int first_device = -1;     // NCCL_TESTS_DEVICE: GPU = first + local rank (-1: local rank)
};

// What an entry needs to build a backend for this rank.
struct BackendSetup {
  bootstrap::Bootstrap& boot;
  std::string host;     // this rank's host
  std::string cpu_set;  // the CPUs this rank may run on
  DeviceOptions device;
  ProcessResources& process;
};

struct BackendFeatures {
  std::string_view memory;      // "host" or "device"
  bool point_to_point = false;  // launch_p2p (collbench locate's pairs and groups)
  bool groups = false;          // -m
  bool graphs = false;          // -G
  bool registration = false;    // -R
  bool threads = false;         // several ranks per process (-g)
  // The library allocates a message-sized host temporary on every call (Open MPI's large
  // collectives): from glibc's mmap threshold each call maps it afresh and pays its page
  // faults unless --malloc-keep. The run records it, and the anomaly analysis names that
  // cause for a drop there (report/analysis/anomalies.hpp).
  bool allocates_per_call = false;
};

struct BackendEntry {
  std::string_view name;  // --backend NAME
  std::string_view help;  // one line: what it measures and when auto picks it
  int auto_order = 0;     // --backend auto tries the usable entries in this order
  BackendFeatures features;
  // Every rank calls it, for --backend auto only: "" when every rank of the job can use this
  // backend, else why not (the same answer on every rank; it may exchange through the
  // bootstrap). auto passes over an entry with a reason.
  std::function<Result<std::string>(const BackendSetup&)> usable;
  // Checked before make() for an explicit --backend NAME as well: an error when this launch
  // can never work with the backend (kLaunch, with what to do instead).
  std::function<Status(const BackendSetup&)> launchable;
  std::function<Result<std::unique_ptr<Backend>>(const BackendSetup&)> make;
  // The note --backend auto prints when it picks this entry ("" for none), after the reasons
  // it passed over the entries before it.
  std::function<std::string(const BackendSetup&)> auto_note;
  // The library this process loaded, as it answers at run time without a device or a job
  // ("NCCL 2.21.5 loaded (headers 2.28.9)"), for --version; empty where there is none to ask.
  // A bundle meets whichever libnccl.so.2 the machine has, so this is what the user sees.
  std::function<std::string()> loaded_library;
};

// The entries of the adapters that are always built.
const BackendEntry& bootstrap_backend_entry();

}  // namespace collbench::backend
