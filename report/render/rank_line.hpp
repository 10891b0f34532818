// How nccl-tests names a rank's device: the "Using devices" line of its table and the device
// fields of its JSON (src/util.cu prints one and parses the other back from it).
#pragma once

#include <string>
#include <string_view>

#include "report/record.hpp"

namespace collbench::report {

// "cuda:3" -> 3; host memory and unknown devices -> -1.
int device_index(std::string_view device);

// nccl-tests prints domain:bus:device as "%04x:%02x:%02x"; CUDA and NVML give "0000:3B:00.0"
// or "00000000:3b:00.0". Without a bus ID the field names the device kind ("cpu").
std::string bus_field(const RankInfo& rank);

// "#  Rank  0 Group  0 Pid  41234 on   node0001 device  0 [0000:18:00] NVIDIA H100 80GB HBM3"
std::string format_rank_line(const RankInfo& rank);

}  // namespace collbench::report
