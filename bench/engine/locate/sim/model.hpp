// The simulated cluster a `locate --simulate MODEL.json` run measures (docs/design/
// locate-at-scale.md, section 3): its shape, its faults and its noise, read from JSON.
//
//   {"hosts": 128, "ranks_per_host": 8, "nic_gbps": 25, "intra_host_gbps": 150,
//    "hosts_per_leaf": 16, "uplink_gbps": 0, "latency_us": 5, "seed": 7,
//    "noise": {"sigma": 0.03, "spike_probability": 0.001, "spike_factor": 3},
//    "faults": [{"kind": "slow_host", "host": 12, "factor": 0.2},
//               {"kind": "slow_nic", "rank": 3, "factor": 0.5},
//               {"kind": "slow_link", "hosts": [1, 3], "factor": 0.2},
//               {"kind": "slow_uplink", "leaf": 2, "factor": 0.2},
//               {"kind": "cpu_starved", "host": 5, "late_us": 200}]}
//
// Every key but "hosts" may be left out (the defaults are NetworkShape's, no faults, noise of
// 3 %, seed 1). Unknown keys are errors: a misspelt fault would otherwise simulate a healthy
// cluster and report that nothing is wrong.
#pragma once

#include <cstdint>
#include <map>
#include <string_view>

#include "bench/engine/locate/sim/network.hpp"
#include "common/status.hpp"

namespace collbench::engine::locate::sim {

// Each timed iteration's time is multiplied by exp(sigma * z), z standard normal, and by
// spike_factor with probability spike_probability (a descheduled rank, a retransmit).
struct NoiseModel {
  double sigma = 0.03;
  double spike_probability = 0;
  double spike_factor = 3;
};

struct SimModel {
  NetworkShape shape;
  NetworkFaults faults;
  std::map<int, double> cpu_starved_late_us;  // host -> how late its ranks enter each collective
  NoiseModel noise;
  std::uint64_t seed = 1;
};

// kUsage with the key's path ("faults[2].factor: ...") for anything malformed; the shape and
// faults are also checked as Network::make checks them.
Result<SimModel> parse_sim_model(std::string_view json_text);

}  // namespace collbench::engine::locate::sim
